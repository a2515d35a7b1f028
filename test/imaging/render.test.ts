import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { render } from '../../src/imaging/render.js';
import { bandHelpers } from '../support/band-helpers.js';
import { developRows, planDevelop } from '../../src/imaging/tone/pixel-pass.js';
import { developImage } from '../../src/imaging/tone/shared-passes.js';
import { defaultSettings, type DevelopSettings } from '../../src/imaging/settings.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';
import { chartScene, fromLinear, lab, meanChroma, meanLinear, meanLuminance, type Rgb } from '../support/scenes.js';

function settings(changes: Partial<DevelopSettings>): DevelopSettings {
  return { ...defaultSettings(), ...changes };
}

/** Two halves: a dark textured left, a bright textured right. */
function darkAndBright(): Image16 {
  const rnd = seededRandom(7);
  return fromLinear(240, 160, (x) => {
    const t = 1 + 0.3 * (rnd() - 0.5);
    const v = (x < 120 ? 0.015 : 0.6) * t;
    return [v, v, v];
  });
}

function regionMean(image: Image16, x0: number, x1: number): number {
  const [r, g, b] = meanLinear(image, { x0, y0: 20, x1, y1: image.height - 20 });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Standard deviation of linear luminance in a column band, relative to its mean. */
function relativeSpread(image: Image16, x0: number, x1: number): number {
  const values: number[] = [];
  for (let y = 20; y < image.height - 20; y++)
    for (let x = x0; x < x1; x++) {
      const [r, g, b] = meanLinear(image, { x0: x, y0: y, x1: x + 1, y1: y + 1 });
      values.push(0.2126 * r + 0.7152 * g + 0.0722 * b);
    }
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length) / mean;
}

