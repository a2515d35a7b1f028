import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareJobs } from '../../src/imaging/bands.js';
import { linearToSrgb, srgb16ToLinearLut } from '../../src/imaging/colour.js';
import type { Image16 } from '../../src/imaging/types.js';
import type { SkyMaskResult } from '../../src/imaging/sky/mask.js';
import { skyMask } from '../../src/imaging/sky/mask.js';
import { replaceSky } from '../../src/imaging/sky/replace.js';
import { ANALYSIS_EDGE, analysisCopy } from '../../src/imaging/analysis-copy.js';
import { checkWithBandHelpers } from '../support/band-helpers.js';
import { outdoorScene } from './sky-scenes.js';

const lin = srgb16ToLinearLut();

function maskOf(values: ArrayLike<number>, width: number, height: number): SkyMaskResult {
  const mask = Float32Array.from(values);
  return { mask, width, height, coverage: mask.reduce((a, v) => a + v, 0) / mask.length, confidence: 1 };
}

/** Mean of red minus blue (encoded, 0..1) over the pixels where pick is set: > 0 warm, < 0 blue. */
function warmth(image: Image16, pick: (i: number) => boolean): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    if (!pick(i)) continue;
    sum += (image.data[i * 3]! - image.data[i * 3 + 2]!) / 65535;
    count++;
  }
  return sum / count;
}

describe('replaceSky', () => {
  const { image, truth } = outdoorScene(320, 240, 7);
  const known = maskOf(truth, 320, 240);

  it('leaves pixels with mask 0 bit-identical and turns the sky towards the template', async () => {
    const out = await replaceSky(image, { template: 4, strength: 1, mask: known });
    for (let i = 0; i < truth.length; i++) {
      if (truth[i]) continue;
      for (let c = 0; c < 3; c++) assert.equal(out.data[i * 3 + c], image.data[i * 3 + c], `pixel ${i} channel ${c}`);
    }
    const before = warmth(image, (i) => truth[i] === 1);
    const after = warmth(out, (i) => truth[i] === 1);
    assert.ok(before < -0.2, `the scene's sky is blue (${before})`);
    assert.ok(after > before + 0.25, `the sunset template warms the sky: ${before.toFixed(3)} -> ${after.toFixed(3)}`);
  });

  it('leaves every pixel its automatic mask calls 0 unchanged', async () => {
    const mask = await skyMask(image);
    const out = await replaceSky(image, { template: 2, strength: 1, mask });
    let unchanged = 0;
    let zero = 0;
    let changed = 0;
    for (let i = 0; i < mask.mask.length; i++) {
      const same = out.data[i * 3] === image.data[i * 3] && out.data[i * 3 + 1] === image.data[i * 3 + 1] && out.data[i * 3 + 2] === image.data[i * 3 + 2];
      if (mask.mask[i] === 0) {
        zero++;
        if (same) unchanged++;
      } else if (mask.mask[i]! > 0.9 && !same) changed++;
    }
    assert.ok(zero > 0.3 * mask.mask.length);
    assert.equal(unchanged, zero);
    assert.ok(changed > 0.3 * mask.mask.length, `sky pixels changed: ${changed}`);
  });

  it('mixes by strength: 0 keeps the image, 0.5 lands between', async () => {
    const none = await replaceSky(image, { template: 4, strength: 0, mask: known });
    assert.deepEqual(none.data, image.data);
    const half = await replaceSky(image, { template: 4, strength: 0.5, mask: known });
    const full = await replaceSky(image, { template: 4, strength: 1, mask: known });
    const sky = (i: number) => truth[i] === 1;
    const [w0, w5, w1] = [warmth(image, sky), warmth(half, sky), warmth(full, sky)];
    assert.ok(w0 < w5 && w5 < w1, `${w0} < ${w5} < ${w1}`);
  });

  it('keeps the foreground share of a mixed edge pixel and swaps its sky share', async () => {
    // Left: flat old sky; right: flat dark foreground; one column between is a 50/50 mix in linear light.
    const width = 120,
      height = 90;
    const oldSky = [0.9, 0.9, 0.92];
    const ground = [0.05, 0.08, 0.03];
    const encode = (v: number) => Math.round(65535 * linearToSrgb(v));
    const data = new Uint16Array(width * height * 3);
    const alpha = new Float32Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const a = x < 60 ? 1 : x === 60 ? 0.5 : 0;
        alpha[y * width + x] = a;
        for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = encode(a * oldSky[c]! + (1 - a) * ground[c]!);
      }
    }
    const scene = { width, height, data };
    const out = await replaceSky(scene, { template: 1, strength: 1, mask: maskOf(alpha, width, height) });
    // Well above the horizon (the bottom row), where no haze of the original is kept.
    for (const y of [10, 25, 40]) {
      for (let c = 0; c < 3; c++) {
        const newSky = lin[out.data[(y * width + 59) * 3 + c]!]!;
        const mixed = lin[out.data[(y * width + 60) * 3 + c]!]!;
        const expected = 0.5 * newSky + 0.5 * ground[c]!;
        assert.ok(Math.abs(mixed - expected) < 0.02, `row ${y} channel ${c}: ${mixed.toFixed(4)} vs ${expected.toFixed(4)}`);
      }
    }
  });

  it('relights the ground only slightly, towards the new sky, when asked', async () => {
    const out = await replaceSky(image, { template: 4, strength: 1, mask: known, relight: 1 });
    let warmer = 0;
    let ground = 0;
    for (let i = 0; i < truth.length; i++) {
      if (truth[i]) continue;
      ground++;
      for (let c = 0; c < 3; c++) {
        const before = lin[image.data[i * 3 + c]!]!;
        const after = lin[out.data[i * 3 + c]!]!;
        assert.ok(Math.abs(after - before) <= 0.051 * before + 2e-4, `pixel ${i} channel ${c}: ${before} -> ${after}`);
      }
      if (out.data[i * 3]! - out.data[i * 3 + 2]! > image.data[i * 3]! - image.data[i * 3 + 2]!) warmer++;
    }
    assert.ok(warmer > 0.9 * ground, `a sunset warms the ground: ${warmer} of ${ground}`);
  });

  it('reads the scene from the analysis copy it is given: its own copy gives what it would make itself', async () => {
    const own = await replaceSky(image, { template: 2, strength: 1, mask: known });
    const given = await replaceSky(image, { template: 2, strength: 1, mask: known, analysis: await analysisCopy(image, ANALYSIS_EDGE) });
    assert.deepEqual(given.data, own.data);
    const dark: Image16 = { ...image, data: image.data.map((v) => v >> 2) };
    const other = await replaceSky(image, { template: 2, strength: 1, mask: known, analysis: await analysisCopy(dark, ANALYSIS_EDGE) });
    assert.notDeepEqual(other.data, own.data);
  });

  it('in place, blends into the image itself what it would blend into a copy', async () => {
    const copy = await replaceSky(image, { template: 2, strength: 0.8, mask: known });
    const own: Image16 = { ...image, data: image.data.slice() };
    const inPlace = await replaceSky(own, { template: 2, strength: 0.8, mask: known, inPlace: true });
    assert.equal(inPlace.data, own.data, 'no new pixels');
    assert.deepEqual(inPlace.data, copy.data);
    assert.notDeepEqual(inPlace.data, image.data, 'the sky was replaced');
  });

  it('reads a mask within the spans it gives, as the whole mask', async () => {
    const found = await skyMask(image);
    assert.ok(found.spans && found.coverage > 0.1, 'an automatic mask, with its spans');
    for (let y = 0; y < 240; y++) {
      const row = Array.from(found.mask.subarray(y * 320, (y + 1) * 320));
      const first = row.findIndex((m) => m !== 0);
      const end = 320 - [...row].reverse().findIndex((m) => m !== 0);
      assert.deepEqual([found.spans[y * 2], found.spans[y * 2 + 1]], first < 0 ? [0, 0] : [first, end], `row ${y}`);
    }
    const { spans, ...withoutSpans } = found;
    const given = await replaceSky(image, { template: 2, strength: 1, mask: found });
    assert.deepEqual(given.data, (await replaceSky(image, { template: 2, strength: 1, mask: withoutSpans })).data);
  });

  it('returns the image unchanged when there is no sky', async () => {
    const out = await replaceSky(image, { template: 2, strength: 1, mask: maskOf(new Float32Array(320 * 240), 320, 240) });
    assert.deepEqual(out.data, image.data);
  });

  it('rejects bad arguments with what it expected', async () => {
    await assert.rejects(() => replaceSky(image, { template: 2, strength: 1.5, mask: known }), /Expected a number between 0 and 1 for options.strength/);
    await assert.rejects(() => replaceSky(image, { template: 9, strength: 1, mask: known }), /built-in sky template id/);
    await assert.rejects(() => replaceSky(image, { template: 2, strength: 1, mask: maskOf(new Float32Array(10), 5, 2) }), /SkyMaskResult of 320 × 240/);
    await assert.rejects(() => replaceSky(image, { template: 2, strength: 1, mask: { ...known, spans: new Int32Array(10) } }), /SkyMaskResult of 320 × 240/);
  });
});

