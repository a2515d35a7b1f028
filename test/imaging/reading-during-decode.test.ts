import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeImage, decodeScaledCopy } from '../../src/imaging/decode.js';
import { readingDuringDecode } from '../../src/imaging/develop.js';
import { estimate } from '../../src/imaging/estimate.js';
import { FEATURE_EDGE } from '../../src/imaging/autoedit/features.js';
import sharp from '../../src/imaging/sharp.js';
import { linearPreview, linearPreviewFromSmaller } from '../../src/imaging/tone/preview.js';
import { jpegOf, testScene } from '../support/photos.js';

/** How far the estimate from a small copy may be from the in-memory one (docs/imaging-engine.md, speed). */
const TOLERANCE = { temperature: 60, tint: 1, exposure: 0.02, contrast: 1, blacks: 1, saturation: 1, highlights: 1, shadows: 1 } as const;

describe('the estimate read during the decode', () => {
  it('is the in-memory estimate within the tolerance, on a 2400 × 1600 JPEG (a 1/4 copy)', async () => {
    const bytes = await jpegOf(testScene(2400, 1600, 3));
    const reading = await readingDuringDecode({ fileName: 'scene.jpg', bytes, rotate: 0 });
    assert.ok(reading, 'a JPEG this large is read from a copy');
    const full = (await decodeImage(bytes, { keep8Bit: true })).image;
    const inMemory = estimate(full);
    const overlapped = estimate(full, { reading });
    for (const [key, tolerance] of Object.entries(TOLERANCE) as [keyof typeof TOLERANCE, number][]) {
      assert.ok(Math.abs(overlapped[key] - inMemory[key]) <= tolerance, `${key}: ${overlapped[key]} against ${inMemory[key]} in memory`);
    }
    assert.deepEqual({ ...overlapped, temperature: 0, tint: 0 }, { ...inMemory, temperature: 0, tint: 0 }, 'on this scene only the white moves');
  });

  it('a copy has the full decode’s orientation and size, and none is made of a small photo or a PNG', async () => {
    const image = testScene(2400, 1600, 4);
    const eight = Buffer.from(Uint8Array.from(image.data, (v) => Math.round(v / 257)));
    const turned = await sharp(eight, { raw: { width: 2400, height: 1600, channels: 3 } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    for (const rotate of [0, 90] as const) {
      const full = (await decodeImage(turned, { rotate })).image;
      const copy = await decodeScaledCopy(turned, { rotate }, 2 * FEATURE_EDGE);
      assert.ok(copy);
      assert.deepEqual([copy.width, copy.height], [full.width, full.height], `rotate ${rotate}`);
      assert.deepEqual([copy.image.width, copy.image.height], full.width > full.height ? [600, 400] : [400, 600], `rotate ${rotate}: a 1/4 copy`);
    }
    assert.equal(await decodeScaledCopy(await jpegOf(testScene(1600, 1000, 5)), {}, 2 * FEATURE_EDGE), null, 'too small for a 1/4 copy of 512 px');
    assert.equal(
      await decodeScaledCopy(
        await sharp(eight, { raw: { width: 2400, height: 1600, channels: 3 } })
          .png()
          .toBuffer(),
        {},
        2 * FEATURE_EDGE,
      ),
      null,
    );
  });

  it('a preview from the image itself is its box average: linearPreview where its blocks are under 4 pixels', async () => {
    const image = (await decodeImage(await jpegOf(testScene(700, 500, 6)), { keep8Bit: true })).image;
    const direct = linearPreview(image, FEATURE_EDGE);
    const fromSelf = linearPreviewFromSmaller(image, image.width, image.height, FEATURE_EDGE);
    assert.deepEqual([fromSelf.width, fromSelf.height], [direct.width, direct.height]);
    for (let i = 0; i < direct.data.length; i++) assert.ok(Math.abs(fromSelf.data[i]! - direct.data[i]!) <= 1e-6, `sample ${i}`);
  });
});
