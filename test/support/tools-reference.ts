/**
 * Straightforward double-precision versions of the tools' per-pixel passes (the box mean,
 * the colour guided filter's coefficients and its full-size evaluation, the homography
 * resampling, noise reduction's blend, the linear preview), to check the WebAssembly kernels
 * (kernels/tools.ts, single precision, SIMD) against.
 */
import type { GuidedCoefficients } from '../../src/imaging/filters/guided.js';
import { image16FromSharp, sharpFromImage16 } from '../../src/imaging/image16.js';
import { axisTaps } from '../../src/imaging/local/bilinear.js';
import type { Mat3 } from '../../src/imaging/matrix.js';
import type { Image16, RgbImage } from '../../src/imaging/types.js';

/** Mean of each window (2·radius+1)², clipped at the borders, summed pixel by pixel in double precision. */
export function boxMeanReference(plane: Float64Array, width: number, height: number, radius: number): Float64Array {
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      let count = 0;
      for (let v = Math.max(0, y - radius); v <= Math.min(height - 1, y + radius); v++) {
        for (let u = Math.max(0, x - radius); u <= Math.min(width - 1, x + radius); u++) {
          sum += plane[v * width + u]!;
          count++;
        }
      }
      out[y * width + x] = sum / count;
    }
  }
  return out;
}

/** The colour guided filter's coefficients (He et al.): per window, a = (Σ + eps·I)⁻¹ cov(I, p) by Gaussian elimination, b = mean p − a·mean I; then both window-averaged. */
export function guidedCoefficientsReference(guide: Float32Array, p: Float32Array, width: number, height: number, radius: number, eps: number): GuidedCoefficients {
  const n = width * height;
  const planeOf = (f: (i: number) => number) =>
    boxMeanReference(
      Float64Array.from({ length: n }, (_, i) => f(i)),
      width,
      height,
      radius,
    );
  const channel = (i: number, c: number) => guide[i * 3 + c]!;
  const means = [0, 1, 2].map((c) => planeOf((i) => channel(i, c)));
  const meanP = planeOf((i) => p[i]!);
  const products = [0, 1, 2].map((c) => [0, 1, 2].map((d) => planeOf((i) => channel(i, c) * channel(i, d))));
  const withP = [0, 1, 2].map((c) => planeOf((i) => channel(i, c) * p[i]!));
  const a = [0, 1, 2].map(() => new Float64Array(n));
  const b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // Augmented rows [Σ + eps·I | cov(I, p)], eliminated with partial pivoting.
    const m = [0, 1, 2].map((c) => [...[0, 1, 2].map((d) => products[c]![d]![i]! - means[c]![i]! * means[d]![i]! + (c === d ? eps : 0)), withP[c]![i]! - means[c]![i]! * meanP[i]!]);
    for (let col = 0; col < 3; col++) {
      let pivot = col;
      for (let r = col + 1; r < 3; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
      [m[col], m[pivot]] = [m[pivot]!, m[col]!];
      for (let r = 0; r < 3; r++) {
        if (r === col) continue;
        const f = m[r]![col]! / m[col]![col]!;
        for (let k = col; k < 4; k++) m[r]![k]! -= f * m[col]![k]!;
      }
    }
    let rest = meanP[i]!;
    for (let c = 0; c < 3; c++) {
      a[c]![i] = m[c]![3]! / m[c]![c]!;
      rest -= a[c]![i]! * means[c]![i]!;
    }
    b[i] = rest;
  }
  const meanA = a.map((plane) => boxMeanReference(plane, width, height, radius));
  return { width, height, a: Float32Array.from({ length: n * 3 }, (_, j) => meanA[j % 3]![Math.floor(j / 3)]!), b: Float32Array.from(boxMeanReference(b, width, height, radius)) };
}

/** The fast guided filter's full-size output over the whole image: a, b upsampled bilinearly, a·I + b clamped to 0..1. */
export function applyGuidedReference(coefficients: GuidedCoefficients, image: Image16): Float32Array {
  const { width, height, data } = image;
  const { width: cw, height: ch, a, b } = coefficients;
  const xs = axisTaps(width, cw);
  const ys = axisTaps(height, ch);
  const out = new Float32Array(width * height);
  const at = (grid: Float32Array, stride: number, c: number, x: number, y: number) => {
    const row = (gy: number) => grid[(gy * cw + xs.lo[x]!) * stride + c]! + (grid[(gy * cw + xs.hi[x]!) * stride + c]! - grid[(gy * cw + xs.lo[x]!) * stride + c]!) * xs.t[x]!;
    return row(ys.lo[y]!) + (row(ys.hi[y]!) - row(ys.lo[y]!)) * ys.t[y]!;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let q = at(b, 1, 0, x, y);
      for (let c = 0; c < 3; c++) q += (at(a, 3, c, x, y) * data[(y * width + x) * 3 + c]!) / 65535;
      out[y * width + x] = Math.min(1, Math.max(0, q));
    }
  }
  return out;
}

