import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromaOf, emptyHalfFrame, halfFrame } from '../../src/imaging/hdr/blend.js';
import { lumaDistances } from '../../src/imaging/hdr/deghost.js';
import { normalise } from '../../src/imaging/hdr/fusion.js';
import { blockMean, lumaAndHalf, lumaInto, type Plane } from '../../src/imaging/hdr/luma.js';
import { sampleFrame, transferBetween } from '../../src/imaging/hdr/transfer.js';
import { qualityWeights } from '../../src/imaging/hdr/weights.js';
import { arena, reserve, toolKernels } from '../../src/imaging/kernels.js';
import type { Image16 } from '../../src/imaging/types.js';

/** Odd and even sides, 1-px planes, heights over the kernels' 64-row chunks, and one frame over the luma kernel's 65536-pixel chunk. */
const SIZES = [
  [1, 1],
  [2, 3],
  [5, 1],
  [7, 5],
  [33, 18],
  [9, 150],
  [67, 131],
  [301, 223],
] as const;

/** A reproducible pseudo-random frame, with clipped black and white pixels among the others. */
function frame(width: number, height: number, seed: number): Image16 {
  let s = seed;
  const data = new Uint16Array(width * height * 3).map(() => {
    s = (s * 1103515245 + 12345) % 2147483648;
    const v = Math.floor((s / 2147483648) * 70000) - 2000;
    return Math.min(65535, Math.max(0, v));
  });
  return { width, height, data };
}

function lumaReference(image: Image16): Plane {
  const { width, height, data } = image;
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = (0.299 * data[3 * i]! + 0.587 * data[3 * i + 1]! + 0.114 * data[3 * i + 2]!) / 65535;
  return { width, height, data: out };
}

/** Index of the pixel (x, y), clamped to the frame: the last row and column pair with themselves. */
const at = (image: { width: number; height: number }, x: number, y: number) => Math.min(image.height - 1, y) * image.width + Math.min(image.width - 1, x);

test('luma, the half-size frame, quality weights and colour from the kernels equal their definitions on odd sizes', () => {
  for (const [width, height] of SIZES) {
    const image = frame(width, height, width * 7 + height);
    const expectedLuma = lumaReference(image);
    const luma = lumaInto(image, new Float32Array(width * height));
    assert.deepEqual(luma.data, expectedLuma.data, `luma ${width}x${height}`);

    const half = emptyHalfFrame(width, height);
    halfFrame(image, luma, half);
    const { width: w2, height: h2 } = half.luma;
    for (let y = 0; y < h2; y++) {
      for (let x = 0; x < w2; x++) {
        const quad = [at(image, 2 * x, 2 * y), at(image, 2 * x + 1, 2 * y), at(image, 2 * x, 2 * y + 1), at(image, 2 * x + 1, 2 * y + 1)];
        const o = y * w2 + x;
        assert.equal(half.luma.data[o], Math.fround(quad.reduce((sum, i) => sum + luma.data[i]!, 0) / 4), `half luma ${width}x${height} at ${x},${y}`);
        for (let c = 0; c < 3; c++) assert.equal(half.image.data[3 * o + c], Math.floor(quad.reduce((sum, i) => sum + image.data[3 * i + c]!, 0) / 4 + 0.5), `half rgb ${width}x${height}`);
      }
    }

    const weights = new Float32Array(w2 * h2);
    qualityWeights(half.image, half.luma, weights);
    const [cb, cr] = chromaOf(half);
    for (let y = 0; y < h2; y++) {
      for (let x = 0; x < w2; x++) {
        const o = y * w2 + x;
        const g = half.luma.data[o]!;
        const near = (dx: number, dy: number) => half.luma.data[at(half.luma, Math.max(0, x + dx), Math.max(0, y + dy))]!;
        const contrast = Math.abs(near(-1, 0) + near(1, 0) + near(0, -1) + near(0, 1) - 4 * g);
        const [r, gr, b] = [0, 1, 2].map((c) => half.image.data[3 * o + c]!) as [number, number, number];
        const mean = (r + gr + b) / 3;
        const saturation = Math.sqrt(((r - mean) ** 2 + (gr - mean) ** 2 + (b - mean) ** 2) / 3) / 65535;
        const d = (Math.min(1023, Math.floor(g * 1024)) + 0.5) / 1024 - 0.5;
        const exposedness = Math.fround(Math.exp(-(d * d) / (2 * 0.2 * 0.2)));
        const expected = contrast * (saturation + 0.02) * exposedness + 1e-12;
        assert.ok(Math.abs(weights[o]! - expected) <= 1e-6 * expected, `weight ${width}x${height} at ${x},${y}: ${weights[o]} vs ${expected}`);
        assert.ok(Math.abs(cb!.data[o]! - (b / 65535 - g) / (g + 0.1)) < 1e-6, `B - Y ${width}x${height}`);
        assert.ok(Math.abs(cr!.data[o]! - (r / 65535 - g) / (g + 0.1)) < 1e-6, `R - Y ${width}x${height}`);
      }
    }
  }
});

test('luma with its half in one pass equals lumaInto and blockMean by 2, mean to the bit', () => {
  // Wider than the chunk (one row per chunk pair), and tall enough to cross many chunks of LUMA_CHUNK pixels mid-row.
  for (const [width, height] of [...SIZES, [70001, 3], [1500, 301]] as const) {
    const image = frame(width, height, 7 * width + height);
    const luma = lumaInto(image, new Float32Array(width * height));
    const half = new Float32Array(Math.ceil(width / 2) * Math.ceil(height / 2));
    const out = new Float32Array(width * height);
    const both = lumaAndHalf(image, out, half);
    assert.equal(both.mean, luma.mean, `mean ${width}x${height}`);
    assert.deepEqual(out, luma.data, `luma ${width}x${height}`);
    assert.deepEqual(half, blockMean(luma, 2).data, `half ${width}x${height}`);
  }
});

