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

/**
 * Colour differences B - Y and R - Y of an sRGB-encoded image as 2 x 2 means (half size, the
 * first pyramid level): blending is linear, so fusing Y, B - Y, R - Y equals fusing R, G, B,
 * and chroma blended at half resolution is all that 4:2:0 JPEG outputs keep anyway.
 */
function halfChroma(image: Image16, luma: Plane): [Plane, Plane] {
  const { width, height, data } = image;
  const y = luma.data;
  const w2 = (width + 1) >> 1;
  const h2 = (height + 1) >> 1;
  const cb = new Float32Array(w2 * h2);
  const cr = new Float32Array(w2 * h2);
  const k = 1 / 65535;
  for (let by = 0; by < h2; by++) {
    // An odd last row or column pairs with itself, which averages the same pixels.
    const r0 = 2 * by * width;
    const r1 = Math.min(height - 1, 2 * by + 1) * width;
    for (let bx = 0, o = by * w2; bx < w2; bx++, o++) {
      const a = r0 + 2 * bx;
      const b = a + (2 * bx + 1 < width ? 1 : 0);
      const c = r1 + 2 * bx;
      const d = c + (b - a);
      const l = y[a]! + y[b]! + y[c]! + y[d]!;
      cb[o] = ((data[3 * a + 2]! + data[3 * b + 2]! + data[3 * c + 2]! + data[3 * d + 2]!) * k - l) * 0.25;
      cr[o] = ((data[3 * a]! + data[3 * b]! + data[3 * c]! + data[3 * d]!) * k - l) * 0.25;
    }
  }
  return [
    { width: w2, height: h2, data: cb },
    { width: w2, height: h2, data: cr },
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

function zeroBands(width: number, height: number, from: number): Plane[] {
  const bands: Plane[] = [];
  for (let l = 0, w = width, h = height; l < levelCount(width, height); l++, w = (w + 1) >> 1, h = (h + 1) >> 1) {
    if (l >= from) bands.push({ width: w, height: h, data: new Float32Array(w * h) });
  }
  return bands;
}

/** Exposure fusion's heart: each frame's Laplacian pyramid weighted by the Gaussian pyramid of its (normalised) weights, summed over frames. */
export function blendFrames(frames: Image16[], lumas: Plane[], weights: Float32Array[]): BlendedBands {
  const { width, height } = frames[0]!;
  const count = levelCount(width, height);
  const sums: BlendedBands = { y: zeroBands(width, height, 0), cb: zeroBands(width, height, 1), cr: zeroBands(width, height, 1) };
  for (let i = 0; i < frames.length; i++) {
    const weight = gaussianPyramid({ width, height, data: weights[i]! }, count);
    const luma = gaussianPyramid(lumas[i]!, count);
    for (let l = 0; l < count; l++) addBand(sums.y[l]!.data, weight[l]!, luma[l]!.data, luma[l + 1] ?? null);
    halfChroma(frames[i]!, lumas[i]!).forEach((half, c) => {
      const chroma = gaussianPyramid(half, count - 1);
      const sum = c === 0 ? sums.cb : sums.cr;
      for (let l = 1; l < count; l++) addBand(sum[l - 1]!.data, weight[l]!, chroma[l - 1]!.data, chroma[l] ?? null);
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
