import type { Image16 } from '../types.js';
import type { Plane } from './luma.js';
import { expandRow, gaussianPyramid, levelCount } from './pyramid.js';
import { qualityWeights } from './weights.js';

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
  for (let row = 0; row < height; row++) {
    const o = (row >> 1) * w2;
    for (let x = 0, p = row * width, j = p * 3; x < width; x++, p++, j += 3) {
      const l = y[p]!;
      cb[o + (x >> 1)] = cb[o + (x >> 1)]! + data[j + 2]! * k - l;
      cr[o + (x >> 1)] = cr[o + (x >> 1)]! + data[j]! * k - l;
    }
  }
  // Blocks on an odd last row or column hold fewer pixels.
  for (let by = 0; by < h2; by++) {
    const rows = Math.min(2, height - 2 * by);
    for (let bx = 0, o = by * w2; bx < w2; bx++, o++) {
      const n = rows * Math.min(2, width - 2 * bx);
      cb[o] = cb[o]! / n;
      cr[o] = cr[o]! / n;
    }
  }
  return [
    { width: w2, height: h2, data: cb },
    { width: w2, height: h2, data: cr },
  ];
}

function to16(v: number): number {
  return v <= 0 ? 0 : v >= 1 ? 65535 : v * 65535 + 0.5;
}

/** Back to interleaved RGB from full-size luma and half-size B - Y, R - Y (expanded row by row). */
function toImage16(y: Plane, cb: Plane, cr: Plane): Image16 {
  const { width, height } = y;
  const data = new Uint16Array(width * height * 3);
  const vertical = new Float32Array(cb.width + 2);
  const cbRow = new Float32Array(width);
  const crRow = new Float32Array(width);
  for (let row = 0; row < height; row++) {
    expandRow(cb, row, width, vertical, cbRow);
    expandRow(cr, row, width, vertical, crRow);
    for (let x = 0, p = row * width, j = p * 3; x < width; x++, p++, j += 3) {
      const l = y.data[p]!;
      const r = l + crRow[x]!;
      const b = l + cbRow[x]!;
      data[j] = to16(r);
      data[j + 1] = to16((l - 0.299 * r - 0.114 * b) / 0.587);
      data[j + 2] = to16(b);
    }
  }
  return { width, height, data };
}

/** Per pixel, each frame's share of the total, in place. */
function normalise(weights: Float32Array[]): void {
  const n = weights[0]!.length;
  const sum = new Float32Array(n);
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    for (let p = 0; p < n; p++) sum[p] = sum[p]! + w[p]!;
  }
  for (let p = 0; p < n; p++) sum[p] = sum[p]! > 0 ? 1 / sum[p]! : 0;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    for (let p = 0; p < n; p++) w[p] = w[p]! * sum[p]!;
  }
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

/**
 * Exposure fusion (Mertens, Kautz & Van Reeth 2007) of aligned frames of one size: quality
 * weights, normalised per pixel; then each
 * frame's Laplacian pyramid is blended with its weights' Gaussian pyramid, for luma and two
 * colour differences, and the sums collapsed. Blending band by band hides the seams a per-pixel blend would show.
 */
export function fuseExposures(frames: Image16[], lumas: Plane[]): Image16 {
  const { width, height } = frames[0]!;
  const weights = frames.map((frame, i) => {
    const w = new Float32Array(width * height);
    qualityWeights(frame, lumas[i]!, w);
    return w;
  });
  normalise(weights);

  const count = levelCount(width, height);
  const pyramid = (from: number): Plane[] => {
    const bands: Plane[] = [];
    for (let l = 0, w = width, h = height; l < count; l++, w = (w + 1) >> 1, h = (h + 1) >> 1) {
      if (l >= from) bands.push({ width: w, height: h, data: new Float32Array(w * h) });
    }
    return bands;
  };
  // Blended Laplacian pyramids: luma from full size, colour differences from half size.
  const sumY = pyramid(0);
  const sumChroma = [pyramid(1), pyramid(1)];
  for (let i = 0; i < frames.length; i++) {
    const weight = gaussianPyramid({ width, height, data: weights[i]! }, count);
    const luma = gaussianPyramid(lumas[i]!, count);
    for (let l = 0; l < count; l++) addBand(sumY[l]!.data, weight[l]!, luma[l]!.data, luma[l + 1] ?? null);
    halfChroma(frames[i]!, lumas[i]!).forEach((half, c) => {
      const chroma = gaussianPyramid(half, count - 1);
      for (let l = 1; l < count; l++) addBand(sumChroma[c]![l - 1]!.data, weight[l]!, chroma[l - 1]!.data, chroma[l] ?? null);
    });
  }
  const y = { width, height, data: collapse(sumY) };
  const [cb, cr] = sumChroma.map((bands) => ({ ...bands[0]!, data: collapse(bands) }));
  return toImage16(y, cb!, cr!);
}
