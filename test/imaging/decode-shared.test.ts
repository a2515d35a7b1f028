import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { shareJobs } from '../../src/imaging/bands.js';
import { decodeImage } from '../../src/imaging/decode.js';
import { seededRandom } from '../../src/imaging/random.js';

test('a large 8-bit photo decodes straight into shared memory on a thread that shares its jobs, the same pixels, turned by its EXIF orientation', async () => {
  const width = 1800;
  const height = 1200;
  const rand = seededRandom(11);
  const pixels = Buffer.from(Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 256)));
  const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  const plain = await decodeImage(jpeg, { keep8Bit: true });
  assert.ok(!(plain.image.data.buffer instanceof SharedArrayBuffer), 'a thread that does not share keeps libvips’ buffer');
  // This thread shares its jobs as an imaging thread of the service does.
  shareJobs();
  const shared = await decodeImage(jpeg, { keep8Bit: true });
  assert.ok(shared.image.data.buffer instanceof SharedArrayBuffer, 'a 2 MP photo comes back in shared memory');
  assert.deepEqual([shared.image.width, shared.image.height], [height, width]);
  assert.ok(Buffer.from(shared.image.data).equals(Buffer.from(plain.image.data)), 'the same pixels');
  const resized = await decodeImage(jpeg, { keep8Bit: true, maxLongEdge: 1500 });
  assert.deepEqual([resized.image.width, resized.image.height], [1000, 1500]);
  assert.equal(resized.image.data.length, 1000 * 1500 * 3);
});
