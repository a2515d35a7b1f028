import type { Image16 } from '../types.js';
import { lumaAt, type Plane } from './luma.js';

/** Reference bins of the brightness transfer between two exposures. */
export const BINS = 256;
/** Fine bins of the histograms the transfer is read from. */
const FINE_BINS = 4096;

/** Channel c of every step-th pixel of every step-th row, 0..1. */
export function sampledChannel(image: Image16, c: number, step: number): Plane {
  const { width, height, data } = image;
  const sw = Math.ceil(width / step);
  const sh = Math.ceil(height / step);
  const out = new Float32Array(sw * sh);
  const k = 1 / 65535;
  for (let y = 0; y < sh; y++) {
    for (let x = 0, j = y * step * width * 3 + c, o = y * sw; x < sw; x++, j += 3 * step, o++) out[o] = data[j]! * k;
  }
  return { width: sw, height: sh, data: out };
}

function histogram(plane: Plane, bins: number): Uint32Array {
  const hist = new Uint32Array(bins);
  const src = plane.data;
  for (let i = 0; i < src.length; i++) hist[Math.min(bins - 1, Math.floor(src[i]! * bins))]!++;
  return hist;
}

/**
 * For each reference bin of one channel, the range of values the other frame shows at the
 * same rank: exposure maps each channel monotonically, so matching cumulative histograms
 * predicts one frame from the other whatever the camera's tone curve, clipping included (a
 * clipped bin holds many pixels, so its range is wide).
 */
export function transferRanges(ref: Plane, other: Plane): { lo: Float32Array; hi: Float32Array } {
  const refHist = histogram(ref, BINS);
  const hist = histogram(other, FINE_BINS);
  const lo = new Float32Array(BINS);
  const hi = new Float32Array(BINS);
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
  return { lo, hi };
}

/** Pixels sampled along the long edge when reading a transfer: enough for smooth histograms. */
const SAMPLES_LONG_EDGE = 1000;

/** How to show the reference's content at another frame's exposure: per channel, a 16-bit lookup table. */
export interface ReferenceMapping {
  reference: Image16;
  tables: [Uint16Array, Uint16Array, Uint16Array];
}

/**
 * The mapping from the reference to the frame's exposure: for each value, the middle of its
 * transfer range, interpolated between bins. It tells what the frame would have recorded where
 * it saw nothing (edges a shift uncovered) or something else (a moving object).
 */
export function mappingFrom(reference: Image16, frame: Image16): ReferenceMapping {
  const step = Math.max(1, Math.round(Math.max(frame.width, frame.height) / SAMPLES_LONG_EDGE));
  const tables = [0, 1, 2].map((c) => {
    const { lo, hi } = transferRanges(sampledChannel(reference, c, step), sampledChannel(frame, c, step));
    const table = new Uint16Array(65536);
    for (let v = 0; v < 65536; v++) {
      const u = Math.min(BINS - 1, Math.max(0, (v / 65535) * BINS - 0.5));
      const b = Math.floor(u);
      const n = Math.min(BINS - 1, b + 1);
      const mid = (lo[b]! + hi[b]!) / 2;
      table[v] = Math.round(65535 * (mid + ((lo[n]! + hi[n]!) / 2 - mid) * (u - b)));
    }
    return table;
  });
  return { reference, tables: tables as [Uint16Array, Uint16Array, Uint16Array] };
}

/** Pixel p of the frame (and its luma) becomes keep x itself + (1 - keep) x the mapped reference. */
export function blendTowardReference(frame: { image: Image16; luma: Plane }, mapping: ReferenceMapping, p: number, keep: number): void {
  const out = frame.image.data;
  const ref = mapping.reference.data;
  const [r, g, b] = mapping.tables;
  const j = p * 3;
  out[j] = Math.round(keep * out[j]! + (1 - keep) * r[ref[j]!]!);
  out[j + 1] = Math.round(keep * out[j + 1]! + (1 - keep) * g[ref[j + 1]!]!);
  out[j + 2] = Math.round(keep * out[j + 2]! + (1 - keep) * b[ref[j + 2]!]!);
  frame.luma.data[p] = lumaAt(out, j);
}