describe('replaceSky over the imaging threads', () => {
  it('blends in bands on the other threads, sample for sample as on one thread', async () => {
    // This thread shares its jobs as an imaging thread of the service does; 2 MP and more go to shared memory.
    shareJobs();
    const width = 1601,
      height = 1251;
    const { image, truth } = outdoorScene(width, height, 5);
    // A soft edge: the known sky, box-blurred along the rows.
    const soft = Float32Array.from(truth, (_, i) => {
      let sum = 0;
      for (let d = -4; d <= 4; d++) sum += truth[Math.min(truth.length - 1, Math.max(0, i + d))]!;
      return sum / 9;
    });
    const alone = await replaceSky(image, { template: 2, strength: 0.9, mask: maskOf(soft, width, height) });
    const sharedData = new Uint16Array(new SharedArrayBuffer(image.data.byteLength));
    sharedData.set(image.data);
    const sharedMask = new Float32Array(new SharedArrayBuffer(soft.byteLength));
    sharedMask.set(soft);
    const mask = { ...maskOf(soft, width, height), mask: sharedMask };
    await checkWithBandHelpers(async () => {
      const banded = await replaceSky({ width, height, data: sharedData }, { template: 2, strength: 0.9, mask });
      assert.ok(banded.data.buffer instanceof SharedArrayBuffer, 'blended into shared memory');
      assert.deepEqual(banded.data, alone.data);
    });
  });
});
