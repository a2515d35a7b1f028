import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ciede2000, mired, whiteFromIlluminant } from '../../src/imaging/colour.js';
import { estimate } from '../../src/imaging/estimate.js';
import { render } from '../../src/imaging/render.js';
import { BUILT_IN_STYLES } from '../../src/imaging/settings.js';
import type { Image16 } from '../../src/imaging/types.js';
import { seededRandom } from '../../src/imaging/random.js';
import { GREY_PATCH, WARM_CAST, chartScene, fromLinear, lab, mapLinear, meanLinear, patchBox, vonKriesCast, type Rgb } from '../support/scenes.js';

const REF_MIRED = mired(6500);

/** Grass: textured greens over most of the frame, a grey wall along the bottom (fraction `wall`). */
function grassScene(wall: number, seed = 2): Image16 {
  const rnd = seededRandom(seed);
  return fromLinear(300, 200, (_x, y) => {
    const t = 0.6 + 0.8 * rnd();
    if (y > 200 * (1 - wall)) return [0.3 * t, 0.3 * t, 0.3 * t];
    return [0.06 * t, 0.16 * t, 0.03 * t];
  });
}

/** Sky: a blue gradient over 70 % of the frame, grey and white buildings below. */
function skyScene(): Image16 {
  const rnd = seededRandom(4);
  return fromLinear(300, 200, (x, y) => {
    const t = 0.9 + 0.2 * rnd();
    if (y < 140) {
      const h = y / 140;
      return [(0.08 + 0.15 * h) * t, (0.2 + 0.2 * h) * t, (0.55 + 0.15 * h) * t];
    }
    const v = (x % 60 < 30 ? 0.5 : 0.15) * t;
    return [v, v, v];
  });
}

function whiteShift(temperature: number): number {
  return Math.abs(mired(temperature) - REF_MIRED);
}

describe('estimate', () => {
  it('recovers a known exposure shift of −1.5 EV', () => {
    const scene = chartScene();
    const dark = mapLinear(scene, ([r, g, b]) => [r * 2 ** -1.5, g * 2 ** -1.5, b * 2 ** -1.5]);
    const base = estimate(scene).exposure;
    const shifted = estimate(dark).exposure;
    assert.ok(Math.abs(shifted - base - 1.5) < 0.15, `recovered ${shifted - base} EV relative to the undarkened scene`);
  });

  it('recovers a warm cast: temperature moves down and the grey patch renders neutral', async () => {
    const warm = vonKriesCast(chartScene(), WARM_CAST);
    const settings = estimate(warm);
    assert.ok(settings.temperature < 5200, `temperature ${settings.temperature} K`);
    const grey = (img: Image16) => lab(meanLinear(img, patchBox(img, GREY_PATCH)));
    const before = grey(warm);
    const after = grey(await render(warm, settings));
    const deltaBefore = ciede2000(before[0], before[1], before[2], before[0], 0, 0);
    const deltaAfter = ciede2000(after[0], after[1], after[2], after[0], 0, 0);
    assert.ok(deltaBefore > 8, `the cast is visible: ΔE ${deltaBefore}`);
    assert.ok(deltaAfter < 2, `grey patch ΔE00 from neutral after correction: ${deltaAfter}`);
  });

  it('is not pulled by a scene dominated by one colour', () => {
    for (const [name, scene] of [['grass with a grey wall', grassScene(0.12)], ['grass only', grassScene(0)], ['blue sky', skyScene()]] as const) {
      const s = estimate(scene);
      assert.ok(whiteShift(s.temperature) < 15, `${name}: ${s.temperature} K`);
      assert.ok(Math.abs(s.tint) < 5, `${name}: tint ${s.tint}`);
    }
    // Gray-world on the same grass would make the grass grey: a huge shift, which is why it is not used.
    const grayWorld = whiteFromIlluminant(meanLinear(grassScene(0.12)) as Rgb);
    assert.ok(whiteShift(grayWorld.temperature) > 40 || Math.abs(grayWorld.tint) > 30, `gray-world would give ${grayWorld.temperature} K / ${grayWorld.tint}`);
  });

  it('corrects a cast on a colour-dominant scene that has some neutral', () => {
    const s = estimate(vonKriesCast(grassScene(0.15), WARM_CAST));
    assert.ok(s.temperature < 5500, `temperature ${s.temperature} K`);
  });

  it('lifts the shadows of a dark interior with a bright window', async () => {
    const rnd = seededRandom(9);
    const interior = fromLinear(300, 200, (x) => {
      const t = 0.8 + 0.4 * rnd();
      const v = x > 240 ? 0.9 : 0.01 * t;
      return [v, v, v];
    });
    const s = estimate(interior);
    assert.ok(s.shadows > 20, `shadows ${s.shadows}`);
    const room = { x0: 20, y0: 20, x1: 200, y1: 180 };
    const out = await render(interior, s);
    assert.ok(meanLinear(out, room)[1] > 2 * meanLinear(interior, room)[1], 'the room is brighter');
    assert.ok(meanLinear(out, { x0: 250, y0: 20, x1: 290, y1: 180 })[1] > 0.6, 'the window is not dimmed to grey');
  });

  it('applies the style and the photography type as biases', () => {
    const scene = chartScene();
    const plain = estimate(scene);
    const moody = estimate(scene, { style: BUILT_IN_STYLES.moody });
    assert.ok(Math.abs(moody.exposure - (plain.exposure + BUILT_IN_STYLES.moody.exposure)) < 0.011);
    assert.ok(moody.temperature < plain.temperature);
    const estate = estimate(scene, { photographyType: 'REAL_ESTATE' });
    assert.ok(estate.exposure > plain.exposure && estate.shadows > plain.shadows && estate.highlights < plain.highlights);
    assert.throws(() => estimate(scene, { photographyType: 'ASTRO' }), /one of .*REAL_ESTATE.* for photographyType but received "ASTRO"/);
  });

  it('sets what the options ask for and refuses contradictory options', () => {
    const scene = chartScene(120, 80);
    const s = estimate(scene, { options: { skyReplacement: true, skyTemplateId: 3, windowPull: true, hdrMerge: true, hdrFrames: 5, portraitCrop: true, cropAspectRatio: '4X5', smoothSkin: true } });
    assert.deepEqual(s.sky, { templateId: 3, strength: 1 });
    assert.ok(s.windowPull > 0 && s.smoothSkin > 0);
    assert.deepEqual(s.hdr, { frames: 5 });
    assert.throws(() => estimate(scene, { options: { skyReplacement: true } }), /skyTemplateId/);
    assert.throws(() => estimate(scene, { options: { crop: true, headshotCrop: true } }), /at most one of/);
    assert.throws(() => estimate(scene, { options: { straighten: true, perspectiveCorrection: true } }), /at most one of/);
    assert.throws(() => estimate({ width: 3, height: 3, data: new Uint16Array(3) }), /\(width x height x 3\) for image\.data\.length/);
  });

  it('works on a large frame through its preview', () => {
    const big = fromLinear(2501, 1667, (x, y) => [0.2 + 0.1 * Math.sin(x / 50), 0.2, 0.2 + 0.1 * Math.cos(y / 40)]);
    const s = estimate(big);
    assert.ok(Number.isFinite(s.exposure) && s.temperature > 2000);
  });
});
