import { arena, reserve, toolKernels } from '../kernels.js';
import type { Image16 } from '../types.js';
import { lumaAt, type Plane } from './luma.js';

/** Reference bins of the brightness transfer between two exposures. */
export const BINS = 256;
/** Fine bins of the histograms the transfer is read from. */
const FINE_BINS = 4096;

/**
 * Pixels sampled along the long edge for transfers and ghost detection, at least: two per
 * ghost block (deghost.ts), so blocks of 5 px at a 3000 px output, and plenty for histograms.
 */
const SAMPLES_LONG_EDGE = 640;

/** Every step-th pixel of every step-th row, per channel, 0..1. */
export type Samples = [Plane, Plane, Plane];

/** The sampling step for frames of this size. */
export function sampleStep(width: number, height: number): number {
  return Math.max(1, Math.floor(Math.max(width, height) / SAMPLES_LONG_EDGE));
}

/** Sampled rows per call of sampleRows: the kernels' memory holds chunks of a frame, not whole ones. */
const SAMPLE_ROWS = 32;

/** The frame's samples at the given step (see sampleStep); sampleRows in the WebAssembly kernels. */
export function sampleFrame(image: Image16, step: number): Samples {
  const { width, height, data } = image;
  const sw = Math.ceil(width / step);
  const sh = Math.ceil(height / step);
  const planes = [0, 1, 2].map(() => new Float32Array(sw * sh)) as [Float32Array, Float32Array, Float32Array];
  const k = toolKernels();
  const chunk = 4 * SAMPLE_ROWS * sw;
  const l = arena({ src: 6 * SAMPLE_ROWS * width, r: chunk, g: chunk, b: chunk });
  reserve(k, l.end);
  const rowLength = 3 * width;
  for (let y0 = 0; y0 < sh; y0 += SAMPLE_ROWS) {
    const rows = Math.min(sh - y0, SAMPLE_ROWS);
    const src = new Uint16Array(k.memory.buffer, l.src, rows * rowLength);
    for (let y = 0; y < rows; y++) src.set(data.subarray((y0 + y) * step * rowLength, ((y0 + y) * step + 1) * rowLength), y * rowLength);
    k.sampleRows(l.src, width, step, sw, rows, l.r, l.g, l.b);
    [l.r, l.g, l.b].forEach((at, c) => {
      planes[c]!.set(new Float32Array(k.memory.buffer, at, rows * sw), y0 * sw);
    });
  }
  return planes.map((plane) => ({ width: sw, height: sh, data: plane })) as Samples;
}

/** Histogram over 0..1 of a plane's values, the last bin taking 1 (sampleHistogram in the WebAssembly kernels, its hist 4 x bins of scratch). */
function histogram(plane: Plane, bins: number): Uint32Array {
  const k = toolKernels();
  const l = arena({ src: 4 * plane.data.length, hist: 16 * bins });
  reserve(k, l.end);
  new Float32Array(k.memory.buffer, l.src, plane.data.length).set(plane.data);
  k.sampleHistogram(l.src, 1, plane.data.length, 1, bins, l.hist);
  return new Uint32Array(k.memory.buffer, l.hist, bins).slice();
}

/** Reference sample planes' histograms, per thread: a merge compares every frame with the same reference samples (never changed once taken). */
const referenceHistograms = new WeakMap<Float32Array, Uint32Array>();

function referenceHistogram(ref: Plane): Uint32Array {
  let hist = referenceHistograms.get(ref.data);
  if (!hist) {
    hist = histogram(ref, BINS);
    referenceHistograms.set(ref.data, hist);
  }
  return hist;
}

/**
 * For each reference bin of one channel, the range of values the other frame shows at the
 * same rank: exposure maps each channel monotonically, so matching cumulative histograms
 * predicts one frame from the other whatever the camera's tone curve, clipping included (a
 * clipped bin holds many pixels, so its range is wide).
 */
function transferRanges(ref: Plane, other: Plane): { lo: Float32Array; hi: Float32Array } {
  const refHist = referenceHistogram(ref);
  const hist = histogram(other, FINE_BINS);
  // One entry more than bins, repeating the last, so that a value of exactly 1 needs no clamp.
  const lo = new Float32Array(BINS + 1);
  const hi = new Float32Array(BINS + 1);
  let bin = 0;
  let before = 0;
  const valueAt = (rank: number): number => {
    while (bin < FINE_BINS - 1 && before + hist[bin]! < rank) before += hist[bin++]!;
    const inBin = hist[bin]! > 0 ? Math.min(1, Math.max(0, (rank - before) / hist[bin]!)) : 0;
    return (bin + inBin) / FINE_BINS;
  };
  let rank = 0;
  for (let b = 0; b < BINS; b++) {
    lo[b] = valueAt(rank);
    rank += refHist[b]!;
    hi[b] = valueAt(rank);
  }
  lo[BINS] = lo[BINS - 1]!;
  hi[BINS] = hi[BINS - 1]!;
  return { lo, hi };
}

/** Lookup tables are indexed by the top 12 bits of a 16-bit value: finer than the transfer's bins, and quick to build. */
const TABLE_SHIFT = 4;

/**
 * The brightness transfer from the reference to another frame, per channel: for each
 * reference bin the range of values the frame shows (ghost detection), and a lookup table of
 * the middle of those ranges, interpolated between bins, which shows the reference's content
 * at the frame's exposure (for edges a shift uncovered, or a moving object).
 */
export interface Transfer {
  lo: [Float32Array, Float32Array, Float32Array];
  hi: [Float32Array, Float32Array, Float32Array];
  tables: [Uint16Array, Uint16Array, Uint16Array];
}

export function transferBetween(reference: Samples, frame: Samples): Transfer {
  const ranges = reference.map((ref, c) => transferRanges(ref, frame[c]!));
  const tables = ranges.map(({ lo, hi }) => {
    const table = new Uint16Array(65536 >> TABLE_SHIFT);
    for (let i = 0; i < table.length; i++) {
      const u = Math.min(BINS - 1, Math.max(0, ((i + 0.5) / table.length) * BINS - 0.5));
      const b = Math.floor(u);
      const mid = (lo[b]! + hi[b]!) / 2;
      table[i] = Math.round(65535 * (mid + ((lo[b + 1]! + hi[b + 1]!) / 2 - mid) * (u - b)));
    }
    return table;
  });
  return {
    lo: ranges.map((r) => r.lo) as Transfer['lo'],
    hi: ranges.map((r) => r.hi) as Transfer['hi'],
    tables: tables as Transfer['tables'],
  };
}

/** Pixel p of the frame (and its luma) becomes keep x itself + (1 - keep) x the reference's pixel through the transfer. */
export function blendTowardReference(frame: { image: Image16; luma: Plane }, reference: Image16, transfer: Transfer, p: number, keep: number): void {
  const out = frame.image.data;
  const ref = reference.data;
  const [r, g, b] = transfer.tables;
  const j = p * 3;
  out[j] = Math.round(keep * out[j]! + (1 - keep) * r[ref[j]! >> TABLE_SHIFT]!);
  out[j + 1] = Math.round(keep * out[j + 1]! + (1 - keep) * g[ref[j + 1]! >> TABLE_SHIFT]!);
  out[j + 2] = Math.round(keep * out[j + 2]! + (1 - keep) * b[ref[j + 2]! >> TABLE_SHIFT]!);
  frame.luma.data[p] = lumaAt(out, j);
}
