import { sharedFloat32, sharedUint16 } from '../bands.js';
import { arena, reserve, toolKernels } from '../kernels.js';
import type { Image16 } from '../types.js';
import type { Plane } from './luma.js';
import { addWeightedBand, CHUNK_ROWS, collapsePyramid, expansionRows, gaussianPyramid, levelCount } from './pyramid.js';

/**
 * Sums over frames of weighted Laplacian bands, per level: luma from full size, the colour
 * differences (B - Y, R - Y) / (Y + CHROMA_LUMA_OFFSET) from half size (their first band is level 1).
 */
export interface BlendedBands {
  y: Plane[];
  cb: Plane[];
  cr: Plane[];
}

/** A frame at half size (the first pyramid level): 2 x 2 means of its pixels and of its luma. */
export interface HalfFrame {
  image: Image16;
  luma: Plane;
}

/** An empty half-size frame for a width x height one, in memory other imaging threads can fill. */
export function emptyHalfFrame(width: number, height: number): HalfFrame {
  const w2 = (width + 1) >> 1;
  const h2 = (height + 1) >> 1;
  return { image: { width: w2, height: h2, data: sharedUint16(w2 * h2 * 3) }, luma: { width: w2, height: h2, data: sharedFloat32(w2 * h2) } };
}

/** Fills `into` (from emptyHalfFrame) with the frame at half size (halfRows in the WebAssembly kernels, CHUNK_ROWS half rows at a time). */
export function halfFrame(image: Image16, luma: Plane, into: HalfFrame): void {
  const { width, height, data } = image;
  const w2 = into.luma.width;
  const h2 = into.luma.height;
  const k = toolKernels();
  const l = arena({ src: 12 * CHUNK_ROWS * width, luma: 8 * CHUNK_ROWS * width, rgb: 6 * CHUNK_ROWS * w2, halfLuma: 4 * CHUNK_ROWS * w2 });
  reserve(k, l.end);
  for (let by0 = 0; by0 < h2; by0 += CHUNK_ROWS) {
    const by1 = Math.min(h2, by0 + CHUNK_ROWS);
    const rows = Math.min(height, 2 * by1) - 2 * by0;
    new Uint16Array(k.memory.buffer, l.src, 3 * rows * width).set(data.subarray(3 * 2 * by0 * width, 3 * (2 * by0 + rows) * width));
    new Float32Array(k.memory.buffer, l.luma, rows * width).set(luma.data.subarray(2 * by0 * width, (2 * by0 + rows) * width));
    k.halfRows(l.src, l.luma, width, height, by0, by1, w2, l.rgb, l.halfLuma);
    into.image.data.set(new Uint16Array(k.memory.buffer, l.rgb, 3 * (by1 - by0) * w2), 3 * by0 * w2);
    into.luma.data.set(new Float32Array(k.memory.buffer, l.halfLuma, (by1 - by0) * w2), by0 * w2);
  }
}

/**
 * Colour is blended relative to luma: encoded colour differences grow with brightness (B - Y
 * of one colour is nearly twice as large two stops up), and fusion gives a region the luma
 * of a mix of frames that differs from any one frame's. Blending the differences themselves
 * put a frame's colour at another brightness, too saturated or too pale: on ten synthetic JPEG
 * brackets of the fitting side (photo x 6-stop ramp, -2/0/+2 EV, q90) the share of 4 x 4
 * blocks whose colour no blend of the frames shows (bench/metrics/spurious-chroma.ts) was 20.5 %
 * (enfuse 18.6 %, ours worse on 7 of 10), smooth patches along cloud and sky boundaries. Divided
 * by luma and multiplied back by the fused luma, it is 14.8 % (worse than enfuse on 1 of 10);
 * luma, and so MEF-SSIM, is unchanged. The offset keeps near-black pixels, whose colour is mostly
 * noise, from being amplified (0.02: 16.1 %, 0.2: 15.4 %, 0.4: 16.2 %).
 */
const CHROMA_LUMA_OFFSET = 0.1;

/**
 * Colour of a half-size frame relative to its luma, (B - Y) / (Y + CHROMA_LUMA_OFFSET) and
 * (R - Y) / (Y + CHROMA_LUMA_OFFSET), blended at half resolution: all that 4:2:0 JPEG outputs
 * keep anyway (chromaPixels in the WebAssembly kernels, CHUNK_ROWS rows at a time); into
 * `into` when it has the size.
 */
export function chromaOf(half: HalfFrame, into?: [Float32Array, Float32Array]): [Plane, Plane] {
  const { width, height, data } = half.image;
  const n = width * height;
  const [cb, cr] = into?.[0].length === n ? into : [new Float32Array(n), new Float32Array(n)];
  const chunk = CHUNK_ROWS * width;
  const k = toolKernels();
  const l = arena({ rgb: 6 * chunk, luma: 4 * chunk, cb: 4 * chunk, cr: 4 * chunk });
  reserve(k, l.end);
  for (let p0 = 0; p0 < n; p0 += chunk) {
    const p1 = Math.min(n, p0 + chunk);
    new Uint16Array(k.memory.buffer, l.rgb, 3 * (p1 - p0)).set(data.subarray(3 * p0, 3 * p1));
    new Float32Array(k.memory.buffer, l.luma, p1 - p0).set(half.luma.data.subarray(p0, p1));
    k.chromaPixels(l.rgb, l.luma, p1 - p0, CHROMA_LUMA_OFFSET, l.cb, l.cr);
    cb.set(new Float32Array(k.memory.buffer, l.cb, p1 - p0), p0);
    cr.set(new Float32Array(k.memory.buffer, l.cr, p1 - p0), p0);
  }
  return [
    { width, height, data: cb },
    { width, height, data: cr },
  ];
}

