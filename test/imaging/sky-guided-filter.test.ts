import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analysisCopy } from '../../src/imaging/analysis-copy.js';
import { shareJobs } from '../../src/imaging/bands.js';
import { boxMean } from '../../src/imaging/filters/box.js';
import { guidedFilterCoefficients } from '../../src/imaging/filters/guided.js';
import { applyGuidedCoefficients, guidedMaskWithSpans, guidedRegion } from '../../src/imaging/filters/guided-apply.js';
import { seededRandom } from '../../src/imaging/random.js';
import { checkWithBandHelpers } from '../support/band-helpers.js';
import { applyGuidedReference, boxMeanReference, guidedCoefficientsReference } from '../support/tools-reference.js';

describe('boxMean', () => {
  it('equals the brute-force window mean, borders included', () => {
    const rand = seededRandom(3);
    const width = 23,
      height = 17;
    const src = Float32Array.from({ length: width * height }, () => rand());
    for (const radius of [0, 1, 4, 30]) {
      const fast = boxMean(src, width, height, radius);
      const reference = boxMeanReference(Float64Array.from(src), width, height, radius);
      for (let i = 0; i < reference.length; i++) assert.ok(Math.abs(fast[i]! - reference[i]!) < 1e-5, `r ${radius} at ${i % width},${Math.floor(i / width)}`);
    }
  });
});

describe('fast guided filter', () => {
  it('snaps a coarse, misplaced mask to the full-resolution edge of the guide', async () => {
    // Full size 400 × 100: dark grey left of x = 203, bright blue right of it.
    const width = 400,
      height = 100,
      edge = 203;
    const data = new Uint16Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const rgb = x < edge ? [0.2, 0.2, 0.2] : [0.4, 0.6, 0.95];
        for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.round(rgb[c]! * 65535);
      }
    }
    const image = { width, height, data };
    // Solved at a quarter of the size, from a mask whose step is 5 full-size pixels off (x = 208).
    const copy = await analysisCopy(image, 100);
    const coarse = new Float32Array(copy.width * copy.height);
    for (let y = 0; y < copy.height; y++) for (let x = 0; x < copy.width; x++) coarse[y * copy.width + x] = x >= 52 ? 1 : 0;
    const mask = await applyGuidedCoefficients(guidedFilterCoefficients(copy.rgb, coarse, copy.width, copy.height, 4, 1e-3), image);
    for (const y of [10, 50, 90]) {
      let crossing = -1;
      for (let x = 1; x < width; x++) if (mask[y * width + x - 1]! < 0.5 && mask[y * width + x]! >= 0.5) crossing = x;
      assert.ok(Math.abs(crossing - edge) <= 1, `row ${y}: 0.5 crossing at ${crossing}, edge at ${edge}`);
      assert.ok(mask[y * width + 150]! < 0.05 && mask[y * width + 260]! > 0.95, 'flat areas are decided');
    }
  });
});

describe('colour guided filter coefficients: the WebAssembly kernel against a double-precision solve', () => {
  it('within 2e-4 of it on an odd-sized image, borders included', () => {
    const rand = seededRandom(5);
    const width = 37,
      height = 23;
    // A smooth colour ramp with noise, and an input that follows the guide's red with noise of its own.
    const guide = Float32Array.from({ length: width * height * 3 }, (_, j) => {
      const i = Math.floor(j / 3);
      return Math.min(1, Math.max(0, ((i % width) / width) * 0.5 + (Math.floor(i / width) / height) * 0.3 * (j % 3) + 0.2 * rand()));
    });
    const p = Float32Array.from({ length: width * height }, (_, i) => 0.8 * guide[i * 3]! + 0.1 * rand());
    for (const [radius, eps] of [
      [1, 1e-3],
      [3, 1e-2],
      [30, 1e-3],
    ] as const) {
      const fast = guidedFilterCoefficients(guide, p, width, height, radius, eps);
      const reference = guidedCoefficientsReference(guide, p, width, height, radius, eps);
      let max = 0;
      for (let i = 0; i < reference.a.length; i++) max = Math.max(max, Math.abs(fast.a[i]! - reference.a[i]!));
      for (let i = 0; i < reference.b.length; i++) max = Math.max(max, Math.abs(fast.b[i]! - reference.b[i]!));
      assert.ok(max < 2e-4, `radius ${radius}, eps ${eps}: max difference ${max}`);
      assert.ok(
        reference.a.some((v) => Math.abs(v) > 0.1),
        'the case fits a non-trivial a',
      );
    }
  });
});

