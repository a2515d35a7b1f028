import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after } from 'node:test';
import pg from 'pg';
import { type Config, loadConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { ApiClient } from './http.js';
import { type S3TestServer, startS3Server } from './s3-server.js';

/**
 * A database engine and a blob store the suite runs against: SQLite with the embedded store,
 * PostgreSQL with S3 (a bucket of an S3-protocol server started for it). Two runs cover
 * every adapter without the four combinations' cost.
 */
export interface TestEngine {
  name: 'sqlite' | 'postgres';
  blobs: 'local' | 's3';
  /** For test titles: "sqlite, local" or "postgres, s3". */
  label: string;
  /** Makes a fresh, empty database (and bucket) for one server; returns the environment that selects them, the S3 server holding the bucket, and how to drop them. */
  create(): Promise<{ env: Record<string, string>; s3?: S3TestServer; drop(): Promise<void> }>;
}

const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export const sqlite: TestEngine = {
  name: 'sqlite',
  blobs: 'local',
  label: 'sqlite, local',
  create: async () => ({ env: {}, drop: async () => undefined }),
};

const postgresWithS3: TestEngine = {
  name: 'postgres',
  blobs: 's3',
  label: 'postgres, s3',
  async create() {
    const name = `retouch_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await adminQuery(`create database ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const s3 = await startS3Server();
    s3.createBucket('retouch');
    return {
      // A key prefix, as an installation sharing its bucket would set.
      env: { DATABASE_URL: url.toString(), ...s3.env('retouch'), S3_PREFIX: 'retouch-test' },
      s3,
      drop: async () => {
        await s3.close();
        await adminQuery(`drop database if exists ${name} with (force)`);
      },
    };
  },
};

/**
 * SQLite always; PostgreSQL (with S3) when reachable. Under CI=true an unreachable PostgreSQL
 * fails the run instead of being skipped, so CI never passes without testing it.
 */
export async function testEngines(): Promise<TestEngine[]> {
  if (await postgresReachable()) return [sqlite, postgresWithS3];
  if (process.env.CI === 'true') throw new Error(`PostgreSQL is required under CI=true but ${ADMIN_URL} is unreachable`);
  process.stderr.write(`PostgreSQL at ${ADMIN_URL} unreachable: running on SQLite only\n`);
  return [sqlite];
}

export interface TestServer {
  server: RunningServer;
  url: string;
  config: Config;
  /** A client with the key of a fresh account. */
  api: ApiClient;
  /** Log lines the server wrote. */
  logs: string[];
  /** Creates another account and returns a client for it. */
  newAccount(name: string, trialCap?: number | null): Promise<ApiClient>;
  /** Stops the server; the data directory and database stay until the test file ends. */
  stop(): Promise<void>;
  /** Starts a server again on the same data directory and database. */
  restart(): Promise<TestServer>;
}

/** Starts a server on a random port with its own data directory and database; cleaned up after the file. */
export async function startTestServer(engine: TestEngine, env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-test-'));
  const database = await engine.create();
  const running: RunningServer[] = [];
  // Servers first: dropping the database under open connections would kill them mid-flight.
  after(async () => {
    for (const server of running) await server.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...database.env,
    ...env,
  });
  const boot = async (): Promise<TestServer> => {
    const logs: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const server = await startServer(config, { logStream });
    running.push(server);
    const stop = async () => {
      running.splice(running.indexOf(server), 1);
      await server.close();
    };
    const newAccount = async (name: string, trialCap: number | null = null) => {
      const { apiKey } = await server.services.accounts.create(name, trialCap);
      return new ApiClient(server.url, apiKey);
    };
    const api = await newAccount(`tester-${Math.random().toString(36).slice(2, 8)}`);
    return { server, url: server.url, config, api, logs, newAccount, stop, restart: boot };
  };
  return boot();
}