test('block means from the kernels equal their definition on odd sizes and factors', () => {
  for (const [width, height] of SIZES) {
    const luma = lumaInto(frame(width, height, width + height), new Float32Array(width * height));
    for (const factor of [2, 3, 8]) {
      const mean = blockMean(luma, factor);
      assert.equal(mean.width, Math.ceil(width / factor));
      assert.equal(mean.height, Math.ceil(height / factor));
      for (let by = 0; by < mean.height; by++) {
        for (let bx = 0; bx < mean.width; bx++) {
          let sum = 0;
          let n = 0;
          for (let y = by * factor; y < Math.min(height, (by + 1) * factor); y++) {
            for (let x = bx * factor; x < Math.min(width, (bx + 1) * factor); x++, n++) sum += luma.data[y * width + x]!;
          }
          assert.equal(mean.data[by * mean.width + bx], Math.fround(sum / n), `${width}x${height} / ${factor} at ${bx},${by}`);
        }
      }
    }
  }
});

test('weights normalised by the kernel are each frame share of their sum, 0 where all are 0', () => {
  for (const count of [1, 5, 70001]) {
    const weights = [0, 1, 2].map((k) => lumaInto(frame(count, 1, 11 + k), new Float32Array(count)).data.map((v, p) => (p % 7 === 0 ? 0 : v)));
    const expected = weights.map((w) => w.map((v, p) => (p % 7 === 0 ? 0 : v / (weights[0]![p]! + weights[1]![p]! + weights[2]![p]!))));
    normalise(weights);
    weights.forEach((w, k) => {
      w.forEach((v, p) => {
        assert.ok(Math.abs(v - expected[k]![p]!) <= 1e-6, `frame ${k} pixel ${p} of ${count}: ${v} vs ${expected[k]![p]}`);
      });
    });
  }
});

test('the kernel counts values strictly between two bounds compared in double precision, as JavaScript does', () => {
  const f32Neighbours = (x: number) => {
    const v = new Float32Array([x]);
    const bits = new Int32Array(v.buffer);
    const around: number[] = [];
    for (let d = -2; d <= 2; d++) {
      bits[0] = new Int32Array(new Float32Array([x]).buffer)[0]! + d;
      around.push(v[0]!);
    }
    return around;
  };
  const bounds: [number, number][] = [
    [0.04, 0.96],
    [Math.fround(0.04), Math.fround(0.96)],
    [0.25, 0.5],
    [-0.1, 0.1],
    [0.1, 0.3],
    [0, 1],
  ];
  for (const [lo, hi] of bounds) {
    const near = [...f32Neighbours(lo), ...f32Neighbours(hi), lo, hi, 0, -0, 0.5, 1, -1, Number.NaN, Number.POSITIVE_INFINITY];
    // Lengths that leave 0 to 3 values after the groups of four.
    for (const length of [near.length, near.length + 1, 2 * near.length + 3, 5]) {
      const values = new Float32Array(length).map((_, i) => near[(i * 7) % near.length]!);
      const k = toolKernels();
      const l = arena({ src: 4 * values.length });
      reserve(k, l.end);
      new Float32Array(k.memory.buffer, l.src, values.length).set(values);
      assert.equal(k.countBetween(l.src, values.length, lo, hi), values.filter((v) => v > lo && v < hi).length, `${lo}..${hi}, ${length} values`);
    }
  }
});

test("the ghost check's samples and luma distances from the kernels equal their definitions", () => {
  for (const [width, height] of SIZES) {
    const reference = frame(width, height, 3 * width + height);
    // A brighter frame of the same pixels with noise, so distances are both zero and not.
    const other = frame(width, height, width + 5 * height);
    other.data.forEach((v, i) => {
      other.data[i] = Math.min(65535, Math.round(reference.data[i]! * 1.6 + (v - 32768) / 8));
    });
    for (const step of [1, 2, 3]) {
      const samples = sampleFrame(other, step);
      const sw = Math.ceil(width / step);
      for (let y = 0; y < Math.ceil(height / step); y++) {
        for (let x = 0; x < sw; x++) {
          for (let c = 0; c < 3; c++) assert.equal(samples[c].data[y * sw + x], Math.fround(other.data[3 * (y * step * width + x * step) + c]! / 65535), `sample ${width}x${height} step ${step}`);
        }
      }
      const referenceSamples = sampleFrame(reference, step);
      const transfer = transferBetween(referenceSamples, samples);
      const distances = lumaDistances(referenceSamples, samples, transfer);
      const f = Math.fround;
      const luma = [0.299, 0.587, 0.114] as const;
      const weigh = ([r, g, b]: number[]) => f(f(f(luma[0] * r!) + luma[1] * g!) + luma[2] * b!);
      for (let p = 0; p < distances.length; p++) {
        const ref = referenceSamples.map((s) => s.data[p]!);
        const bins = ref.map((v) => Math.floor(v * 256));
        const lo = weigh(bins.map((b, c) => transfer.lo[c]![b]!));
        const hi = weigh(bins.map((b, c) => transfer.hi[c]![b]!));
        const v = weigh(samples.map((s) => s.data[p]!));
        const expected = Math.max(...ref) >= 0.97 ? 0 : f(Math.max(0, lo - v, v - hi));
        assert.equal(distances[p], expected, `distance ${width}x${height} step ${step} at ${p}`);
      }
    }
  }
});
