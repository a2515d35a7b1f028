import assert from 'node:assert/strict';
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
import { testEngines } from '../support/server.js';

const PHOTOS = 12;
/** Large enough that developing one takes a good fraction of a second even on a fast machine: kills land mid-photo. */
const SIZE = [2400, 1600] as const;
const POLL_MS = 20;

type Entry = { file_name: string; download_link: string };

/**
 * Polls until the edit reaches a point: `done` photos delivered, or with done = 0 the first
 * photo developing. Fails if the edit ended first: the kill would then prove nothing.
 */
async function reach(api: ApiClient, uuid: string, done: number): Promise<Entry[]> {
  for (;;) {
    const { status } = (await api.get(`/v1/i2i/projects/${uuid}?get_thumbnail=false`)).json.data;
    assert.ok(status === 'Pending' || status === 'In Progress', `the edit ended (${status}) before the kill at ${done} photos`);
    const list: Entry[] = (await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list;
    if (done === 0 ? status === 'In Progress' && list.length === 0 : list.length >= done) return list;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

for (const engine of await testEngines()) {
  describe(`durability (${engine.label})`, () => {
    test('four kill -9 during one edit (first photo developing, twice midway, last photo developing): every photo delivered once, no attempt charged', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-durable-'));
      const database = await engine.create();
      after(async () => {
        await database.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
      const env = {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        IMAGING_THREADS: '1',
        CALLBACK_ALLOW_PRIVATE: 'true',
        ...database.env,
      };
      const apiKey = await createAccount(env, 'durable');
      const receiver = await callbackReceiver();

      let server: RetouchProcess = await startRetouch('serve', env);
      let api = new ApiClient(server.url!, apiKey);
      const photos: Record<string, Buffer> = {};
      for (let i = 0; i < PHOTOS; i++) photos[`P_${String(i).padStart(2, '0')}.jpg`] = await jpegOf(testScene(SIZE[0], SIZE[1], 100 + i));
      const uuid = await i2iProjectWith(api, photos);
      assert.equal((await api.post(`/v1/i2i/projects/${uuid}/edit`, { callback_url: receiver.url })).status, 200);

      // Files delivered before a kill, as first downloaded: they must come out of the edit unchanged.
      const early: Record<string, Buffer> = {};
      for (const done of [0, 4, 8, PHOTOS - 1]) {
        const seen = await reach(api, uuid, done);
        await server.kill();
        server = await startRetouch('serve', env);
        api = new ApiClient(server.url!, apiKey);
        const fresh = seen.map((e) => e.file_name).filter((name) => !(name in early));
        const links = (await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list as Entry[];
        Object.assign(early, await downloadAll(links.filter((e) => fresh.includes(e.file_name))));
      }

      const item = await waitForEnd(api, `/v1/i2i/projects/${uuid}`);
      assert.deepEqual([item.status, item.number_of_images], ['Completed', PHOTOS]);
      const list = (await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list as Entry[];
      assert.deepEqual(list.map((f) => f.file_name), Object.keys(photos), 'every photo, each once');
      const files = await downloadAll(list);
      assert.ok(Object.keys(early).length >= PHOTOS - 1, `${Object.keys(early).length} photos were delivered before a kill`);
      for (const [name, bytes] of Object.entries(early)) assert.ok(files[name]!.equals(bytes), `${name} unchanged by the kills`);
      const callback = JSON.parse((await receiver.next()).body);
      assert.deepEqual([callback.status, callback.number_of_images, callback.failed_files], ['Completed', PHOTOS, []]);
      await server.kill();

      const db = await openDatabase({ databaseUrl: database.env.DATABASE_URL, dataDir });
      try {
        const renders = await db.kysely.selectFrom('jobs').select(['state', 'attempts', 'last_error']).where('kind', '=', 'i2i.render').execute();
        assert.equal(renders.length, PHOTOS);
        for (const job of renders) assert.deepEqual([job.state, job.attempts], ['done', 0], `a render job charged for a kill: ${job.last_error}`);
      } finally {
        await db.close();
      }
    });
  });
}
