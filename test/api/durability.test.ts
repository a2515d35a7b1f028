import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { downloadAll, i2iProjectWith, waitForEnd } from '../support/flow.js';
import { ApiClient } from '../support/http.js';
import { jpegOf, testScene } from '../support/photos.js';
import { createAccount, startRetouch } from '../support/processes.js';
import { testEngines } from '../support/server.js';

const PHOTOS = 16;

for (const engine of await testEngines()) {
  describe(`durability (${engine.label})`, () => {
    test('a server killed mid-edit finishes the edit after a restart, every photo delivered once and unchanged', async () => {
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
        ...database.env,
      };
      const apiKey = await createAccount(env, 'durable');

      const first = await startRetouch('serve', env);
      let api = new ApiClient(first.url!, apiKey);
      const photos: Record<string, Buffer> = {};
      for (let i = 0; i < PHOTOS; i++) photos[`P_${String(i).padStart(2, '0')}.jpg`] = await jpegOf(testScene(1200, 800, 100 + i));
      const uuid = await i2iProjectWith(api, photos);
      assert.equal((await api.post(`/v1/i2i/projects/${uuid}/edit`, {})).status, 200);

      let before: { file_name: string; download_link: string }[] = [];
      while (before.length === 0) {
        before = (await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list;
      }
      const earlyFiles = await downloadAll(before);
      await first.kill();
      assert.ok(before.length < PHOTOS, `killed mid-edit (${before.length} of ${PHOTOS} done)`);

      const second = await startRetouch('serve', env);
      api = new ApiClient(second.url!, apiKey);
      const item = await waitForEnd(api, `/v1/i2i/projects/${uuid}`);
      assert.equal(item.status, 'Completed');
      assert.equal(item.number_of_images, PHOTOS);
      const list = (await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list;
      assert.deepEqual(list.map((f: { file_name: string }) => f.file_name), Object.keys(photos).sort());
      const files = await downloadAll(list);
      for (const [name, bytes] of Object.entries(earlyFiles)) assert.ok(files[name]!.equals(bytes), `${name} unchanged by the restart`);
      await second.kill();
    });
  });
}
