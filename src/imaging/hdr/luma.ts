import { arena, reserve, toolKernels } from '../kernels.js';
import type { Box, Image16 } from '../types.js';

/** Pixels per call of the luma kernel: its memory holds chunks of a frame, not whole ones. */
const LUMA_CHUNK = 1 << 16;

/** A single-channel float image, row-major. */
export interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

/** Rec. 601 luma, 0..1, of the 16-bit sRGB-encoded pixel at data[j..j+2]: brightness as a viewer judges it, cheap to compute. */
export function lumaAt(data: Uint16Array, j: number): number {
  return (0.299 * data[j]! + 0.587 * data[j + 1]! + 0.114 * data[j + 2]!) * (1 / 65535);
}

/** lumaAt of every pixel, as a plane. */
export function lumaOf(image: Image16): Plane {
  return lumaInto(image, new Float32Array(image.width * image.height));
}

/**
 * lumaOf into the given array, with the plane's mean (lumaPixels in the WebAssembly kernels: the
 * same values, optimised from a fresh process's first call; the mean costs no pass of its own).
 */
export function lumaInto(image: Image16, out: Float32Array): Plane & { mean: number } {
  const { width, height, data } = image;
  const k = toolKernels();
  const l = arena({ src: 6 * LUMA_CHUNK, out: 4 * LUMA_CHUNK });
  reserve(k, l.end);
  let sum = 0;
  for (let p0 = 0; p0 < out.length; p0 += LUMA_CHUNK) {
    const p1 = Math.min(out.length, p0 + LUMA_CHUNK);
    new Uint16Array(k.memory.buffer, l.src, 3 * (p1 - p0)).set(data.subarray(3 * p0, 3 * p1));
    sum += k.lumaPixels(l.src, p1 - p0, l.out, 0);
    out.set(new Float32Array(k.memory.buffer, l.out, p1 - p0), p0);
  }
  return { width, height, data: out, mean: sum / out.length };
}

/**
 * lumaInto, and the luma's blockMean by 2 into `half` in the same pass (each chunk of rows still
 * in the kernels' memory): the same planes and mean as the two apart (the mean summed in
 * lumaInto's chunks of LUMA_CHUNK pixels), without reading the luma back for its half.
 */
export function lumaAndHalf(image: Image16, out: Float32Array, half: Float32Array): { mean: number } {
  const { width, height, data } = image;
  const w2 = (width + 1) >> 1;
  const rows = Math.max(2, 2 * Math.floor(LUMA_CHUNK / (2 * width)));
  const k = toolKernels();
  const l = arena({ src: 6 * rows * width, out: 4 * rows * width, half: 2 * rows * w2 });
  reserve(k, l.end);
  let sum = 0;
  let partial = 0;
  for (let y0 = 0; y0 < height; y0 += rows) {
    const y1 = Math.min(height, y0 + rows);
    const p0 = y0 * width;
    const p1 = y1 * width;
    new Uint16Array(k.memory.buffer, l.src, 3 * (p1 - p0)).set(data.subarray(3 * p0, 3 * p1));
    for (let p = p0; p < p1; ) {
      const end = Math.min(p1, (Math.floor(p / LUMA_CHUNK) + 1) * LUMA_CHUNK);
      partial = k.lumaPixels(l.src + 6 * (p - p0), end - p, l.out + 4 * (p - p0), partial);
      p = end;
      if (p % LUMA_CHUNK === 0 || p === out.length) {
        sum += partial;
        partial = 0;
      }
    }
    out.set(new Float32Array(k.memory.buffer, l.out, p1 - p0), p0);
    const by0 = y0 >> 1;
    const by1 = (y1 + 1) >> 1;
    k.blockMeanRows(l.out, width, height, 2, by0, by1, l.half);
    half.set(new Float32Array(k.memory.buffer, l.half, (by1 - by0) * w2), by0 * w2);
  }
  return { mean: sum / out.length };
}

/** Output rows of blockMean per kernel call. */
const BLOCK_ROWS = 64;

