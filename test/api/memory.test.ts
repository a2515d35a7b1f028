import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callbackReceiver } from '../support/callback-receiver.js';
import { i2iProjectWith, waitForEnd } from '../support/flow.js';
import { jpegOf, testScene } from '../support/photos.js';
import { startTestServer, testEngines, type TestServer } from '../support/server.js';

/** A small JPEG whose header claims width × height: only a decode would find out. */
async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await jpegOf(testScene(64, 48, 9)));
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  assert.ok(sof > 0, 'a baseline JPEG');
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

/** The most memory the imaging threads held at once while `work` ran, as the budget counted it. */
async function peakInUse(t: TestServer, work: () => Promise<void>): Promise<number> {
  const { memory } = t.server.services;
  const acquire = memory.acquire.bind(memory);
  let peak = 0;
  memory.acquire = async (bytes) => {
    const release = await acquire(bytes);
    peak = Math.max(peak, memory.inUse);
    return release;
  };
  try {
    await work();
  } finally {
    memory.acquire = acquire;
  }
  return peak;
}

for (const engine of await testEngines()) {
  describe(`bounded memory (${engine.label})`, async () => {
    test('a photo over MAX_IMAGE_MEGAPIXELS fails alone, from its header, at once and not as corrupt; the others are delivered', async () => {
      const t = await startTestServer(engine, { MAX_IMAGE_MEGAPIXELS: '150', CALLBACK_ALLOW_PRIVATE: 'true' });
      const receiver = await callbackReceiver();
      const uuid = await i2iProjectWith(t.api, { 'IMG.jpg': await jpegClaiming(16000, 16000), 'small.jpg': await jpegOf(testScene(480, 320, 4)) });
      await t.api.post(`/v1/i2i/projects/${uuid}/edit`, { callback_url: receiver.url });
      const item = await waitForEnd(t.api, `/v1/i2i/projects/${uuid}`);
      assert.deepEqual([item.status, item.number_of_images], ['Completed', 1]);
      const callback = JSON.parse((await receiver.next()).body);
      assert.deepEqual(callback.failed_files, [{ file_name: 'IMG.jpg', sources: ['IMG.jpg'], error: 'IMG.jpg is 256 MP; this server accepts up to 150 MP' }]);
      const job = await t.server.services.db.kysely.selectFrom('jobs').select(['state', 'attempts']).where('kind', '=', 'i2i.render').where('last_error', 'like', 'IMG.jpg is%').executeTakeFirstOrThrow();
      assert.deepEqual([job.state, job.attempts], ['failed', 1], 'refused at once, not retried');
    });

    test('photos go to the imaging threads as the memory budget allows: two that do not fit together develop one after the other', async () => {
      // 1200 × 800 px: about 46 MB each by the engine's estimate (48 bytes per pixel).
      const photos = { 'A.jpg': await jpegOf(testScene(1200, 800, 5)), 'B.jpg': await jpegOf(testScene(1200, 800, 6)) };
      const oneEach = 1200 * 800 * 48;
      const peaks: number[] = [];
      for (const memory of ['64', '4096']) {
        const t = await startTestServer(engine, { IMAGING_THREADS: '2', IMAGING_MEMORY_MB: memory });
        const uuid = await i2iProjectWith(t.api, photos);
        peaks.push(
          await peakInUse(t, async () => {
            await t.api.post(`/v1/i2i/projects/${uuid}/edit`, {});
            assert.equal((await waitForEnd(t.api, `/v1/i2i/projects/${uuid}`)).number_of_images, 2);
          }),
        );
      }
      assert.deepEqual(peaks, [oneEach, 2 * oneEach], 'one at a time in 64 MiB, both at once in 4 GiB');
    });
  });
}