describe('fast guided filter: the WebAssembly kernel against a double-precision evaluation', () => {
  const rand = seededRandom(11);
  const width = 203,
    height = 77;
  const data = Uint16Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 65536));
  const image = { width, height, data };
  const cw = 29,
    ch = 13;
  const coefficients = {
    width: cw,
    height: ch,
    a: Float32Array.from({ length: cw * ch * 3 }, () => rand() * 2 - 1),
    b: Float32Array.from({ length: cw * ch }, () => rand() * 1.5 - 0.25),
  };
  const reference = applyGuidedReference(coefficients, image);

  it('the whole image: within 1e-5 everywhere, clamped to 0..1', async () => {
    const out = await applyGuidedCoefficients(coefficients, image);
    let max = 0;
    for (let i = 0; i < out.length; i++) max = Math.max(max, Math.abs(out[i]! - reference[i]!));
    assert.ok(max < 1e-5, `max difference ${max}`);
    assert.ok(reference.some((v) => v === 0) && reference.some((v) => v === 1), 'the case reaches both clamps');
  });

  it('with spans: the same mask, and per row where it is not 0', async () => {
    const { mask, spans } = await guidedMaskWithSpans(coefficients, image);
    assert.deepEqual(mask, await applyGuidedCoefficients(coefficients, image));
    const shapes = new Set<string>();
    for (let y = 0; y < height; y++) {
      const row = Array.from(mask.subarray(y * width, (y + 1) * width));
      const first = row.findIndex((m) => m !== 0);
      const end = width - [...row].reverse().findIndex((m) => m !== 0);
      const expected = first < 0 ? [0, 0] : [first, end];
      assert.deepEqual([spans[y * 2], spans[y * 2 + 1]], expected, `row ${y}`);
      shapes.add(first < 0 ? 'empty' : first === 0 && end === width ? 'full' : end % 4 === 0 ? 'inner' : 'ragged');
    }
    // Rows whose zeros the four-at-a-time scan skips from both ends, odd ends included.
    assert.ok(shapes.has('ragged') && (shapes.has('inner') || shapes.has('full')), [...shapes].join(', '));
  });

  it('a region: the same values inside, 0 outside', async () => {
    const region = { x: 17, y: 5, width: 90, height: 70 };
    const out = await applyGuidedCoefficients(coefficients, image, region);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const inside = x >= region.x && x < region.x + region.width && y >= region.y && y < region.y + region.height;
        const i = y * width + x;
        if (inside) assert.ok(Math.abs(out[i]! - reference[i]!) < 1e-5, `at ${x},${y}`);
        else assert.equal(out[i], 0, `at ${x},${y}`);
      }
    }
  });
});

