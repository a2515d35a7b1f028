/**
 * Small linear-light copies of an image for analysis (estimate) and for the low-resolution
 * layers of render: box averages in linear light, so a downscaled copy has the same mean
 * light as the original.
 */
import { srgb16ToLinearLut, srgb8ToLinearLut } from '../colour.js';
import type { RgbImage } from '../types.js';

/** Interleaved linear RGB in floats, not clipped. */
export interface LinearImage {
  width: number;
  height: number;
  data: Float32Array;
}

/** The block edge f of linearPreview for an image (the smallest integer that brings its long edge to at most maxEdge) and the preview's size. */
export function previewGrid(width: number, height: number, maxEdge: number): { f: number; width: number; height: number } {
  const f = Math.max(1, Math.ceil(Math.max(width, height) / maxEdge));
  return { f, width: Math.ceil(width / f), height: Math.ceil(height / f) };
}

/**
 * Averages blocks of f×f pixels (previewGrid); partial blocks at the right and bottom edges
 * average what they hold. Blocks of 4×4 and more are sampled on every other row and
 * column: the mean barely moves and the pass costs a quarter.
 */
export function linearPreview(image: RgbImage, maxEdge: number): LinearImage {
  const grid = previewGrid(image.width, image.height, maxEdge);
  const out = new Float32Array(grid.width * grid.height * 3);
  linearPreviewRows(image, maxEdge, out, 0, grid.height);
  return { width: grid.width, height: grid.height, data: out };
}

/** Rows oy0 to oy1 (exclusive) of linearPreview(image, maxEdge), into its data `out`: each row on its own, so rows can be shared out. */
export function linearPreviewRows(image: RgbImage, maxEdge: number, out: Float32Array, oy0: number, oy1: number): void {
  const { width, height, data } = image;
  const { f, width: w } = previewGrid(width, height, maxEdge);
  const step = f >= 4 ? 2 : 1;
  const lut = image.data instanceof Uint8Array ? srgb8ToLinearLut() : srgb16ToLinearLut();
  const acc = new Float64Array(w * 3);
  const stride = step * 3;
  for (let oy = oy0; oy < oy1; oy++) {
    acc.fill(0);
    const y0 = oy * f;
    const y1 = Math.min(height, y0 + f);
    for (let y = y0; y < y1; y += step) {
      const row = y * width * 3;
      for (let ox = 0; ox < w; ox++) {
        const end = row + Math.min(width, (ox + 1) * f) * 3;
        let r = 0;
        let g = 0;
        let b = 0;
        for (let i = row + ox * f * 3; i < end; i += stride) {
          r += lut[data[i]!]!;
          g += lut[data[i + 1]!]!;
          b += lut[data[i + 2]!]!;
        }
        acc[ox * 3] += r;
        acc[ox * 3 + 1] += g;
        acc[ox * 3 + 2] += b;
      }
    }
    const rows = Math.ceil((y1 - y0) / step);
    for (let ox = 0; ox < w; ox++) {
      const n = rows * Math.ceil((Math.min(width, (ox + 1) * f) - ox * f) / step);
      const o = (oy * w + ox) * 3;
      out[o] = acc[ox * 3]! / n;
      out[o + 1] = acc[ox * 3 + 1]! / n;
      out[o + 2] = acc[ox * 3 + 2]! / n;
    }
  }
}

/** Applies a 3×3 linear-RGB matrix to a linear image in place. */
export function transformLinear(image: LinearImage, m: readonly number[]): void {
  const d = image.data;
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = m as [number, number, number, number, number, number, number, number, number];
  for (let i = 0; i < d.length; i += 3) {
    const r = d[i]!;
    const g = d[i + 1]!;
    const b = d[i + 2]!;
    d[i] = m0 * r + m1 * g + m2 * b;
    d[i + 1] = m3 * r + m4 * g + m5 * b;
    d[i + 2] = m6 * r + m7 * g + m8 * b;
  }
}