/**
 * Bilinear resampling through a homography (geometry/warp.ts's resample), in double
 * precision; with `round` = Math.fround, its weights and sums in single precision one
 * operation at a time, in the kernel's order: the kernel's exact result.
 */
export function resampleReference(image: Image16, toSource: Mat3, ow: number, oh: number, round: (v: number) => number = (v) => v): Image16 {
  const m = toSource;
  const { width: sw, height: sh, data: src } = image;
  const out = new Uint16Array(ow * oh * 3);
  const minX = -0.5 - 1e-6;
  const maxX = sw - 0.5 + 1e-6;
  const minY = -0.5 - 1e-6;
  const maxY = sh - 0.5 + 1e-6;
  const lastX = sw - 1;
  const lastY = sh - 1;
  const stride = sw * 3;
  let o = 0;
  for (let j = 0; j < oh; j++) {
    let u = m[1] * j + m[2];
    let v = m[4] * j + m[5];
    let w = m[7] * j + m[8];
    for (let i = 0; i < ow; i++, u += m[0], v += m[3], w += m[6], o += 3) {
      const iw = 1 / w;
      let x = u * iw;
      let y = v * iw;
      if (x < minX || x > maxX || y < minY || y > maxY) continue;
      x = x < 0 ? 0 : x > lastX ? lastX : x;
      y = y < 0 ? 0 : y > lastY ? lastY : y;
      const xi = Math.min(Math.floor(x), Math.max(0, lastX - 1));
      const yi = Math.min(Math.floor(y), Math.max(0, lastY - 1));
      const fx = round(x - xi);
      const fy = round(y - yi);
      const p00 = yi * stride + xi * 3;
      const p01 = xi < lastX ? p00 + 3 : p00;
      const p10 = yi < lastY ? p00 + stride : p00;
      const p11 = xi < lastX ? p10 + 3 : p10;
      const w00 = round(round(1 - fx) * round(1 - fy));
      const w01 = round(fx * round(1 - fy));
      const w10 = round(round(1 - fx) * fy);
      const w11 = round(fx * fy);
      for (let c = 0; c < 3; c++) {
        const q = round(round(round(round(w00 * src[p00 + c]!) + round(w01 * src[p01 + c]!)) + round(w10 * src[p10 + c]!)) + round(w11 * src[p11 + c]!));
        out[o + c] = round(q + 0.5);
      }
    }
  }
  return { width: ow, height: oh, data: out };
}

/** Luminance noise reduction with the blend in double precision (tone/detail.ts's reduceNoise). */
export async function reduceNoiseReference(image: Image16, amount: number): Promise<Image16> {
  const { width, height, data } = image;
  const out = (await image16FromSharp(sharpFromImage16(image).blur(0.6 + (1.4 * amount) / 100))).data;
  const threshold = 300 + (2200 * amount) / 100;
  const strength = Math.min(1, 0.3 + amount / 100);
  for (let i = 0; i < data.length; i += 3) {
    const d = (data[i]! - out[i]! + 2 * (data[i + 1]! - out[i + 1]!) + (data[i + 2]! - out[i + 2]!)) * 0.25;
    const w = strength * Math.exp((-d * d) / (threshold * threshold));
    for (let c = 0; c < 3; c++) out[i + c] = data[i + c]! + w * (out[i + c]! - data[i + c]!) + 0.5;
  }
  return { width, height, data: out };
}

/**
 * tone/preview.ts's linear preview as plain JavaScript: per block, every step-th row and
 * column (step 2 for blocks of 4 and more) summed in double precision through the linear
 * table, row by row, then divided by the count.
 */
export function linearPreviewReference(image: RgbImage, f: number, lut: Float32Array): Float32Array {
  const { width, height, data } = image;
  const w = Math.ceil(width / f);
  const h = Math.ceil(height / f);
  const step = f >= 4 ? 2 : 1;
  const out = new Float32Array(w * h * 3);
  for (let oy = 0; oy < h; oy++) {
    for (let ox = 0; ox < w; ox++) {
      const sums = [0, 0, 0];
      let n = 0;
      for (let y = oy * f; y < Math.min(height, (oy + 1) * f); y += step) {
        const row = [0, 0, 0];
        for (let x = ox * f; x < Math.min(width, (ox + 1) * f); x += step) {
          for (let c = 0; c < 3; c++) row[c]! += lut[data[(y * width + x) * 3 + c]!]!;
          if (y === oy * f) n++;
        }
        for (let c = 0; c < 3; c++) sums[c]! += row[c]!;
      }
      n *= Math.ceil((Math.min(height, (oy + 1) * f) - oy * f) / step);
      for (let c = 0; c < 3; c++) out[(oy * w + ox) * 3 + c] = sums[c]! / n;
    }
  }
  return out;
}
