import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { skyMask, skyPresence } from '../../src/imaging/sky/mask.js';
import { seededRandom } from '../../src/imaging/random.js';
import { indoorScene, iou, outdoorScene, overhangScene, sunsetScene, warmWallScene } from './sky-scenes.js';

describe('skyMask', () => {
  it('finds the sky of an outdoor scene above a jagged skyline (IoU >= 0.9)', async () => {
    for (const seed of [1, 2, 3]) {
      const { image, truth } = outdoorScene(360, 240, seed);
      const result = await skyMask(image);
      assert.equal(result.width, 360);
      assert.equal(result.mask.length, 360 * 240);
      const score = iou(result.mask, truth);
      assert.ok(score >= 0.9, `seed ${seed}: IoU ${score.toFixed(3)}`);
      const truthCoverage = truth.reduce((a, v) => a + v, 0) / truth.length;
      assert.ok(Math.abs(result.coverage - truthCoverage) < 0.05, `coverage ${result.coverage} vs ${truthCoverage}`);
      assert.ok(result.confidence > 0.5, `confidence ${result.confidence}`);
    }
  });

  it('gives a soft mask in 0..1', async () => {
    const { image } = outdoorScene(200, 150, 4);
    const { mask } = await skyMask(image);
    let soft = 0;
    for (const v of mask) {
      assert.ok(v >= 0 && v <= 1);
      if (v > 0.05 && v < 0.95) soft++;
    }
    assert.ok(soft > 0, 'edges are blended, not a hard step');
  });

  it('finds no sky indoors under a daylight-white ceiling: the blown window outshines it', async () => {
    const result = await skyMask(indoorScene(360, 240, 5, 'neutral', true));
    assert.ok(result.coverage < 0.01, `coverage ${result.coverage}`);
  });

  it('finds no sky indoors under a lamp-lit ceiling', async () => {
    const result = await skyMask(indoorScene(360, 240, 5, 'warm', false));
    assert.ok(result.coverage < 0.01, `coverage ${result.coverage}`);
  });

  it('finds an overcast sky seen only past an overhang, reaching the right edge and never the top (IoU >= 0.9)', async () => {
    const { image, truth } = overhangScene(360, 240, 8);
    const result = await skyMask(image);
    const score = iou(result.mask, truth);
    assert.ok(score >= 0.9, `IoU ${score.toFixed(3)}`);
    assert.ok(result.confidence > 0.5, `confidence ${result.confidence}`);
  });

  it('finds a sunset sky below a bough that cuts it off from the blue at the top (IoU >= 0.9)', async () => {
    for (const seed of [10, 11]) {
      const { image, truth } = sunsetScene(360, 240, seed);
      const result = await skyMask(image);
      const score = iou(result.mask, truth);
      assert.ok(score >= 0.9, `seed ${seed}: IoU ${score.toFixed(3)}`);
      // The warm part, well below the bough and the twigs around it.
      let warm = 0;
      let found = 0;
      for (let i = Math.ceil(0.45 * 240) * 360; i < truth.length; i++) {
        if (!truth[i]) continue;
        warm++;
        if (result.mask[i]! >= 0.5) found++;
      }
      assert.ok(found > 0.95 * warm, `seed ${seed}: ${found} of ${warm} warm sky pixels found`);
    }
  });

  it('does not take a smooth sunlit peach wall beside a blue sky for a sunset', async () => {
    const { image, truth } = warmWallScene(360, 240, 12);
    const { mask } = await skyMask(image);
    let wall = 0;
    let taken = 0;
    for (let y = Math.ceil(0.22 * 240); y < 240; y++) {
      for (let x = Math.ceil(0.6 * 360); x < 360; x++) {
        wall++;
        if (mask[y * 360 + x]! >= 0.5) taken++;
      }
    }
    assert.ok(taken < 0.01 * wall, `${taken} of ${wall} wall pixels taken for sky`);
    assert.ok(iou(mask, truth) >= 0.9, `IoU ${iou(mask, truth).toFixed(3)}`);
  });

  it('finds no sky indoors under a daylight-white ceiling with no window in view', async () => {
    const result = await skyMask(indoorScene(360, 240, 5, 'neutral', false));
    assert.ok(result.coverage < 0.01, `coverage ${result.coverage}`);
  });

  it('finds no sky in a blown window reaching the side of the frame', async () => {
    const result = await skyMask(indoorScene(360, 240, 5, 'warm', 'side'));
    assert.ok(result.coverage < 0.01, `coverage ${result.coverage}`);
  });

  it('finds no sky in a close-up without sky', async () => {
    const rand = seededRandom(6);
    const width = 240,
      height = 180;
    const data = new Uint16Array(width * height * 3);
    for (let i = 0; i < width * height; i++) {
      const leaf = 0.25 + rand() * 0.35;
      data[i * 3] = Math.round(leaf * 0.6 * 65535);
      data[i * 3 + 1] = Math.round(leaf * 65535);
      data[i * 3 + 2] = Math.round(leaf * 0.4 * 65535);
    }
    const result = await skyMask({ width, height, data });
    assert.equal(result.coverage, 0);
  });

  it('rejects what is not an Image16', async () => {
    await assert.rejects(() => skyMask({ width: 10, height: 10, data: new Uint16Array(5) }), /Expected 300 \(width x height x 3\) for image\.data\.length/);
  });
});

describe('skyPresence', () => {
  it("reads skyMask's coverage and confidence from the analysis copy, on a photo larger than it", async () => {
    for (const image of [outdoorScene(1500, 1000, 2).image, indoorScene(1500, 1000, 5, 'neutral', true)]) {
      const mask = await skyMask(image);
      const presence = await skyPresence(image);
      assert.ok(Math.abs(presence.coverage - mask.coverage) < 0.005, `coverage ${presence.coverage} vs ${mask.coverage}`);
      assert.equal(presence.confidence, mask.confidence);
    }
  });
});
