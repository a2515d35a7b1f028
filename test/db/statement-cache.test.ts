import assert from 'node:assert/strict';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { cachingStatements } from '../../src/db/statement-cache.js';

/** An in-memory database that counts what it compiles. */
function countingDb(): { db: SQLite.Database; prepared: string[] } {
  const db = new SQLite(':memory:');
  const prepared: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof db.prepare;
  return { db, prepared };
}

test('a query run again reuses its prepared statement and still reads what was written since', async () => {
  const { db, prepared } = countingDb();
  const kysely = new Kysely<{ t: { v: number } }>({ dialect: new SqliteDialect({ database: cachingStatements(db) }) });
  await sql`create table t (v integer)`.execute(kysely);
  for (let v = 1; v <= 3; v++) await kysely.insertInto('t').values({ v }).execute();
  const sum = async () =>
    Number(
      (
        await kysely
          .selectFrom('t')
          .select((eb) => eb.fn.sum<number>('v').as('s'))
          .executeTakeFirstOrThrow()
      ).s,
    );
  const sums: number[] = [];
  for (let i = 0; i < 3; i++) {
    sums.push(await sum());
    await kysely.insertInto('t').values({ v: 10 }).execute();
  }
  assert.deepEqual(sums, [6, 16, 26]);
  // create, insert, select: three statements compiled, each once.
  assert.equal(prepared.length, 3);
  await kysely.destroy();
});

test('past its size, the least recently used statement is dropped and compiled again when needed', () => {
  const { db, prepared } = countingDb();
  const cache = cachingStatements(db, 2);
  cache.prepare('select 1');
  cache.prepare('select 2');
  cache.prepare('select 1');
  cache.prepare('select 3');
  // 'select 2' was the least recently used: dropped, compiled again; 'select 1' kept.
  cache.prepare('select 2');
  cache.prepare('select 3');
  assert.deepEqual(prepared, ['select 1', 'select 2', 'select 3', 'select 2']);
  cache.close();
  assert.equal(db.open, false);
});
