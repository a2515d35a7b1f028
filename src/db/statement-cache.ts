/**
 * better-sqlite3 with its prepared statements kept. Kysely prepares every query it runs,
 * and compiling the SQL took a fifth of the event loop's time when the API answered 2000
 * requests a second; the same few hundred statements come back again and again.
 * Reusing one is safe: SQLite has one connection, which Kysely lends to one query at a time.
 */
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct statements kept: queries with lists of varying length are distinct statements. */
const MAX_STATEMENTS = 500;

export function cachingStatements(db: SQLite.Database, max = MAX_STATEMENTS): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last: the first one is the one to drop.
        statements.delete(sql);
      } else {
        statement = db.prepare(sql) as unknown as SqliteStatement;
        if (statements.size >= max) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
