import type { Image16 } from '../types.js';
import type { Plane } from './luma.js';
import { expandRow, gaussianPyramid, levelCount } from './pyramid.js';

/**
 * Sums over frames of weighted Laplacian bands, per level: luma from full size, the colour
 * differences B - Y and R - Y from half size (their first band is level 1).
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

export function halfFrame(image: Image16, luma: Plane): HalfFrame {
  const { width, height, data } = image;
  const y = luma.data;
  const w2 = (width + 1) >> 1;
  const h2 = (height + 1) >> 1;
  const rgb = new Uint16Array(w2 * h2 * 3);
  const l2 = new Float32Array(w2 * h2);
  for (let by = 0; by < h2; by++) {
    // An odd last row or column pairs with itself, which averages the same pixels.
    const r0 = 2 * by * width;
    const r1 = Math.min(height - 1, 2 * by + 1) * width;
    for (let bx = 0, o = by * w2; bx < w2; bx++, o++) {
      const a = r0 + 2 * bx;
      const b = a + (2 * bx + 1 < width ? 1 : 0);
      const c = r1 + 2 * bx;
      const d = c + (b - a);
      l2[o] = (y[a]! + y[b]! + y[c]! + y[d]!) * 0.25;
      for (let k = 0; k < 3; k++) rgb[o * 3 + k] = (data[3 * a + k]! + data[3 * b + k]! + data[3 * c + k]! + data[3 * d + k]! + 2) >> 2;
    }
  }
  return { image: { width: w2, height: h2, data: rgb }, luma: { width: w2, height: h2, data: l2 } };
}

/**
 * Colour differences B - Y and R - Y of a half-size frame: blending is linear, so fusing Y,
 * B - Y, R - Y equals fusing R, G, B, and chroma blended at half resolution is all that 4:2:0
 * JPEG outputs keep anyway.
 */
function chromaOf(half: HalfFrame): [Plane, Plane] {
  const { width, height, data } = half.image;
  const y = half.luma.data;
  const cb = new Float32Array(width * height);
  const cr = new Float32Array(width * height);
  const k = 1 / 65535;
  for (let p = 0, j = 0; p < cb.length; p++, j += 3) {
    cb[p] = data[j + 2]! * k - y[p]!;
    cr[p] = data[j]! * k - y[p]!;
  }
  return [
    { width, height, data: cb },
    { width, height, data: cr },
  ];
}

/**
 * Adds weight x (fine - expand(coarse)), the weighted Laplacian band, into sum; without a
 * coarser level (the top of the pyramid), weight x fine. Row by row, so the expansion stays in cache.
 */
function addBand(sum: Float32Array, weight: Plane, fine: Float32Array, coarse: Plane | null): void {
  const { width, height } = weight;
  const w = weight.data;
  if (!coarse) {
    for (let p = 0; p < sum.length; p++) sum[p] = sum[p]! + w[p]! * fine[p]!;
    return;
  }
  const vertical = new Float32Array(coarse.width + 2);
  const row = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    expandRow(coarse, y, width, vertical, row);
    for (let x = 0, p = y * width; x < width; x++, p++) sum[p] = sum[p]! + w[p]! * (fine[p]! - row[x]!);
  }
}

/**
 * The finest band, with weights given at half size: adds expand(weight) x (fine - expand(coarse))
 * into sum, row by row.
 */
function addFinestBand(sum: Float32Array, weight: Plane, fine: Plane, coarse: Plane): void {
  const { width, height } = fine;
  const vertical = new Float32Array(Math.max(coarse.width, weight.width) + 2);
  const row = new Float32Array(width);
  const w = new Float32Array(width);
  for (let y = 0; y < height; y++) {
    expandRow(coarse, y, width, vertical, row);
    expandRow(weight, y, width, vertical, w);
    for (let x = 0, p = y * width; x < width; x++, p++) sum[p] = sum[p]! + w[x]! * (fine.data[p]! - row[x]!);
  }
}

