import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mired, whiteFromIlluminant } from '../../src/imaging/colour.js';
import { estimate } from '../../src/imaging/estimate.js';
import { render } from '../../src/imaging/render.js';
import { BUILT_IN_STYLES, defaultSettings } from '../../src/imaging/settings.js';
import { featurePreview, photoFeatures } from '../../src/imaging/autoedit/features.js';
import { GUARDS, confidence, guardedTargets, plausibleWhite } from '../../src/imaging/autoedit/guards.js';
import { predict } from '../../src/imaging/autoedit/model.js';
import { settingsFromTargets } from '../../src/imaging/autoedit/targets.js';
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
 * with texture, a white house with dark windows, a grey road, a red roof and a dark wooden fence in shadow — the range of
 * a well-exposed daylight photo, from near black to near white.
 */
function landscapeScene(): Image16 {
  const rnd = seededRandom(21);
  return fromLinear(360, 240, (x, y) => {
    const t = 0.85 + 0.3 * rnd();
    if (x >= 200 && x < 320 && y >= 95 && y < 165) return x % 40 < 8 ? [0.05 * t, 0.05 * t, 0.05 * t] : [0.7 * t, 0.7 * t, 0.68 * t];
    if (y < 90) {
      const cloud = Math.exp(-(((x - 250) / 50) ** 2) - ((y - 40) / 18) ** 2);
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
  it('the model recovers a known cast and exposure: the grey renders near neutral and the brightness comes back', async () => {
    const scene = landscapeScene();
    const degraded = mapLinear(vonKriesCast(scene, WARM_CAST), ([r, g, b]) => [r * 2 ** -1, g * 2 ** -1, b * 2 ** -1]);
    // The model's own answer, before the guards shrink it (a generated scene is far from the photos it learned from).
    const settings = { ...defaultSettings(), ...settingsFromTargets(predict(photoFeatures(featurePreview(degraded))).mean) };
    assert.ok(settings.temperature < 5800, `temperature ${settings.temperature} K`);
    assert.ok(settings.exposure > 0.4, `exposure ${settings.exposure} EV`);
    const out = await render(degraded, settings);
    const grey = (img: Image16) => lab(meanLinear(img, ROAD));
    const chroma = (l: [number, number, number]) => Math.hypot(l[1], l[2]);
    assert.ok(chroma(grey(out)) < 0.7 * chroma(grey(degraded)), `grey chroma ${chroma(grey(degraded))} → ${chroma(grey(out))}`);
    const stops = (img: Image16) => Math.log2(meanLuminance(img) / meanLuminance(scene));
    assert.ok(Math.abs(stops(out)) < 0.6 * Math.abs(stops(degraded)), `brightness ${stops(degraded)} → ${stops(out)} stops from the original`);
  });

  it("guards: a correction the bagged models disagree on, or one within the model's error, is made gentler", () => {
    const mean = { illuminantU: 0.2, illuminantV: -0.3, exposure: 1, logContrast: -0.2, logSaturation: -0.2, blackLift: 0.005 };
    const typical = { illuminantU: 0.01, illuminantV: 0.01, exposure: 0.05, logContrast: 0.01, logSaturation: 0.01, blackLift: 0.0003 };
    const rmse = { illuminantU: 0.15, illuminantV: 0.25, exposure: 0.6, logContrast: 0.17, logSaturation: 0.17, blackLift: 0.004 };
    const errors = { rmse, typicalSpread: typical };
    const half = Object.fromEntries(Object.entries(typical).map(([k, v]) => [k, v / 2])) as typeof typical;
    const agreed = confidence({ mean, spread: half }, errors);
    const disputed = confidence({ mean, spread: { ...typical, illuminantU: 0.1, illuminantV: 0.1, exposure: 0.5 } }, errors);
    assert.ok(disputed.white < 0.5 * agreed.white && disputed.exposure < 0.5 * agreed.exposure, JSON.stringify({ agreed, disputed }));
    const small = confidence({ mean: { ...mean, exposure: 0.1 }, spread: half }, errors);
    assert.ok(small.exposure < 0.2 && agreed.exposure > 0.5, `exposure confidence ${small.exposure} for 0.1 EV, ${agreed.exposure} for 1 EV`);
    const guarded = guardedTargets({ mean, spread: typical }, disputed, 0, false);
    assert.ok(Math.abs(guarded.exposure) < Math.abs(mean.exposure) && Math.abs(guarded.illuminantU) < Math.abs(mean.illuminantU));
    const raw = guardedTargets({ mean, spread: typical }, agreed, 0, true);
    assert.ok(Math.abs(raw.illuminantU - agreed.white * mean.illuminantU * 0.5) < 1e-9, 'a RAW halves the white correction: its as-shot white is the prior');
    const looser = { ...GUARDS, spreadTolerance: { ...GUARDS.spreadTolerance, exposure: 2 * GUARDS.spreadTolerance.exposure } };
    const loosened = confidence({ mean, spread: typical }, errors, looser);
    const before = confidence({ mean, spread: typical }, errors);
    assert.ok(loosened.exposure > before.exposure && loosened.white === before.white, "a part's own constants move only that part's confidence");
    assert.deepEqual(plausibleWhite(1500, 80), { temperature: 2200, tint: 30 });
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
    for (const [name, scene] of [
      ['grass with a grey wall', grassScene(0.12)],
      ['grass only', grassScene(0)],
      ['blue sky', skyScene()],
    ] as const) {
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
    // The learned exposure is not confident on this generated room and leaves it; the shadows lift alone brightens it.
    assert.ok(meanLinear(out, room)[1] > 1.5 * meanLinear(interior, room)[1], 'the room is brighter');
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
