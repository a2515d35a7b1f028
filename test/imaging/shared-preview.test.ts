import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shareJobs } from '../../src/imaging/bands.js';
import { sharedLinearPreview } from '../../src/imaging/tone/shared-passes.js';
import { seededRandom } from '../../src/imaging/random.js';
import { srgb16ToLinearLut, srgb8ToLinearLut } from '../../src/imaging/colour.js';
import { linearPreview, previewGrid } from '../../src/imaging/tone/preview.js';
import type { RgbImage } from '../../src/imaging/types.js';
import { bandHelpers } from '../support/band-helpers.js';
import { linearPreviewReference } from '../support/tools-reference.js';

/** Random pixels of odd size in shared memory, 8 or 16 bits. */
function noise(width: number, height: number, bits: 8 | 16, seed: number): RgbImage {
  const rnd = seededRandom(seed);
  const length = width * height * 3;
  const data = bits === 8 ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint16Array(new SharedArrayBuffer(length * 2));
  const top = bits === 8 ? 256 : 65536;
  for (let i = 0; i < length; i++) data[i] = Math.floor(rnd() * top);
  return { width, height, data } as RgbImage;
}

test('the linear preview in bands over imaging threads is the one-thread preview, number for number', async () => {
  // This thread shares its jobs as an imaging thread of the service does.
  shareJobs();
  const helpers = await bandHelpers(2);
  try {
    const cases: [RgbImage, number][] = [
      [noise(1001, 777, 8, 1), 256],
      [noise(777, 1001, 16, 2), 100],
      [noise(333, 517, 8, 3), 512],
    ];
    for (const [image, edge] of cases) {
      const alone = linearPreview(image, edge);
      // A loaded machine may leave the helpers no time to take a band in one run; a few runs give them a chance.
      for (let run = 0; run < 5; run++) {
        const before = await Promise.all(helpers.map((h) => h.bandsDone()));
        const banded = await sharedLinearPreview(image, edge);
        assert.equal(banded.width, alone.width);
        assert.equal(banded.height, alone.height);
        assert.deepEqual(Array.from(banded.data), Array.from(alone.data), `${image.width}×${image.height}, edge ${edge}`);
        const after = await Promise.all(helpers.map((h) => h.bandsDone()));
        if (after.some((n, i) => n > before[i]!)) break;
      }
    }
    assert.ok(
      (await Promise.all(helpers.map((h) => h.bandsDone()))).some((n) => n > 0),
      'the other threads took bands',
    );
  } finally {
    await Promise.all(helpers.map((h) => h.worker.terminate()));
  }
});

test('the linear preview kernel sums what a plain JavaScript pass sums, in the same order, number for number', () => {
  for (const [image, edge] of [
    [noise(1001, 777, 8, 4), 256],
    [noise(777, 1001, 16, 5), 100],
    [noise(67, 45, 8, 6), 30],
    [noise(45, 67, 16, 7), 1000],
  ] as const) {
    const preview = linearPreview(image, edge);
    const { f } = previewGrid(image.width, image.height, edge);
    const lut = image.data instanceof Uint8Array ? srgb8ToLinearLut() : srgb16ToLinearLut();
    assert.deepEqual(Array.from(preview.data), Array.from(linearPreviewReference(image, f, lut)), `${image.width}×${image.height}, edge ${edge}`);
  }
});