function zeroBands(width: number, height: number, from: number): Plane[] {
  const bands: Plane[] = [];
  for (let l = 0, w = width, h = height; l < levelCount(width, height); l++, w = (w + 1) >> 1, h = (h + 1) >> 1) {
    if (l >= from) bands.push({ width: w, height: h, data: sharedFloat32(w * h) });
  }
  return bands;
}

/** Zero bands for a width x height fusion, in memory other imaging threads can add into. */
export function emptyBands(width: number, height: number): BlendedBands {
  return { y: zeroBands(width, height, 0), cb: zeroBands(width, height, 1), cr: zeroBands(width, height, 1) };
}

/**
 * Planes blendFrame fills and drops again for every frame, kept for the next frame of the same
 * size on the same thread (a shared job's arguments reach each thread as a copy of its own):
 * for a 3-frame bracket two thirds fewer fresh planes, whose first touch and collection cost.
 */
export interface BlendScratch {
  weight: Float32Array[];
  luma: Float32Array[];
  chroma: Float32Array[][];
  planes?: [Float32Array, Float32Array];
}

export function blendScratch(): BlendScratch {
  return { weight: [], luma: [], chroma: [[], []] };
}

/**
 * Exposure fusion's heart for one frame: its Laplacian pyramid weighted by the Gaussian pyramid
 * of its normalised weights, added into sums. The weights come at half size, as the first
 * level of their pyramid; the finest band uses them expanded.
 */
export function blendFrame(luma: Plane, half: HalfFrame, weights: Float32Array, sums: BlendedBands, scratch = blendScratch()): void {
  const { width, height } = luma;
  const count = levelCount(width, height);
  // weight[l - 1] is level l.
  const weight = gaussianPyramid({ width: half.luma.width, height: half.luma.height, data: weights }, count - 1, scratch.weight);
  const pyramid = gaussianPyramid(luma, count, scratch.luma);
  for (let l = 0; l < count; l++) addWeightedBand(sums.y[l]!.data, weight[Math.max(0, l - 1)]!, pyramid[l]!, pyramid[l + 1] ?? null);
  const planes = chromaOf(half, scratch.planes);
  scratch.planes = [planes[0].data, planes[1].data];
  planes.forEach((plane, c) => {
    const chroma = gaussianPyramid(plane, count - 1, scratch.chroma[c]);
    const sum = c === 0 ? sums.cb : sums.cr;
    for (let l = 1; l < count; l++) addWeightedBand(sum[l - 1]!.data, weight[l - 1]!, chroma[l - 1]!, chroma[l] ?? null);
  });
}

/** Adds one set of bands into another, in place. */
export function addBands(into: BlendedBands, from: BlendedBands): void {
  for (const key of ['y', 'cb', 'cr'] as const) {
    into[key].forEach((band, l) => {
      const a = band.data;
      const b = from[key][l]!.data;
      for (let p = 0; p < a.length; p++) a[p] = a[p]! + b[p]!;
    });
  }
}

/**
 * Collapses the pyramid of one channel of blended bands into its base, in place: 0 luma (from
 * level 1: its finest band is added in toRgbRows, saving a pass over the full size), 1 B - Y, 2 R - Y.
 */
export function collapseChannel(sums: BlendedBands, channel: number): void {
  collapsePyramid(channel === 0 ? sums.y.slice(1) : channel === 1 ? sums.cb : sums.cr);
}

/**
 * Rows y0..y1 of the fused image, from collapsed bands (every channel through collapseChannel):
 * colour expanded back to full size and scaled by the fused luma, converted to RGB (fusedRgbRows
 * in the WebAssembly kernels).
 */
export function toRgbRows(sums: BlendedBands, out: Uint16Array, y0: number, y1: number): void {
  const fine = sums.y[0]!;
  const [coarse, cb, cr] = [sums.y[1]!, sums.cb[0]!, sums.cr[0]!];
  const { width } = fine;
  const { width: wc, height: hc } = coarse;
  const { row0, row1 } = expansionRows(y0, y1, hc);
  const halfSize = (row1 - row0) * wc;
  const rows = y1 - y0;
  const k = toolKernels();
  const row = 4 * (width + 16);
  const l = arena({ fine: 4 * rows * width, coarse: 4 * halfSize, cb: 4 * halfSize, cr: 4 * halfSize, vert: 4 * (wc + 16), yRow: row, cbRow: row, crRow: row, out: 6 * rows * width });
  reserve(k, l.end);
  const memory = k.memory.buffer;
  new Float32Array(memory, l.fine, rows * width).set(fine.data.subarray(y0 * width, y1 * width));
  new Float32Array(memory, l.coarse, halfSize).set(coarse.data.subarray(row0 * wc, row1 * wc));
  new Float32Array(memory, l.cb, halfSize).set(cb.data.subarray(row0 * wc, row1 * wc));
  new Float32Array(memory, l.cr, halfSize).set(cr.data.subarray(row0 * wc, row1 * wc));
  k.fusedRgbRows(l.fine, width, y0, y1, l.coarse, l.cb, l.cr, wc, hc, row0, CHROMA_LUMA_OFFSET, l.vert, l.yRow, l.cbRow, l.crRow, l.out);
  out.set(new Uint16Array(memory, l.out, 3 * rows * width), 3 * y0 * width);
}
