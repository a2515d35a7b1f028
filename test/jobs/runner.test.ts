import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { Type } from 'typebox';
import { openDatabase } from '../../src/db/connect.js';
import type { Job } from '../../src/db/schema.js';
import { objectRecord } from '../../src/domain/records/stored-record.js';
import { DatabaseJobQueue } from '../../src/jobs/queue.js';
import { type JobHandler, JobRunner, PermanentJobError } from '../../src/jobs/runner.js';
import { testEngines } from '../support/server.js';

const payload = objectRecord({ name: 'test payload', version: 1, schema: Type.Object({ n: Type.Integer() }) });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pid that no process has any more: a child that ran and exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

for (const engine of await testEngines()) {
  describe(`job queue and runner (${engine.label})`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-jobs-'));
    const database = await engine.create();
    const db = await openDatabase({ databaseUrl: database.env.DATABASE_URL, dataDir });
    after(async () => {
      await db.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const queue = new DatabaseJobQueue(db.kysely, db.engine);
    let keys = 0;

    async function enqueued(kind: string, maxAttempts = 3): Promise<Job> {
      const key = `${kind}:${++keys}`;
      await queue.enqueue([{ kind, key, payload: payload.encode({ n: keys }), maxAttempts }]);
      return db.kysely.selectFrom('jobs').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    }

    const reload = (job: Job) => db.kysely.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();

    /** Runs a runner for these handlers until the job is done or failed. */
    async function runUntilSettled(job: Job, handlers: Record<string, JobHandler>): Promise<Job> {
      const runner = new JobRunner(queue, { workerId: `test:${process.pid}`, handlers, concurrency: 1, leaseSeconds: 30, pollMilliseconds: 10, log: pino({ level: 'silent' }), signal: new EventEmitter() });
      runner.start();
      try {
        for (;;) {
          const now = await reload(job);
          if (now.state === 'done' || now.state === 'failed') return now;
          await sleep(10);
        }
      } finally {
        await runner.stop();
      }
    }

    test('a job taken over four times after its worker died still runs: take-overs are not attempts', async () => {
      const job = await enqueued('takeover');
      for (let i = 0; i < 4; i++) {
        const taken = await queue.claim(`gone-host:${i}:x`, ['takeover'], 0.001);
        assert.equal(taken?.id, job.id, `take ${i + 1}`);
        await sleep(5);
      }
      let runs = 0;
      const settled = await runUntilSettled(job, { takeover: { payload, run: async () => void runs++ } });
      assert.equal(settled.state, 'done', settled.last_error ?? '');
      assert.equal(runs, 1);
      assert.equal(settled.attempts, 0);
    });

    test("jobs held by a dead process of this host are released at once, without an attempt", async () => {
      const job = await enqueued('orphan');
      await queue.claim(`${os.hostname()}:${deadPid()}:x`, ['orphan'], 3600);
      assert.equal(await queue.releaseOrphans(), 1);
      const released = await reload(job);
      assert.deepEqual([released.state, released.attempts, released.locked_by], ['queued', 0, null]);
    });

    test('failures count: retried until max_attempts, then given up once with the last error', async () => {
      const job = await enqueued('flaky', 3);
      let runs = 0;
      const gaveUp: string[] = [];
      const settled = await runUntilSettled(job, {
        flaky: {
          payload,
          run: async () => {
            runs++;
            throw new Error(`failure ${runs}`);
          },
          giveUp: async (_payload, _job, error) => void gaveUp.push(error),
          retryDelaySeconds: () => 0,
        },
      });
      assert.deepEqual([settled.state, settled.attempts, settled.last_error, runs], ['failed', 3, 'failure 3', 3]);
      assert.deepEqual(gaveUp, ['failure 3']);
    });

    test('a permanent failure gives up at once', async () => {
      const job = await enqueued('hopeless', 3);
      const settled = await runUntilSettled(job, {
        hopeless: {
          payload,
          run: async () => {
            throw new PermanentJobError('corrupt');
          },
        },
      });
      assert.deepEqual([settled.state, settled.attempts, settled.last_error], ['failed', 1, 'corrupt']);
    });
  });
}
