import { linearToLab, srgbToLinear } from '../colour.js';
import type { Image16 } from '../types.js';
import { downscaledRgb } from './grey.js';

/** Where the eye goes, at analysis size: non-negative, summing to 1. */
export interface SaliencyMap {
  width: number;
  height: number;
  data: Float32Array;
}

const MAX_EDGE = 256;

/**
 * A saliency map from two cues, each normalised to its maximum and added: colour
 * contrast (distance of the slightly blurred CIELAB colour from the photo's mean colour,
 * the frequency-tuned measure of Achanta et al. 2009) and detail (local gradient energy
 * of lightness), less their median (the background level). Subjects stand out from the
 * mean colour or carry detail; skies, walls and out-of-focus backgrounds carry neither.
 */
export function saliencyMap(image: Image16): SaliencyMap {
  const rgb = downscaledRgb(image, MAX_EDGE);
  const { width: w, height: h } = rgb;
  const n = w * h;
  const lab = [new Float32Array(n), new Float32Array(n), new Float32Array(n)] as const;
  const pixel = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    linearToLab(srgbToLinear(rgb.data[i * 3]!), srgbToLinear(rgb.data[i * 3 + 1]!), srgbToLinear(rgb.data[i * 3 + 2]!), pixel);
    lab[0][i] = pixel[0]!;
    lab[1][i] = pixel[1]!;
    lab[2][i] = pixel[2]!;
  }
  const blurRadius = Math.max(1, Math.round(Math.max(w, h) / 128));
  const mean = [0, 0, 0];
  for (let c = 0; c < 3; c++) {
    gaussianish(lab[c], w, h, blurRadius);
    for (let i = 0; i < n; i++) mean[c]! += lab[c][i]!;
    mean[c]! /= n;
  }
  const contrast = new Float32Array(n);
  for (let i = 0; i < n; i++) contrast[i] = Math.hypot(lab[0][i]! - mean[0]!, lab[1][i]! - mean[1]!, lab[2][i]! - mean[2]!);

  const detail = new Float32Array(n);
  const l = lab[0];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const gx = l[y * w + Math.min(w - 1, x + 1)]! - l[y * w + Math.max(0, x - 1)]!;
      const gy = l[Math.min(h - 1, y + 1) * w + x]! - l[Math.max(0, y - 1) * w + x]!;
      detail[y * w + x] = Math.hypot(gx, gy);
    }
  }
  // Detail counts where it is dense, not along single edges.
  gaussianish(detail, w, h, Math.max(2, Math.round(Math.max(w, h) / 48)));

  const maxContrast = max(contrast) || 1;
  const maxDetail = max(detail) || 1;
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = contrast[i]! / maxContrast + detail[i]! / maxDetail;
  // What half the photo reaches is background level: only the excess over it draws the eye.
  const floor = Float32Array.from(data).sort()[n >> 1]!;
  let total = 0;
  for (let i = 0; i < n; i++) total += data[i] = Math.max(0, data[i]! - floor);
  if (total > 0) for (let i = 0; i < n; i++) data[i]! /= total;
  else data.fill(1 / n);
  return { width: w, height: h, data };
}

function max(values: Float32Array): number {
  let m = 0;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** Three box blurs of the given radius in place: close to a Gaussian, and linear in cost. */
function gaussianish(data: Float32Array, w: number, h: number, radius: number): void {
  const line = new Float32Array(Math.max(w, h));
  for (let pass = 0; pass < 3; pass++) {
    for (let y = 0; y < h; y++) boxLine(data, y * w, 1, w, radius, line);
    for (let x = 0; x < w; x++) boxLine(data, x, w, h, radius, line);
  }
}

/** A running-sum box filter along one row or column, edges clamped. */
function boxLine(data: Float32Array, start: number, step: number, count: number, radius: number, line: Float32Array): void {
  for (let i = 0; i < count; i++) line[i] = data[start + i * step]!;
  const at = (i: number) => line[i < 0 ? 0 : i >= count ? count - 1 : i]!;
  let sum = 0;
  for (let i = -radius; i <= radius; i++) sum += at(i);
  const norm = 1 / (2 * radius + 1);
  for (let i = 0; i < count; i++) {
    data[start + i * step] = sum * norm;
    sum += at(i + radius + 1) - at(i - radius);
  }
}