/**
 * Mean of each factor x factor block (partial blocks at the right and bottom edges averaged over
 * what they hold; blockMeanRows in the WebAssembly kernels), into `out` when given (the result's size).
 */
export function blockMean(plane: Plane, factor: number, out?: Float32Array): Plane {
  if (factor === 1) return plane;
  const { width: w, height: h, data: src } = plane;
  const width = Math.ceil(w / factor);
  const height = Math.ceil(h / factor);
  out ??= new Float32Array(width * height);
  const k = toolKernels();
  const l = arena({ src: 4 * BLOCK_ROWS * factor * w, out: 4 * BLOCK_ROWS * width });
  reserve(k, l.end);
  for (let by0 = 0; by0 < height; by0 += BLOCK_ROWS) {
    const by1 = Math.min(height, by0 + BLOCK_ROWS);
    const rows = src.subarray(by0 * factor * w, Math.min(h, by1 * factor) * w);
    new Float32Array(k.memory.buffer, l.src, rows.length).set(rows);
    k.blockMeanRows(l.src, w, h, factor, by0, by1, l.out);
    out.set(new Float32Array(k.memory.buffer, l.out, (by1 - by0) * width), by0 * width);
  }
  return { width, height, data: out };
}

/** Pixels a quantile is read from at most; larger boxes are sampled on a regular grid. */
const QUANTILE_SAMPLES = 1 << 16;

/** Bins of the quantiles' histogram over 0..1. */
const QUANTILE_BINS = 4096;

/** A 4096-bin histogram of a box's 0..1 values (sampleHistogram in the WebAssembly kernels, over the sampled rows), and how many values it holds. */
export interface BoxHistogram {
  counts: Uint32Array;
  total: number;
}

export function histogramIn(plane: Plane, box: Box): BoxHistogram {
  const bins = QUANTILE_BINS;
  const step = Math.max(1, Math.ceil(Math.sqrt((box.width * box.height) / QUANTILE_SAMPLES)));
  const rows = Math.ceil(box.height / step);
  const k = toolKernels();
  const l = arena({ src: 4 * rows * box.width, hist: 16 * bins });
  reserve(k, l.end);
  const src = new Float32Array(k.memory.buffer, l.src, rows * box.width);
  for (let r = 0; r < rows; r++) {
    const from = (box.y + r * step) * plane.width + box.x;
    src.set(plane.data.subarray(from, from + box.width), r * box.width);
  }
  k.sampleHistogram(l.src, rows, box.width, step, bins, l.hist);
  return { counts: new Uint32Array(k.memory.buffer, l.hist, bins).slice(), total: rows * Math.ceil(box.width / step) };
}

/** The values below which the given fractions (ascending) of a histogram's values lie. */
export function quantilesOf<T extends readonly number[]>({ counts, total }: BoxHistogram, fractions: T): { [K in keyof T]: number } {
  const bins = counts.length;
  // One pass up the cumulative histogram serves every fraction.
  let b = 0;
  let seen = counts[0]!;
  return fractions.map((fraction) => {
    while (seen < fraction * total && b < bins - 1) seen += counts[++b]!;
    return seen >= fraction * total ? (b + 0.5) / bins : 1;
  }) as { [K in keyof T]: number };
}

/** Share of a histogram's values at or below `low` and at or above `high` (by bin centre). */
export function sharesOutside({ counts, total }: BoxHistogram, low: number, high: number): { below: number; above: number } {
  let below = 0;
  let above = 0;
  counts.forEach((count, b) => {
    const centre = (b + 0.5) / counts.length;
    if (centre <= low) below += count;
    if (centre >= high) above += count;
  });
  return { below: below / total, above: above / total };
}

/** The values below which the given fractions (ascending) of the box's pixels lie, from a 4096-bin histogram of 0..1 values. */
export function quantilesIn<T extends readonly number[]>(plane: Plane, box: Box, fractions: T): { [K in keyof T]: number } {
  return quantilesOf(histogramIn(plane, box), fractions);
}