describe('fast guided filter: cells that cannot lift the output above 0 are skipped', () => {
  it('a mask of sky at the top right: the same values as evaluating every pixel', async () => {
    const rand = seededRandom(23);
    const width = 251,
      height = 119;
    const data = Uint16Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 65536));
    const image = { width, height, data };
    const cw = 31,
      ch = 15;
    // Sky cells up and to the right (b up to 1), dead cells elsewhere: b below 0 by more than a's lift, a few of a exactly 0,
    // and one cell whose bound is a hair below 0 (kept live by the margin).
    const a = new Float32Array(cw * ch * 3);
    const b = new Float32Array(cw * ch);
    for (let y = 0; y < ch; y++) {
      for (let x = 0; x < cw; x++) {
        const i = y * cw + x;
        const sky = x > 8 + y && y < 9;
        // The sky's edge: cells that lift a pixel a little above 0.
        const edge = x === 8 + y && y < 9;
        for (let c = 0; c < 3; c++) a[i * 3 + c] = sky || edge || (x + y) % 3 ? rand() * 0.4 - 0.2 : 0;
        const lift = Math.max(0, a[i * 3]!) + Math.max(0, a[i * 3 + 1]!) + Math.max(0, a[i * 3 + 2]!);
        b[i] = sky ? 0.6 + rand() * 0.5 : edge ? 0.02 - lift * rand() : -lift - rand() * 0.3;
      }
    }
    b[12 * cw + 4] = -(Math.max(0, a[(12 * cw + 4) * 3]!) + Math.max(0, a[(12 * cw + 4) * 3 + 1]!) + Math.max(0, a[(12 * cw + 4) * 3 + 2]!)) - 1e-7;
    const coefficients = { width: cw, height: ch, a, b };
    const reference = applyGuidedReference(coefficients, image);
    const out = await applyGuidedCoefficients(coefficients, image);
    let max = 0;
    for (let i = 0; i < out.length; i++) max = Math.max(max, Math.abs(out[i]! - reference[i]!));
    assert.ok(max < 1e-5, `max difference ${max}`);
    const zeros = reference.filter((v) => v === 0).length;
    assert.ok(zeros > 0.5 * reference.length && zeros < reference.length, `${zeros} of ${reference.length} are 0: the case skips and evaluates`);
    const { mask } = await guidedMaskWithSpans(coefficients, image);
    assert.deepEqual(mask, out);
  });

  it('guidedRegion: the region of the full-size evaluation, at its own size', async () => {
    const rand = seededRandom(29);
    const width = 97,
      height = 61;
    const data = Uint16Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 65536));
    const image = { width, height, data };
    const coefficients = { width: 13, height: 9, a: Float32Array.from({ length: 13 * 9 * 3 }, () => rand() * 2 - 1), b: Float32Array.from({ length: 13 * 9 }, () => rand() * 1.5 - 0.25) };
    const region = { x: 11, y: 7, width: 60, height: 40 };
    const full = await applyGuidedCoefficients(coefficients, image, region);
    const cropped = await guidedRegion(coefficients, image, region);
    assert.equal(cropped.length, region.width * region.height);
    for (let y = 0; y < region.height; y++) {
      for (let x = 0; x < region.width; x++) assert.equal(cropped[y * region.width + x], full[(region.y + y) * width + region.x + x], `at ${x},${y}`);
    }
  });
});

describe('fast guided filter over the imaging threads', () => {
  it('evaluates in bands on the other threads, value for value as on one thread, a region too', async () => {
    // This thread shares its jobs as an imaging thread of the service does.
    shareJobs();
    const rand = seededRandom(17);
    const width = 611,
      height = 2311;
    const data = Uint16Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 65536));
    const shared = new Uint16Array(new SharedArrayBuffer(data.byteLength));
    shared.set(data);
    const cw = 41,
      ch = 97;
    const coefficients = {
      width: cw,
      height: ch,
      a: Float32Array.from({ length: cw * ch * 3 }, () => rand() * 2 - 1),
      b: Float32Array.from({ length: cw * ch }, () => rand() * 1.5 - 0.25),
    };
    const region = { x: 13, y: 101, width: 555, height: 2100 };
    const alone = [await applyGuidedCoefficients(coefficients, { width, height, data }), await applyGuidedCoefficients(coefficients, { width, height, data }, region)];
    const aloneSpans = (await guidedMaskWithSpans(coefficients, { width, height, data })).spans;
    await checkWithBandHelpers(async () => {
      const { spans } = await guidedMaskWithSpans(coefficients, { width, height, data: shared });
      assert.ok(spans.buffer instanceof SharedArrayBuffer, 'spans the other threads write');
      assert.deepEqual(spans, aloneSpans, 'spans');
      const banded = [await applyGuidedCoefficients(coefficients, { width, height, data: shared }), await applyGuidedCoefficients(coefficients, { width, height, data: shared }, region)];
      for (const [k, out] of banded.entries()) {
        assert.ok(out.buffer instanceof SharedArrayBuffer, 'evaluated into shared memory');
        assert.deepEqual(out, alone[k], k === 0 ? 'whole image' : 'region');
      }
    });
  });
});
