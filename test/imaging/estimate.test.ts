import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mired, whiteFromIlluminant } from '../../src/imaging/colour.js';
import { estimate } from '../../src/imaging/estimate.js';
import { render } from '../../src/imaging/render.js';
import { BUILT_IN_STYLES } from '../../src/imaging/settings.js';
import type { Image16 } from '../../src/imaging/types.js';
import { seededRandom } from '../../src/imaging/random.js';
import { WARM_CAST, chartScene, fromLinear, lab, mapLinear, meanLinear, meanLuminance, vonKriesCast, type Rgb } from '../support/scenes.js';
import { meanCiede2000 } from '../../bench/metrics/ciede2000.js';

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

/** Box of the grey road in landscapeScene. */
const ROAD = { x0: 150, y0: 170, x1: 250, y1: 195 };

/**
 * A photograph-like scene: a sky from pale to deep blue with a white cloud, green hills
 * with texture, a grey road, a red roof and a dark wooden fence in shadow — the range of
 * a well-exposed daylight photo, from near black to near white.
 */
function landscapeScene(): Image16 {
  const rnd = seededRandom(21);
  return fromLinear(360, 240, (x, y) => {
    const t = 0.85 + 0.3 * rnd();
    if (y < 90) {
      const cloud = Math.exp(-(((x - 250) / 50) ** 2) - (((y - 40) / 18) ** 2));
      const h = y / 90;
      const sky: Rgb = [0.18 + 0.25 * h, 0.3 + 0.25 * h, 0.75 + 0.1 * h];
      return [sky[0] + (0.92 - sky[0]) * cloud, sky[1] + (0.92 - sky[1]) * cloud, sky[2] + (0.92 - sky[2]) * cloud];
    }
    if (x >= 40 && x < 110 && y >= 100 && y < 150) return [0.45 * t, 0.08 * t, 0.05 * t];
    if (y >= 165 && y < 200) return [0.2 * t, 0.2 * t, 0.2 * t];
    if (y >= 200) return x % 24 < 6 ? [0.004, 0.003, 0.002] : [0.05 * t, 0.03 * t, 0.015 * t];
    return [0.07 * t, 0.16 * t, 0.04 * t];
  });
}

/** Box inside the petals of flowerScene. */
const PETALS = { x0: 130, y0: 80, x1: 230, y1: 160 };

/** A close-up of a yellow flower filling the middle of the frame on a dark green background. */
function flowerScene(): Image16 {
  const rnd = seededRandom(5);
  return fromLinear(360, 240, (x, y) => {
    const t = 0.85 + 0.3 * rnd();
    const r = Math.hypot(x - 180, y - 120);
    if (r < 18) return [0.25 * t, 0.12 * t, 0.02 * t];
    if (r < 95) return [0.75 * t, 0.55 * t, 0.03 * t];
    return [0.01 * t, 0.025 * t, 0.008 * t];
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
  it('recovers a known cast and exposure: the grey renders near neutral and the brightness comes back', async () => {
    const scene = landscapeScene();
    const degraded = mapLinear(vonKriesCast(scene, WARM_CAST), ([r, g, b]) => [r * 2 ** -1, g * 2 ** -1, b * 2 ** -1]);
    const settings = estimate(degraded);
    assert.ok(settings.temperature < 5800, `temperature ${settings.temperature} K`);
    assert.ok(settings.exposure > 0.4, `exposure ${settings.exposure} EV`);
    const out = await render(degraded, settings);
    const grey = (img: Image16) => lab(meanLinear(img, ROAD));
    const chroma = (l: [number, number, number]) => Math.hypot(l[1], l[2]);
    assert.ok(chroma(grey(out)) < 0.6 * chroma(grey(degraded)), `grey chroma ${chroma(grey(degraded))} → ${chroma(grey(out))}`);
    const stops = (img: Image16) => Math.log2(meanLuminance(img) / meanLuminance(scene));
    assert.ok(Math.abs(stops(out)) < 0.5 * Math.abs(stops(degraded)), `brightness ${stops(degraded)} → ${stops(out)} stops from the original`);
  });

  it('a scene of one saturated colour keeps its colour', async () => {
    const flower = flowerScene();
    const out = await render(flower, estimate(flower));
    const before = lab(meanLinear(flower, PETALS));
    const after = lab(meanLinear(out, PETALS));
    const hue = (l: [number, number, number]) => (Math.atan2(l[2], l[1]) * 180) / Math.PI;
    assert.ok(Math.abs(hue(after) - hue(before)) < 8, `petal hue ${hue(before)}° → ${hue(after)}°`);
    assert.ok(Math.hypot(after[1], after[2]) > 0.8 * Math.hypot(before[1], before[2]), 'the petals keep their chroma');
  });

  it('leaves a neutral, well-exposed image nearly unchanged', async () => {
    const scene = landscapeScene();
    const out = await render(scene, estimate(scene));
    const moved = meanCiede2000(scene, out);
    assert.ok(moved < 3, `mean ΔE00 ${moved} to the original`);
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
    assert.deepEqual(s.autoCrop, { mode: 'portrait', aspectRatio: '4X5' });
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