function zeroBands(width: number, height: number, from: number): Plane[] {
  const bands: Plane[] = [];
  for (let l = 0, w = width, h = height; l < levelCount(width, height); l++, w = (w + 1) >> 1, h = (h + 1) >> 1) {
    if (l >= from) bands.push({ width: w, height: h, data: new Float32Array(w * h) });
  }
  return bands;
}

/**
 * Exposure fusion's heart: each frame's Laplacian pyramid weighted by the Gaussian pyramid of
 * its normalised weights, summed over frames. The weights come at half size, as the first level
 * of their pyramid; the finest band uses them expanded.
 */
export function blendFrames(lumas: Plane[], halves: HalfFrame[], weights: Float32Array[]): BlendedBands {
  const { width, height } = lumas[0]!;
  const count = levelCount(width, height);
  const sums: BlendedBands = { y: zeroBands(width, height, 0), cb: zeroBands(width, height, 1), cr: zeroBands(width, height, 1) };
  for (let i = 0; i < lumas.length; i++) {
    const half = halves[i]!;
    // weight[l - 1] is level l.
    const weight = gaussianPyramid({ width: half.luma.width, height: half.luma.height, data: weights[i]! }, count - 1);
    const luma = gaussianPyramid(lumas[i]!, count);
    addFinestBand(sums.y[0]!.data, weight[0]!, luma[0]!, luma[1]!);
    for (let l = 1; l < count; l++) addBand(sums.y[l]!.data, weight[l - 1]!, luma[l]!.data, luma[l + 1] ?? null);
    chromaOf(half).forEach((plane, c) => {
      const chroma = gaussianPyramid(plane, count - 1);
      const sum = c === 0 ? sums.cb : sums.cr;
      for (let l = 1; l < count; l++) addBand(sum[l - 1]!.data, weight[l - 1]!, chroma[l - 1]!.data, chroma[l] ?? null);
    });
  }
  return sums;
}

/** Collapses a Laplacian pyramid in place: each band plus the expansion of the (collapsed) band above; returns the base. */
function collapse(bands: Plane[]): Float32Array {
  for (let l = bands.length - 2; l >= 0; l--) {
    const { width, height, data } = bands[l]!;
    const coarse = bands[l + 1]!;
    const vertical = new Float32Array(coarse.width + 2);
    const row = new Float32Array(width);
    for (let y = 0; y < height; y++) {
      expandRow(coarse, y, width, vertical, row);
      for (let x = 0, p = y * width; x < width; x++, p++) data[p] = data[p]! + row[x]!;
    }
  }
  return bands[0]!.data;
}

function to16(v: number): number {
  return v <= 0 ? 0 : v >= 1 ? 65535 : v * 65535 + 0.5;
}

/** The fused image: bands collapsed, colour expanded back to full size, converted to RGB. */
export function collapseToImage(sums: BlendedBands): Image16 {
  // Luma's finest band is added in the conversion loop below, saving a pass over the full size.
  const y0 = sums.y[0]!;
  const y1 = { ...sums.y[1]!, data: collapse(sums.y.slice(1)) };
  const cb = { ...sums.cb[0]!, data: collapse(sums.cb) };
  const cr = { ...sums.cr[0]!, data: collapse(sums.cr) };
  const { width, height } = y0;
  const data = new Uint16Array(width * height * 3);
  const vertical = new Float32Array(y1.width + 2);
  const yRow = new Float32Array(width);
  const cbRow = new Float32Array(width);
  const crRow = new Float32Array(width);
  for (let row = 0; row < height; row++) {
    expandRow(y1, row, width, vertical, yRow);
    expandRow(cb, row, width, vertical, cbRow);
    expandRow(cr, row, width, vertical, crRow);
    for (let x = 0, p = row * width, j = p * 3; x < width; x++, p++, j += 3) {
      const l = y0.data[p]! + yRow[x]!;
      const r = l + crRow[x]!;
      const b = l + cbRow[x]!;
      data[j] = to16(r);
      data[j + 1] = to16((l - 0.299 * r - 0.114 * b) * (1 / 0.587));
      data[j + 2] = to16(b);
    }
  }
  return { width, height, data };
}
