import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { callbackReceiver } from '../support/callback-receiver.js';
import { downloadAll, i2iProjectWith } from '../support/flow.js';
import { ApiClient } from '../support/http.js';
import { jpegOf, testScene } from '../support/photos.js';
import { createAccount, startRetouch } from '../support/processes.js';
import { testEngines } from '../support/server.js';

const PHOTOS = 20;

// The cluster runs on PostgreSQL and S3: nothing shared but the database and the bucket.
for (const engine of (await testEngines()).filter((e) => e.blobs === 's3')) {
  describe(`a cluster: 2 API processes and 2 workers (${engine.label})`, () => {
    test('a worker killed mid-edit: every photo delivered once, one callback, both APIs answering throughout', async (t) => {
      const database = await engine.create();
      const dataDirs: string[] = [];
      // Each process gets a data directory of its own, so that nothing can pass through the local disk.
      const envFor = (extra: Record<string, string>): NodeJS.ProcessEnv => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-cluster-'));
        dataDirs.push(dir);
        // A short lease: the survivor takes the dead worker's job over within seconds.
        return { ...process.env, ...database.env, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'warn', JOB_LEASE_SECONDS: '2', IMAGING_THREADS: '1', CALLBACK_ALLOW_PRIVATE: 'true', ...extra };
      };
      const apiKey = await createAccount(envFor({}), 'cluster');
      const apis = await Promise.all([0, 1].map(() => startRetouch('serve', envFor({ RUN_JOBS: 'false', LOG_LEVEL: 'info' }))));
      const workers = await Promise.all([0, 1].map(() => startRetouch('worker', envFor({ LOG_LEVEL: 'info' }))));
      const clients = apis.map((p) => new ApiClient(p.url!, apiKey));
      const db = new pg.Client({ connectionString: database.env.DATABASE_URL });
      await db.connect();
      // After hooks run in order: the processes are killed first, then the connection closed, then the database dropped.
      after(async () => {
        await db.end();
        await database.drop();
        for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
      });

      const photos: Record<string, Buffer> = {};
      for (let i = 0; i < PHOTOS; i++) photos[`C_${String(i).padStart(2, '0')}.jpg`] = await jpegOf(testScene(640, 426, 300 + i));
      const uuid = await i2iProjectWith(clients[0]!, photos);
      const receiver = await callbackReceiver();
      assert.equal((await clients[1]!.post(`/v1/i2i/projects/${uuid}/edit`, { callback_url: receiver.url })).status, 200);

      // Project detail from both API processes, in turn, for the whole edit.
      const answers = [0, 0];
      let polls = 0;
      const detail = async () => {
        const i = polls++ % 2;
        const res = await clients[i]!.get(`/v1/i2i/projects/${uuid}?get_thumbnail=false`);
        assert.equal(res.status, 200, `API process ${i}: ${res.text}`);
        answers[i]!++;
        return res.json.data;
      };
      const rendered = async () => Number((await db.query(`select count(*) as n from outputs where kind = 'i2i' and state = 'done'`)).rows[0].n);
      const holding = async (pid: number) => Number((await db.query(`select count(*) as n from jobs where state = 'running' and kind = 'i2i.render' and locked_by like $1`, [`%:${pid}:%`])).rows[0].n);

      // Kill a worker while it holds a photo, once others are delivered: mid-edit, whatever the machine's speed.
      const victim = workers[0]!;
      let doneAtKill = 0;
      for (;;) {
        await detail();
        doneAtKill = await rendered();
        if (doneAtKill > 0 && (await holding(victim.pid)) > 0) break;
        assert.ok(doneAtKill < PHOTOS, 'the edit ended before a worker could be killed mid-edit');
        await new Promise((r) => setTimeout(r, 20));
      }
      await victim.kill();

      let item = await detail();
      const deadline = Date.now() + 180_000;
      while (item.status !== 'Completed' && item.status !== 'Failed') {
        assert.ok(Date.now() < deadline, `still ${item.status} after 3 minutes`);
        await new Promise((r) => setTimeout(r, 100));
        item = await detail();
      }
      assert.equal(item.status, 'Completed');
      assert.equal(item.number_of_images, PHOTOS);

      const list = (await clients[0]!.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list as { file_name: string }[];
      const names = list.map((f) => f.file_name);
      const duplicates = names.length - new Set(names).size;
      assert.equal(duplicates, 0);
      assert.deepEqual([...names].sort(), Object.keys(photos).sort(), 'every photo delivered');
      const files = await downloadAll((await clients[1]!.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list);
      for (const [name, bytes] of Object.entries(files)) assert.ok(bytes.length > 0 && bytes[0] === 0xff && bytes[1] === 0xd8, `${name} is a JPEG`);

      const callback = await receiver.next();
      assert.equal(JSON.parse(callback.body).number_of_images, PHOTOS);
      const callbackJobs = (await db.query(`select state from jobs where kind = 'i2i.callback'`)).rows;
      assert.deepEqual(callbackJobs, [{ state: 'done' }], 'one callback, delivered');
      assert.equal(receiver.received.length, 1);
      const retaken = Number((await db.query(`select count(*) as n from jobs where kind = 'i2i.render' and attempts > 1`)).rows[0].n);

      for (const api of apis) {
        const health = await new ApiClient(api.url!, null).get('/healthz');
        assert.deepEqual(health.json, { status: 'ok', database: 'postgres' });
        assert.match((await new ApiClient(api.url!, null).get('/metrics')).text, /retouch_jobs\{state="done"\} \d+/);
      }
      await workers[1]!.kill();
      t.diagnostic(
        `photos ${PHOTOS}, delivered ${names.length}, duplicates ${duplicates}, worker kills 1 (at ${doneAtKill} delivered), ` +
          `render jobs retaken ${retaken}, callbacks ${receiver.received.length}, detail answers ${answers[0]} + ${answers[1]} (both API processes, all 200)`,
      );
    });
  });
}
