/**
 * Small linear-light copies of an image for analysis (estimate) and for the low-resolution
 * layers of render: box averages in linear light, so a downscaled copy has the same mean
 * light as the original.
 */
import { srgb16ToLinearLut, srgb8ToLinearLut } from '../colour.js';
import { arena, reserve, toolKernels } from '../kernels.js';
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

/**
 * Rows oy0 to oy1 (exclusive) of linearPreview(image, maxEdge), into its data `out`: each row
 * on its own, so rows can be shared out. In the WebAssembly kernel (kernels/tools.ts
 * previewRow, the same sums in the same order as the JavaScript it replaced), each preview
 * row from a copy of the image rows its blocks sample.
 */
export function linearPreviewRows(image: RgbImage, maxEdge: number, out: Float32Array, oy0: number, oy1: number): void {
  const { width, height, data } = image;
  const { f, width: w } = previewGrid(width, height, maxEdge);
  const step = f >= 4 ? 2 : 1;
  const eight = data instanceof Uint8Array;
  const lut = eight ? srgb8ToLinearLut() : srgb16ToLinearLut();
  const rowSamples = width * 3;
  const k = toolKernels();
  const l = arena({ lut: lut.length * 4, acc: w * 24, out: w * 12, src: Math.ceil(f / step) * rowSamples * data.BYTES_PER_ELEMENT });
  reserve(k, l.end);
  new Float32Array(k.memory.buffer, l.lut, lut.length).set(lut);
  const src = eight ? new Uint8Array(k.memory.buffer, l.src) : new Uint16Array(k.memory.buffer, l.src);
  const row = new Float32Array(k.memory.buffer, l.out, w * 3);
  for (let oy = oy0; oy < oy1; oy++) {
    const y0 = oy * f;
    const y1 = Math.min(height, y0 + f);
    let rows = 0;
    for (let y = y0; y < y1; y += step) src.set(data.subarray(y * rowSamples, (y + 1) * rowSamples), rows++ * rowSamples);
    k.previewRow(l.src, eight ? 8 : 16, rows, width, f, step, w, l.lut, l.acc, l.out);
    out.set(row, oy * w * 3);
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
