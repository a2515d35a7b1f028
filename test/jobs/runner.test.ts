import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
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
import { type JobHandler, JobRunner, MAX_TAKES, PermanentJobError } from '../../src/jobs/runner.js';
import { testEngines } from '../support/server.js';

const payload = objectRecord({ name: 'test payload', version: 1, schema: Type.Object({ n: Type.Integer() }) });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pid that no process has any more: a child that ran and exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

const queueChild = new URL('../support/queue-child.js', import.meta.url).pathname;

/** Another process claiming from the same database (support/queue-child.ts), and the jobs it printed as claimed. */
function claimingProcess(env: NodeJS.ProcessEnv, args: string[]) {
  const child = spawn(process.execPath, [queueChild, ...args], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const claims: { id: number; until: string }[] = [];
  const lines = new EventEmitter();
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) {
      const claim = /^claimed (\d+) until (\S+)$/.exec(line);
      if (claim) claims.push({ id: Number(claim[1]), until: claim[2]! });
      lines.emit(claim ? 'claim' : line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    claims,
    exited,
    ready: once(lines, 'ready'),
    firstClaim: once(lines, 'claim'),
    start: () => child.stdin.write('go\n'),
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
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
    const childEnv = { ...process.env, ...database.env, DATA_DIR: dataDir };
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

    test('a job whose process dies every time is given up after MAX_TAKES claims, with the reason, and never run again', async () => {
      const job = await enqueued('crasher');
      for (let i = 0; i < MAX_TAKES; i++) {
        assert.equal((await queue.claim(`gone-host:${i}:y`, ['crasher'], 0.001))?.id, job.id, `take ${i + 1}`);
        await sleep(5);
      }
      let runs = 0;
      const gaveUp: string[] = [];
      const settled = await runUntilSettled(job, { crasher: { payload, run: async () => void runs++, giveUp: async (_payload, _job, error) => void gaveUp.push(error) } });
      assert.deepEqual([settled.state, settled.takes, runs], ['failed', MAX_TAKES + 1, 0]);
      assert.match(settled.last_error ?? '', new RegExp(`stopped ${MAX_TAKES} times before it finished`));
      assert.deepEqual(gaveUp, [settled.last_error]);
    });

    test('a lease keeps a job from other workers, renewing it extends it, and a worker whose lease ran out can no longer finish the job', async () => {
      const held = await enqueued('leased');
      const a = (await queue.claim('host-a:1:a', ['leased'], 60))!;
      assert.equal(a.id, held.id);
      assert.equal(await queue.claim('host-b:2:b', ['leased'], 60), null, 'held by its lease');
      assert.equal(await queue.heartbeat(a, 'host-a:1:a', 600), true);
      assert.ok(Date.parse((await reload(held)).locked_until!) > Date.now() + 590_000, 'renewed for the lease asked');

      const job = await enqueued('expiring');
      const first = (await queue.claim('host-a:1:a', ['expiring'], 0.001))!;
      await sleep(5);
      const second = await queue.claim('host-b:2:b', ['expiring'], 60);
      assert.equal(second?.id, job.id, 'taken once the lease ran out');
      assert.equal(await queue.heartbeat(first, 'host-a:1:a', 60), false, 'the first worker learns it lost the job');
      await queue.complete(first, 'host-a:1:a');
      await queue.fail(first, 'host-a:1:a', 'late failure');
      const meanwhile = await reload(job);
      assert.deepEqual([meanwhile.state, meanwhile.locked_by, meanwhile.attempts], ['running', 'host-b:2:b', 0], 'the late worker changed nothing');
      await queue.complete(second!, 'host-b:2:b');
      assert.equal((await reload(job)).state, 'done');
    });

    test('a job held by a process that died on another machine is taken over by another process when its lease runs out, at no attempt', async () => {
      const job = await enqueued('abandoned');
      const holder = claimingProcess({ ...childEnv, WORKER_ID: 'another-host:4242:zz' }, ['abandoned', '2', '1', 'hold']);
      await holder.ready;
      holder.start();
      await holder.firstClaim;
      await holder.kill();
      const [claim] = holder.claims;
      assert.equal(claim!.id, job.id);
      await queue.releaseOrphans();
      assert.equal((await reload(job)).locked_by, 'another-host:4242:zz', 'only this host’s dead processes are released early');
      let runs = 0;
      const settled = await runUntilSettled(job, { abandoned: { payload, run: async () => void runs++ } });
      assert.deepEqual([settled.state, settled.attempts, runs], ['done', 0, 1]);
      assert.ok(settled.updated_at >= claim!.until, `taken over at ${settled.updated_at}, not before the lease ended at ${claim!.until}`);
    });

    test('two processes claiming at once, four claims in flight each, take every job exactly once', async () => {
      const ids = [];
      for (let i = 0; i < 60; i++) ids.push((await enqueued('race')).id);
      const claimers = [claimingProcess(childEnv, ['race', '60', '4', 'drain']), claimingProcess(childEnv, ['race', '60', '4', 'drain'])];
      await Promise.all(claimers.map((c) => c.ready));
      for (const c of claimers) c.start();
      assert.deepEqual(await Promise.all(claimers.map((c) => c.exited)), [0, 0]);
      const claimed = claimers.flatMap((c) => c.claims.map((claim) => claim.id));
      assert.deepEqual(
        claimed.toSorted((x, y) => x - y),
        ids,
        'each job once',
      );
      assert.ok(
        claimers.every((c) => c.claims.length > 0),
        `both took part: ${claimers.map((c) => c.claims.length).join(' and ')} jobs`,
      );
    });

    test('jobs held by a dead process of this host are released at once, without an attempt', async () => {
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