describe('render', () => {
  it('default settings return the input within 1 LSB', async () => {
    const rnd = seededRandom(3);
    const data = Uint16Array.from({ length: 97 * 61 * 3 }, () => Math.floor(rnd() * 65536));
    data.set([0, 0, 0, 65535, 65535, 65535, 1, 2, 3], 0);
    const out = await render({ width: 97, height: 61, data }, defaultSettings());
    assert.equal(out.width, 97);
    assert.equal(out.height, 61);
    let worst = 0;
    for (let i = 0; i < data.length; i++) worst = Math.max(worst, Math.abs(out.data[i]! - data[i]!));
    assert.ok(worst <= 1, `largest difference ${worst} LSB`);
  });

  it('validates its arguments', async () => {
    await assert.rejects(render({ width: 2, height: 2, data: new Uint16Array(5) }, defaultSettings()), /Expected 12 \(width x height x 3\) for image\.data\.length/);
    await assert.rejects(render(chartScene(60, 30), { ...defaultSettings(), exposure: 12 }), /exposure/);
  });

  it('more exposure is brighter, by 2^EV in linear light for mid-tones', async () => {
    const scene = chartScene();
    const base = meanLuminance(scene);
    const plus = meanLuminance(await render(scene, settings({ exposure: 1 })));
    const minus = meanLuminance(await render(scene, settings({ exposure: -1 })));
    assert.ok(minus < base && base < plus, `${minus} < ${base} < ${plus}`);
    assert.ok(Math.abs(base / minus - 2) < 0.1, `−1 EV halves: ratio ${base / minus}`);
  });

  it('more saturation and vibrance give more chroma; −100 saturation is grey', async () => {
    const scene = chartScene();
    const c0 = meanChroma(scene);
    assert.ok(meanChroma(await render(scene, settings({ saturation: 40 }))) > c0 * 1.2);
    assert.ok(meanChroma(await render(scene, settings({ vibrance: 40 }))) > c0 * 1.05);
    assert.ok(meanChroma(await render(scene, settings({ saturation: -100 }))) < 1);
  });

  it('temperature and tint move colour the right way', async () => {
    const scene = chartScene();
    const grey = (img: Image16) => lab(meanLinear(img, { x0: 130, y0: 20, x1: 170, y1: 60 }));
    const [, a0, b0] = grey(scene);
    assert.ok(grey(await render(scene, settings({ temperature: 4000 })))[2] < b0 - 5, 'lower temperature is bluer');
    assert.ok(grey(await render(scene, settings({ temperature: 9000 })))[2] > b0 + 5, 'higher temperature is warmer');
    assert.ok(grey(await render(scene, settings({ tint: 30 })))[1] > a0 + 3, 'positive tint is more magenta');
  });

  it('contrast spreads tones around grey', async () => {
    const scene = chartScene();
    const spread = (img: Image16) => {
      const dark = lab(meanLinear(img, { x0: 280, y0: 20, x1: 330, y1: 60 }))[0];
      const light = lab(meanLinear(img, { x0: 10, y0: 20, x1: 50, y1: 60 }))[0];
      return light - dark;
    };
    assert.ok(spread(await render(scene, settings({ contrast: 60 }))) > spread(scene) + 3);
    assert.ok(spread(await render(scene, settings({ contrast: -60 }))) < spread(scene) - 3);
  });

  it('shadows lift the dark half and leave the bright half; highlights do the opposite; local contrast survives', async () => {
    const scene = darkAndBright();
    const lifted = await render(scene, settings({ shadows: 80 }));
    assert.ok(regionMean(lifted, 10, 100) > regionMean(scene, 10, 100) * 1.5, 'dark half lifted');
    assert.ok(Math.abs(regionMean(lifted, 140, 230) / regionMean(scene, 140, 230) - 1) < 0.05, 'bright half kept');
    assert.ok(relativeSpread(lifted, 10, 100) > relativeSpread(scene, 10, 100) * 0.8, 'texture in the lifted half kept');
    const recovered = await render(scene, settings({ highlights: -80 }));
    assert.ok(regionMean(recovered, 140, 230) < regionMean(scene, 140, 230) * 0.8, 'bright half darkened');
    assert.ok(Math.abs(regionMean(recovered, 10, 100) / regionMean(scene, 10, 100) - 1) < 0.05, 'dark half kept');
  });

  it('clarity raises mid-tone local contrast', async () => {
    const rnd = seededRandom(11);
    const scene = fromLinear(200, 120, () => {
      const v = 0.2 * (1 + 0.3 * (rnd() - 0.5));
      return [v, v, v];
    });
    assert.ok(relativeSpread(await render(scene, settings({ clarity: 80 })), 20, 180) > relativeSpread(scene, 20, 180) * 1.2);
  });

  it('sharpening adds edge contrast and noise reduction removes noise in flat areas', async () => {
    const rnd = seededRandom(5);
    const noisy = fromLinear(160, 100, () => {
      const v = 0.2 * (1 + 0.2 * (rnd() - 0.5));
      return [v, v, v];
    });
    assert.ok(relativeSpread(await render(noisy, settings({ noiseReduction: 60 })), 20, 140) < relativeSpread(noisy, 20, 140) * 0.7);
    const edge = fromLinear(100, 60, (x) => (x < 50 ? [0.05, 0.05, 0.05] : [0.5, 0.5, 0.5]) as Rgb);
    const sharp = await render(edge, settings({ sharpening: 100 }));
    const at = (img: Image16, x: number) => img.data[(30 * img.width + x) * 3 + 1]!;
    assert.ok(at(sharp, 50) > at(edge, 50) && at(sharp, 49) < at(edge, 49), 'overshoot on both sides of the edge');
  });

  it('straighten levels a tilted line and keeps the aspect ratio; crop cuts the frame', async () => {
    // A thin vertical bar tilted 4° clockwise about the centre.
    const tilt = (4 * Math.PI) / 180;
    const scene = fromLinear(300, 200, (x, y) => {
      const dx = x - 150;
      const dy = y - 100;
      const u = dx * Math.cos(tilt) + dy * Math.sin(tilt);
      return (Math.abs(u) < 2 ? [0.8, 0.8, 0.8] : [0.05, 0.05, 0.05]) as Rgb;
    });
    const out = await render(scene, settings({ straightenAngle: 4 }));
    assert.ok(Math.abs(out.width / out.height - 1.5) < 0.02, `aspect ${out.width / out.height}`);
    const centreOfRow = (y: number) => {
      let sum = 0;
      let weight = 0;
      for (let x = 0; x < out.width; x++) {
        const v = out.data[(y * out.width + x) * 3 + 1]!;
        sum += x * v;
        weight += v;
      }
      return sum / weight;
    };
    const drift = centreOfRow(out.height - 10) - centreOfRow(10);
    const tiltAfter = (Math.atan2(drift, out.height - 20) * 180) / Math.PI;
    assert.ok(Math.abs(tiltAfter) < 0.3, `residual tilt ${tiltAfter}°`);
    const cropped = await render(scene, settings({ crop: { left: 0.1, top: 0.2, right: 0.6, bottom: 0.7 } }));
    assert.equal(cropped.width, 150);
    assert.equal(cropped.height, 100);
  });

  it('subject emphasis lifts the main subject against its background', async () => {
    // A saturated red disc in the middle of a plain grey field.
    const scene = fromLinear(240, 160, (x, y) => (Math.hypot(x - 120, y - 80) < 35 ? [0.35, 0.05, 0.04] : [0.18, 0.18, 0.18]) as Rgb);
    const plain = await render(scene, settings({}));
    const emphasised = await render(scene, settings({ subjectEmphasis: 100 }));
    const disc = { x0: 105, y0: 65, x1: 135, y1: 95 };
    const field = { x0: 5, y0: 5, x1: 40, y1: 40 };
    const luminance = (img: Image16, box: typeof disc) => {
      const [r, g, b] = meanLinear(img, box);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (img: Image16) => luminance(img, disc) - luminance(img, field);
    assert.ok(contrast(emphasised) > contrast(plain) + 0.005, `${contrast(emphasised)} vs ${contrast(plain)}`);
  });

  it('develops the same pixels in bands over imaging threads as in one go', async () => {
    const rnd = seededRandom(13);
    const scene = fromLinear(1800, 1200, (x, y) => [0.3 + 0.2 * Math.sin(x / 40) + 0.05 * rnd(), 0.25 + 0.2 * Math.cos(y / 30), 0.2 + 0.1 * rnd()]);
    const plan = planDevelop(scene, settings({ exposure: 0.4, temperature: 5200, shadows: 30, clarity: 20, vibrance: 25, sharpening: 60 }));
    const inline = new Uint8Array(scene.data.length);
    developRows(plan, scene.data, inline, scene.width, scene.height, 0, scene.height);
    const helpers = await bandHelpers(2);
    try {
      const shared = new Uint16Array(new SharedArrayBuffer(scene.data.byteLength));
      shared.set(scene.data);
      // A loaded machine may leave the helpers no time to take a band in one run; a few runs give them a chance.
      for (let run = 0; run < 5; run++) {
        const banded = await developImage(plan, { ...scene, data: shared }, 8);
        assert.ok(banded.data.buffer instanceof SharedArrayBuffer, 'developed in shared memory');
        assert.deepEqual(banded.data, inline);
        if ((await Promise.all(helpers.map((h) => h.bandsDone()))).some((n) => n > 0)) break;
      }
      assert.ok(
        (await Promise.all(helpers.map((h) => h.bandsDone()))).some((n) => n > 0),
        'the other threads took bands',
      );
    } finally {
      await Promise.all(helpers.map((h) => h.worker.terminate()));
    }
  });
});
