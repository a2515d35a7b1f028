import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrateToLatest } from './migrations.js';
import { cachingStatements } from './statement-cache.js';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  engine: Engine;
  /** A round trip to the database; throws when it is unreachable. */
  ping(): Promise<void>;
  /**
   * SQLite only: a number that changes whenever another connection (another process: the
   * CLI, a second server) commits, read without a query (PRAGMA data_version); undefined on
   * PostgreSQL, which has no such counter.
   */
  dataVersion?: () => number;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres://... ; when undefined, an SQLite file under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
}

function openSqlite(dataDir: string): { kysely: Kysely<Database>; dataVersion: () => number } {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = new SQLite(path.join(dataDir, 'retouch.sqlite'));
  // WAL lets the API read while a writer holds the lock; busy_timeout makes writers queue instead of failing.
  file.pragma('journal_mode = WAL');
  // In WAL mode NORMAL syncs the log at checkpoints, not at every commit: a commit's fsync
  // (4 ms here) blocked the event loop, several times per photo developed. A crash of the
  // process loses nothing; a power cut may lose the last commits, never the database.
  file.pragma('synchronous = NORMAL');
  file.pragma('busy_timeout = 5000');
  file.pragma('foreign_keys = ON');
  const dataVersion = file.prepare('PRAGMA data_version').pluck();
  return { kysely: new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(file) }) }), dataVersion: () => dataVersion.get() as number };
}

function openPostgres(url: string): Kysely<Database> {
  // COUNT(*) and BIGINT come back as strings by default; our counts fit in a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection dropped by the server (restart, failover) must not crash the process;
  // the pool replaces it on the next query.
  pool.on('error', (err) => process.emitWarning(`PostgreSQL idle connection lost: ${err.message}`));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(options: DbOptions): Promise<Db> {
  const engine: Engine = options.databaseUrl ? 'postgres' : 'sqlite';
  const sqlite = options.databaseUrl ? null : openSqlite(options.dataDir);
  const kysely = sqlite?.kysely ?? openPostgres(options.databaseUrl!);
  try {
    await migrateToLatest(kysely, engine);
  } catch (err) {
    await kysely.destroy();
    throw err;
  }
  return { kysely, engine, ping: async () => void (await sql`select 1`.execute(kysely)), close: () => kysely.destroy(), ...(sqlite ? { dataVersion: sqlite.dataVersion } : {}) };
}

/** True when err is a unique-constraint violation, on either engine. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
