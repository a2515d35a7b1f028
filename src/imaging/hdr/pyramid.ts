import type { Plane } from './luma.js';

/**
 * Burt & Adelson pyramids over single-channel float planes (colour images are blended one
 * plane per channel), with the 5-tap binomial kernel [1 4 6 4 1]/16. Each pass filters
 * vertically into one row, then horizontally, so a level costs one read of its source.
 */

/** Mirror at the edges without repeating the edge pixel, clamped for planes under 3 px. */
function reflect(i: number, n: number): number {
  const r = i < 0 ? -i : i >= n ? 2 * n - 2 - i : i;
  return Math.min(n - 1, Math.max(0, r));
}

/** Blur with the binomial kernel and keep every second pixel and row: the next Gaussian level. */
function reduce(src: Plane): Plane {
  const { width, height, data } = src;
  const w2 = (width + 1) >> 1;
  const h2 = (height + 1) >> 1;
  const out = new Float32Array(w2 * h2);
  // The vertically filtered row, padded by two mirrored pixels on each side.
  const row = new Float32Array(width + 4);
  const l2 = reflect(-2, width) + 2;
  const l1 = reflect(-1, width) + 2;
  const r1 = reflect(width, width) + 2;
  const r2 = reflect(width + 1, width) + 2;
  for (let y2 = 0; y2 < h2; y2++) {
    const y = 2 * y2;
    const a = reflect(y - 2, height) * width;
    const b = reflect(y - 1, height) * width;
    const m = y * width;
    const d = reflect(y + 1, height) * width;
    const e = reflect(y + 2, height) * width;
    for (let i = 0; i < width; i++) {
      row[i + 2] = (data[a + i]! + data[e + i]! + 4 * (data[b + i]! + data[d + i]!) + 6 * data[m + i]!) * 0.0625;
    }
    row[0] = row[l2]!;
    row[1] = row[l1]!;
    row[width + 2] = row[r1]!;
    row[width + 3] = row[r2]!;
    const o = y2 * w2;
    for (let x2 = 0, p = 2; x2 < w2; x2++, p += 2) {
      out[o + x2] = (row[p - 2]! + row[p + 2]! + 4 * (row[p - 1]! + row[p + 1]!) + 6 * row[p]!) * 0.0625;
    }
  }
  return { width: w2, height: h2, data: out };
}

/**
 * Row y of the coarse level upsampled to the finer level's width, with the same kernel:
 * even outputs take (1, 6, 1)/8 of their coarse neighbours, odd ones (1, 1)/2, in each
 * direction; coarse edges repeat (reconstruction is exact whatever the edge rule, as long as
 * one rule is used throughout). `vertical` is scratch of coarse width + 2.
 */
export function expandRow(coarse: Plane, y: number, width: number, vertical: Float32Array, out: Float32Array): void {
  const { width: wc, height: hc, data } = coarse;
  const j = y >> 1;
  const m = j * wc;
  const n = Math.min(hc - 1, j + 1) * wc;
  if ((y & 1) === 0) {
    const p = Math.max(0, j - 1) * wc;
    for (let i = 0; i < wc; i++) vertical[i + 1] = (data[p + i]! + data[n + i]! + 6 * data[m + i]!) * 0.125;
  } else {
    for (let i = 0; i < wc; i++) vertical[i + 1] = (data[m + i]! + data[n + i]!) * 0.5;
  }
  vertical[0] = vertical[1]!;
  vertical[wc + 1] = vertical[wc]!;
  const pairs = width >> 1;
  for (let i = 0; i < pairs; i++) {
    const c = vertical[i + 1]!;
    const next = vertical[i + 2]!;
    out[2 * i] = (vertical[i]! + next + 6 * c) * 0.125;
    out[2 * i + 1] = (c + next) * 0.5;
  }
  if (width & 1) out[width - 1] = (vertical[pairs]! + vertical[pairs + 2]! + 6 * vertical[pairs + 1]!) * 0.125;
}

/** Levels 0 (the base itself) to count - 1, each half the size of the one before. */
export function gaussianPyramid(base: Plane, count: number): Plane[] {
  const levels = [base];
  while (levels.length < count) levels.push(reduce(levels[levels.length - 1]!));
  return levels;
}

/** Number of levels that takes the short side down to 2-3 px, as Mertens et al. do. */
export function levelCount(width: number, height: number): number {
  return Math.max(1, Math.floor(Math.log2(Math.min(width, height))));
}
