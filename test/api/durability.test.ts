import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/connect.js';
import { callbackReceiver } from '../support/callback-receiver.js';
import { downloadAll, i2iProjectWith, waitForEnd } from '../support/flow.js';
import { ApiClient } from '../support/http.js';
import { jpegOf, testScene } from '../support/photos.js';
import { createAccount, type RetouchProcess, startRetouch } from '../support/processes.js';
import type { S3TestServer } from '../support/s3-server.js';
import { testEngines } from '../support/server.js';

const PHOTOS = 12;
/** The worker is killed while these photos (by index) develop: the first, two midway, the last. */
const KILLED_AT = new Set([0, 4, 8, PHOTOS - 1]);

type Entry = { file_name: string; download_link: string };

/**
 * Keeps each photo's development waiting on its source until the test releases it, so the
 * test, not the machine's speed, decides where the edit is when the worker dies. On S3 the
 * test's S3 server holds the GET of the original; on the embedded store the original is a
 * FIFO, whose reader waits until the test writes the bytes into it.
 */
interface SourceGate {
  hold(fileName: string): void;
  /** Lets the photo's source be read, by the reader waiting now or the next one. */
  release(fileName: string): Promise<void>;
}

function s3Gate(s3: S3TestServer): SourceGate {
  const releases = new Map<string, () => void>();
  return {
    hold: (name) => void releases.set(name, s3.holdReads(`/originals/${name}`)),
    release: async (name) => releases.get(name)!(),
  };
}

function fifoGate(dataDir: string, uuid: string, photos: Record<string, Buffer>): SourceGate {
  const original = (name: string) => path.join(dataDir, 'blobs', 'objects', 'projects', uuid, 'originals', name);
  return {
    hold(name) {
      fs.rmSync(original(name));
      execFileSync('mkfifo', [original(name)]);
    },
    async release(name) {
      // Opening a FIFO to write waits for its reader; the bytes then go to that one reader.
      await fs.promises.writeFile(original(name), photos[name]!);
      await fs.promises.writeFile(`${original(name)}.tmp`, photos[name]!);
      await fs.promises.rename(`${original(name)}.tmp`, original(name));
    },
  };
}

for (const engine of await testEngines()) {
  describe(`durability (${engine.label})`, () => {
    test('four kill -9 of the worker while photos develop (the first, two midway, the last): every photo delivered once and unchanged, no attempt charged', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-durable-'));
      const database = await engine.create();
      const db = await openDatabase({ databaseUrl: database.env.DATABASE_URL, dataDir });
      after(async () => {
        await db.close();
        await database.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
      const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', IMAGING_THREADS: '1', CALLBACK_ALLOW_PRIVATE: 'true', ...database.env };
      const apiKey = await createAccount(env, 'durable');
      const receiver = await callbackReceiver();
      const server = await startRetouch('serve', { ...env, RUN_JOBS: 'false' });
      const api = new ApiClient(server.url!, apiKey);

      const photos: Record<string, Buffer> = {};
      for (let i = 0; i < PHOTOS; i++) photos[`P_${String(i).padStart(2, '0')}.jpg`] = await jpegOf(testScene(480, 320, 100 + i));
      const names = Object.keys(photos);
      const uuid = await i2iProjectWith(api, photos);
      assert.equal((await api.post(`/v1/i2i/projects/${uuid}/edit`, { callback_url: receiver.url })).status, 200);
      // No worker runs yet: every source is held before any render could read it.
      const gate = database.s3 ? s3Gate(database.s3) : fifoGate(dataDir, uuid, photos);
      for (const name of names) gate.hold(name);
      let worker: RetouchProcess = await startRetouch('worker', env);

      /** Polls the database until the render of this photo is done, or running in the current worker. */
      const render = async (name: string, state: 'running' | 'done') => {
        for (;;) {
          const output = await db.kysely.selectFrom('outputs').select('id').where('kind', '=', 'i2i').where('file_name', '=', name).executeTakeFirst();
          const job = output && (await db.kysely.selectFrom('jobs').select(['state', 'locked_by']).where('key', '=', `i2i.render:${output.id}`).executeTakeFirst());
          if (job?.state === state && (state === 'done' || job.locked_by?.includes(`:${worker.pid}:`))) return;
          await new Promise((r) => setTimeout(r, 20));
        }
      };

      // Files delivered before a kill, as first downloaded: they must come out of the edit unchanged.
      const early: Record<string, Buffer> = {};
      for (const [i, name] of names.entries()) {
        await render(name, 'running');
        if (KILLED_AT.has(i)) {
          // Its development cannot end while its source is held (a moment's wait would show it if it could): the kill lands mid-photo.
          await new Promise((r) => setTimeout(r, 300));
          await worker.kill();
          const delivered = (await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list as Entry[];
          assert.deepEqual(
            delivered.map((e) => e.file_name),
            names.slice(0, i),
            `the kill at ${name} came before it was delivered`,
          );
          Object.assign(early, await downloadAll(delivered.filter((e) => !(e.file_name in early))));
          worker = await startRetouch('worker', env);
          await render(name, 'running');
        }
        await gate.release(name);
        await render(name, 'done');
      }

      const item = await waitForEnd(api, `/v1/i2i/projects/${uuid}`);
      assert.deepEqual([item.status, item.number_of_images], ['Completed', PHOTOS]);
      const list = (await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list as Entry[];
      assert.deepEqual(
        list.map((f) => f.file_name),
        names,
        'every photo, each once',
      );
      const files = await downloadAll(list);
      assert.equal(Object.keys(early).length, PHOTOS - 1, 'every photo but the last was delivered before a kill');
      for (const [name, bytes] of Object.entries(early)) assert.ok(files[name]!.equals(bytes), `${name} unchanged by the kills`);
      const callback = JSON.parse((await receiver.next()).body);
      assert.deepEqual([callback.status, callback.number_of_images, callback.failed_files], ['Completed', PHOTOS, []]);

      const renders = await db.kysely.selectFrom('jobs').select(['state', 'attempts', 'last_error']).where('kind', '=', 'i2i.render').execute();
      assert.equal(renders.length, PHOTOS);
      for (const job of renders) assert.deepEqual([job.state, job.attempts], ['done', 0], `a render job charged for a kill: ${job.last_error}`);
      await worker.kill();
    });
  });
}
