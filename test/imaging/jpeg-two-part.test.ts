import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { shareJobs } from '../../src/imaging/bands.js';
import { decodeImage } from '../../src/imaging/decode.js';
import { decodeInTwoParts, decodesInTwoParts, TOP_SHARE } from '../../src/imaging/jpeg-two-part.js';
import { seededRandom } from '../../src/imaging/random.js';

/** A baseline JPEG of smooth gradients with noise: chroma that upsampling across the cut would show. */
async function photo(width: number, height: number, options: { progressive?: boolean; orientation?: number; chromaSubsampling?: string } = {}): Promise<Buffer> {
  const rand = seededRandom(width + height);
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width + rand() * 40;
      pixels[i + 1] = (y * 255) / height + rand() * 40;
      pixels[i + 2] = ((x + y) % 97) * 2 + rand() * 40;
    }
  }
  let pipeline = sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88, progressive: options.progressive ?? false, chromaSubsampling: options.chromaSubsampling ?? '4:2:0' });
  if (options.orientation) pipeline = pipeline.withMetadata({ orientation: options.orientation });
  return pipeline.toBuffer();
}

const pipelineOf = (bytes: Buffer) => sharp(bytes, { failOn: 'error' }).autoOrient().rotate(0).flatten({ background: '#ffffff' });

test('a JPEG decoded in two parts has the pixels of the one-part decode, byte for byte, wherever the cut falls in a row of blocks', async () => {
  for (const [width, height, chroma] of [
    [1200, 900, '4:2:0'],
    [1203, 901, '4:2:0'],
    [640, 479, '4:4:4'],
  ] as const) {
    const jpeg = await photo(width, height, { chromaSubsampling: chroma });
    const whole = await pipelineOf(jpeg).toColourspace('srgb').raw().toBuffer();
    const room = new Uint8Array(new SharedArrayBuffer(width * height * 3));
    const parts = await decodeInTwoParts(jpeg, pipelineOf, width, height, () => room);
    assert.equal(parts.data, room, 'the pixels are in the room it was given');
    assert.deepEqual([parts.width, parts.height], [width, height]);
    assert.ok(Buffer.from(room).equals(whole), `${width} × ${height} ${chroma}: the same bytes (cut at row ${Math.round(height * TOP_SHARE)})`);
  }
});

test('only a baseline, upright, 8-bit JPEG decoded at full size without a turn goes in two parts', async () => {
  const header = (bytes: Buffer) => sharp(bytes).metadata();
  const baseline = await header(await photo(320, 240));
  const at = (overrides: { rotate?: number; maxLongEdge?: number } = {}) => ({ header: baseline, rotate: 0, maxLongEdge: undefined, ...overrides });
  assert.equal(decodesInTwoParts(at()), true);
  assert.equal(decodesInTwoParts(at({ rotate: 90 })), false, 'turned by the user');
  assert.equal(decodesInTwoParts(at({ maxLongEdge: 100 })), false, 'a preview (shrink-on-load)');
  assert.equal(decodesInTwoParts({ ...at(), header: await header(await photo(320, 240, { progressive: true })) }), false, 'progressive');
  assert.equal(decodesInTwoParts({ ...at(), header: await header(await photo(320, 240, { orientation: 6 })) }), false, 'EXIF-rotated');
  const png16 = await sharp(Buffer.alloc(320 * 240 * 6), { raw: { width: 320, height: 240, channels: 3 } })
    .toColourspace('rgb16')
    .png()
    .toBuffer();
  assert.equal(decodesInTwoParts({ ...at(), header: await header(png16) }), false, '16-bit PNG');
  assert.equal(
    decodesInTwoParts({
      ...at(),
      header: await header(
        await sharp(await photo(320, 240))
          .png()
          .toBuffer(),
      ),
    }),
    false,
    '8-bit PNG',
  );
});

test('a large JPEG decoded on a thread that shares its jobs comes back in shared memory with the pixels of the plain decode', async () => {
  const jpeg = await photo(2000, 1200);
  const plain = await decodeImage(jpeg, { keep8Bit: true });
  shareJobs();
  const shared = await decodeImage(jpeg, { keep8Bit: true });
  assert.ok(shared.image.data.buffer instanceof SharedArrayBuffer);
  assert.deepEqual([shared.image.width, shared.image.height], [2000, 1200]);
  assert.ok(Buffer.from(shared.image.data).equals(Buffer.from(plain.image.data)), 'the same pixels');
});
