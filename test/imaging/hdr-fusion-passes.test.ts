import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyBands, toRgbRows } from '../../src/imaging/hdr/blend.js';
import type { Plane } from '../../src/imaging/hdr/luma.js';
import { addWeightedBand, CHUNK_ROWS, collapsePyramid, gaussianPyramid } from '../../src/imaging/hdr/pyramid.js';

/** Sizes with odd and even sides, planes under 3 px, sides that are no multiple of the kernels' four lanes, and heights over CHUNK_ROWS. */
const SIZES = [
  [1, 1],
  [2, 3],
  [5, 1],
  [7, 5],
  [13, 11],
  [16, 9],
  [33, 18],
  [9, 150],
  [67, 131],
] as const;

/** A reproducible pseudo-random plane. */
function plane(width: number, height: number, seed: number): Plane {
  let s = seed;
  const data = new Float32Array(width * height).map(() => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  });
  return { width, height, data };
}

const TAPS = [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16];

function reflect(i: number, n: number): number {
  const r = i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
  return Math.min(n - 1, Math.max(0, r));
}

/** The binomial blur sampled at every second pixel and row, straight from its definition. */
function reduceReference(src: Plane): Plane {
  const width = (src.width + 1) >> 1;
  const height = (src.height + 1) >> 1;
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = 0;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) v += TAPS[dy + 2]! * TAPS[dx + 2]! * src.data[reflect(2 * y + dy, src.height) * src.width + reflect(2 * x + dx, src.width)]!;
      }
      data[y * width + x] = v;
    }
  }
  return { width, height, data };
}

/** Zeros inserted between the coarse pixels, blurred with 4 x the binomial kernel, coarse edges repeated. */
function expandReference(coarse: Plane, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  const clamp = (i: number, n: number) => Math.min(n - 1, Math.max(0, i));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = 0;
      for (let j = Math.floor((y - 2) / 2); j <= Math.ceil((y + 2) / 2); j++) {
        for (let i = Math.floor((x - 2) / 2); i <= Math.ceil((x + 2) / 2); i++) {
          const ky = TAPS[y - 2 * j + 2] ?? 0;
          const kx = TAPS[x - 2 * i + 2] ?? 0;
          v += 4 * ky * kx * coarse.data[clamp(j, coarse.height) * coarse.width + clamp(i, coarse.width)]!;
        }
      }
      out[y * width + x] = v;
    }
  }
  return out;
}

function assertClose(actual: Float32Array, expected: Float32Array, what: string): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < actual.length; i++) {
    assert.ok(Math.abs(actual[i]! - expected[i]!) < 1e-5, `${what}: [${i}] ${actual[i]} vs ${expected[i]}`);
  }
}

test('the Gaussian pyramid reduces each level as the binomial blur sampled at every second pixel', () => {
  assert.ok(Math.max(...SIZES.map(([, h]) => h)) > 2 * CHUNK_ROWS, 'a size spans several chunks of output rows');
  for (const [w, h] of SIZES) {
    const base = plane(w, h, w * 31 + h);
    const levels = gaussianPyramid(base, 4);
    assert.equal(levels[0], base);
    for (let l = 1; l < 4; l++) {
      const expected = reduceReference(levels[l - 1]!);
      assert.equal(levels[l]!.width, expected.width);
      assert.equal(levels[l]!.height, expected.height);
      assertClose(levels[l]!.data, expected.data, `${w} x ${h} level ${l}`);
    }
  }
});

test('a weighted band adds weight x (fine - expand(coarse)), with half-size weights expanded, and weight x fine at the top', () => {
  assert.ok(Math.max(...SIZES.map(([, h]) => h)) > 2 * CHUNK_ROWS, 'a size spans several chunks of rows');
  for (const [w, h] of SIZES) {
    const fine = plane(w, h, w + 7 * h);
    const coarse = plane((w + 1) >> 1, (h + 1) >> 1, 3 * w + h);
    const sum = plane(w, h, w * h + 5);
    const expanded = expandReference(coarse, w, h);
    const full = plane(w, h, 11 * w + h);
    const add = (weight: Float32Array) => sum.data.map((s, p) => s + weight[p]! * (fine.data[p]! - expanded[p]!));
    const intoFull = sum.data.slice();
    addWeightedBand(intoFull, full, fine, coarse);
    assertClose(intoFull, add(full.data), `${w} x ${h}, full-size weights`);
    const half = plane((w + 1) >> 1, (h + 1) >> 1, w + 13 * h);
    const intoHalf = sum.data.slice();
    addWeightedBand(intoHalf, half, fine, coarse);
    assertClose(intoHalf, add(expandReference(half, w, h)), `${w} x ${h}, half-size weights`);
    const top = sum.data.slice();
    addWeightedBand(top, full, fine, null);
    assertClose(
      top,
      sum.data.map((s, p) => s + full.data[p]! * fine.data[p]!),
      `${w} x ${h}, top`,
    );
  }
});

test('collapsing a pyramid adds to each band the expansion of the collapsed band above, into the base', () => {
  for (const [w, h] of SIZES) {
    const bands = [plane(w, h, 1 + w), plane((w + 1) >> 1, (h + 1) >> 1, 2 + h), plane((((w + 1) >> 1) + 1) >> 1, (((h + 1) >> 1) + 1) >> 1, 3 + w * h)];
    const middle = bands[1]!.data.map((v, p) => v + expandReference(bands[2]!, bands[1]!.width, bands[1]!.height)[p]!);
    const expected = bands[0]!.data.map((v, p) => v + expandReference({ ...bands[1]!, data: middle }, w, h)[p]!);
    collapsePyramid(bands);
    assertClose(bands[0]!.data, expected, `${w} x ${h}`);
  }
});

test('the RGB rows of fused bands are luma plus expanded luma above, colour differences expanded and scaled by luma', () => {
  const to16 = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 65535);
  for (const [w, h] of SIZES.filter(([a, b]) => a >= 4 && b >= 4)) {
    const sums = emptyBands(w, h);
    const fill = (p: Plane, seed: number, scale: number, shift: number) => {
      p.data.set(plane(p.width, p.height, seed).data.map((v) => v * scale + shift));
    };
    fill(sums.y[0]!, w, 0.2, -0.1);
    fill(sums.y[1]!, h, 1, 0);
    fill(sums.cb[0]!, w + h, 0.6, -0.3);
    fill(sums.cr[0]!, w * h, 0.6, -0.3);
    const out = new Uint16Array(w * h * 3);
    // Two bands of rows, as the imaging threads convert them, the first ending on an odd row.
    const split = Math.max(1, h >> 1) | 1;
    toRgbRows(sums, out, 0, Math.min(h, split));
    toRgbRows(sums, out, Math.min(h, split), h);
    const up = expandReference(sums.y[1]!, w, h);
    const cb = expandReference(sums.cb[0]!, w, h);
    const cr = expandReference(sums.cr[0]!, w, h);
    for (let p = 0; p < w * h; p++) {
      const l = sums.y[0]!.data[p]! + up[p]!;
      const s = Math.max(0, l + 0.1);
      const r = l + cr[p]! * s;
      const b = l + cb[p]! * s;
      const g = (l - 0.299 * r - 0.114 * b) / 0.587;
      [r, g, b].forEach((v, c) => {
        assert.ok(Math.abs(out[3 * p + c]! - to16(v)) <= 1, `${w} x ${h}: pixel ${p} channel ${c} ${out[3 * p + c]} vs ${to16(v)}`);
      });
    }
  }
});
