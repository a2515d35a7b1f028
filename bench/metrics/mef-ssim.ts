import type { Image16 } from '../../src/imaging/types.js';

/**
 * MEF-SSIM: Ma, Zeng & Wang, "Perceptual Quality Assessment for Multi-Exposure Image Fusion",
 * IEEE TIP 24(11), 2015. A fused image is compared, patch by patch, with a reference patch
 * built from the source exposures:
 * - each source patch x_k is split into mean intensity l_k, signal strength c_k = ||x_k - l_k||
 *   and structure s_k = (x_k - l_k) / c_k;
 * - the mean intensity is left out (the paper: local luminance need not be preserved by fusion);
 * - the desired strength is the highest of the c_k;
 * - the desired structure is the average of the s_k weighted by c_k^p, where p grows with the
 *   structural consistency R = ||sum_k (x_k - l_k)|| / sum_k ||x_k - l_k|| as p = tan(pi R / 2)
 *   (consistent patches: plain average; inconsistent ones: the strongest patch wins), capped at 10;
 * - the fused patch is scored against that reference with SSIM's contrast-structure term
 *   (2 sigma_xy + C) / (sigma_x^2 + sigma_y^2 + C), C = (0.03 x 255)^2, in an 11 x 11 Gaussian
 *   window (sigma 1.5), patch statistics over the 11 x 11 square;
 * - the map is averaged over all patches, at three scales (2 x 2 means between them), and the
 *   scales combined as a weighted geometric mean with weights 0.0448, 0.2856, 0.3001 (normalised).
 * Everything runs on the luminance (0.2989 R + 0.587 G + 0.114 B of the encoded values, 0..255),
 * at the fused image's size (sources must be brought to it first). The score is in [-1, 1],
 * higher is better.
 *
 * Every patch sum is a box or Gaussian filter of the images and their pairwise products, so the
 * patches are never gathered: the filters run over horizontal strips in float64.
 */

const WINDOW = 11;
const RADIUS = (WINDOW - 1) / 2;
const PATCH = WINDOW * WINDOW;
const SIGMA = 1.5;
const C = (0.03 * 255) ** 2;
const SCALE_WEIGHTS = [0.0448, 0.2856, 0.3001];
const P_MAX = 10;
const EPS = 2.220446049250313e-16;
/** Centre rows filtered at once: bounds the float64 buffers to a few tens of MB. */
const STRIP_ROWS = 48;

interface Grey {
  width: number;
  height: number;
  data: Float64Array;
}

function greyOf(image: Image16): Grey {
  const { width, height, data } = image;
  const out = new Float64Array(width * height);
  const k = 255 / 65535;
  for (let i = 0, j = 0; i < out.length; i++, j += 3) out[i] = (0.2989 * data[j]! + 0.587 * data[j + 1]! + 0.114 * data[j + 2]!) * k;
  return { width, height, data: out };
}

/** 2 x 2 means starting at even positions, the last row/column repeated when the size is odd. */
function halve(g: Grey): Grey {
  const width = Math.ceil(g.width / 2);
  const height = Math.ceil(g.height / 2);
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    const r0 = 2 * y * g.width;
    const r1 = Math.min(g.height - 1, 2 * y + 1) * g.width;
    for (let x = 0; x < width; x++) {
      const c0 = 2 * x;
      const c1 = Math.min(g.width - 1, 2 * x + 1);
      out[y * width + x] = (g.data[r0 + c0]! + g.data[r0 + c1]! + g.data[r1 + c0]! + g.data[r1 + c1]!) / 4;
    }
  }
  return { width, height, data: out };
}

const gauss = (() => {
  const g = new Float64Array(WINDOW);
  let sum = 0;
  for (let t = -RADIUS; t <= RADIUS; t++) sum += g[t + RADIUS] = Math.exp(-(t * t) / (2 * SIGMA * SIGMA));
  return g.map((v) => v / sum);
})();

/** A product of two planes (b = -1: the plane alone), filtered by the box and/or the Gaussian window. */
interface Product {
  a: number;
  b: number;
  box: boolean;
}

/**
 * Filters the product plane over the centre rows [y0, y1), writing per centre (valid columns
 * only) the box mean and/or the Gaussian-weighted mean into boxOut / gaussOut.
 */
function filterStrip(planes: Grey[], product: Product, y0: number, y1: number, boxOut: Float64Array, gaussOut: Float64Array, scratch: { row: Float64Array; hBox: Float64Array; hGauss: Float64Array }): void {
  const { width } = planes[0]!;
  const valid = width - 2 * RADIUS;
  const a = planes[product.a]!.data;
  const b = product.b >= 0 ? planes[product.b]!.data : null;
  const { row, hBox, hGauss } = scratch;
  const rows = y1 - y0 + 2 * RADIUS;
  for (let r = 0; r < rows; r++) {
    const y = y0 - RADIUS + r;
    const base = y * width;
    if (b) for (let x = 0; x < width; x++) row[x] = a[base + x]! * b[base + x]!;
    else for (let x = 0; x < width; x++) row[x] = a[base + x]!;
    const o = r * valid;
    if (product.box) {
      let sum = 0;
      for (let x = 0; x < WINDOW; x++) sum += row[x]!;
      hBox[o] = sum;
      for (let x = 1; x < valid; x++) {
        sum += row[x + WINDOW - 1]! - row[x - 1]!;
        hBox[o + x] = sum;
      }
    }
    for (let x = 0; x < valid; x++) {
      const c = x + RADIUS;
      let s = gauss[RADIUS]! * row[c]!;
      for (let t = 1; t <= RADIUS; t++) s += gauss[RADIUS + t]! * (row[c - t]! + row[c + t]!);
      hGauss[o + x] = s;
    }
  }
  for (let cy = 0; cy < y1 - y0; cy++) {
    const o = cy * valid;
    const centre = (cy + RADIUS) * valid;
    if (product.box) {
      for (let x = 0; x < valid; x++) {
        let s = 0;
        for (let t = -RADIUS; t <= RADIUS; t++) s += hBox[centre + t * valid + x]!;
        boxOut[o + x] = s / PATCH;
      }
    }
    for (let x = 0; x < valid; x++) {
      let s = gauss[RADIUS]! * hGauss[centre + x]!;
      for (let t = 1; t <= RADIUS; t++) s += gauss[RADIUS + t]! * (hGauss[centre - t * valid + x]! + hGauss[centre + t * valid + x]!);
      gaussOut[o + x] = s;
    }
  }
}

/** Mean MEF-SSIM map at one scale. */
function scaleScore(sources: Grey[], fused: Grey): number {
  const { width, height } = fused;
  const K = sources.length;
  const valid = width - 2 * RADIUS;
  const planes = [...sources, fused];
  const F = K;
  // Index of each filtered product: x_k, x_k x_j (j >= k), f, f f, x_k f.
  const products: Product[] = [];
  const single = new Int32Array(K + 1);
  const pair = new Int32Array((K + 1) * (K + 1));
  for (let k = 0; k < K; k++) single[k] = products.push({ a: k, b: -1, box: true }) - 1;
  for (let k = 0; k < K; k++) for (let j = k; j < K; j++) pair[k * (K + 1) + j] = pair[j * (K + 1) + k] = products.push({ a: k, b: j, box: true }) - 1;
  single[F] = products.push({ a: F, b: -1, box: false }) - 1;
  pair[F * (K + 1) + F] = products.push({ a: F, b: F, box: false }) - 1;
  for (let k = 0; k < K; k++) pair[k * (K + 1) + F] = products.push({ a: k, b: F, box: false }) - 1;

  const boxes = products.map(() => new Float64Array(STRIP_ROWS * valid));
  const gausses = products.map(() => new Float64Array(STRIP_ROWS * valid));
  const scratch = {
    row: new Float64Array(width),
    hBox: new Float64Array((STRIP_ROWS + 2 * RADIUS) * valid),
    hGauss: new Float64Array((STRIP_ROWS + 2 * RADIUS) * valid),
  };
  const mu = new Float64Array(K);
  const norm = new Float64Array(K);
  const ed = new Float64Array(K);
  const coef = new Float64Array(K);
  const cov = new Float64Array(K * K);
  let total = 0;
  let count = 0;
  for (let y0 = RADIUS; y0 < height - RADIUS; y0 += STRIP_ROWS) {
    const y1 = Math.min(height - RADIUS, y0 + STRIP_ROWS);
    for (const [i, p] of products.entries()) filterStrip(planes, p, y0, y1, boxes[i]!, gausses[i]!, scratch);
    const n = (y1 - y0) * valid;
    for (let i = 0; i < n; i++) {
      let maxEd = 0;
      let den = 0;
      for (let k = 0; k < K; k++) mu[k] = boxes[single[k]!]![i]!;
      let all = 0;
      for (let k = 0; k < K; k++) {
        for (let j = 0; j < K; j++) {
          const v = boxes[pair[k * (K + 1) + j]!]![i]! - mu[k]! * mu[j]!;
          cov[k * K + j] = v;
          all += v;
        }
        norm[k] = Math.sqrt(Math.max(PATCH * cov[k * K + k]!, 0));
        ed[k] = norm[k]! + 0.001;
        den += norm[k]!;
        if (ed[k]! > maxEd) maxEd = ed[k]!;
      }
      // Structural consistency: how much the sources' zero-mean patches reinforce each other.
      let R = (Math.sqrt(Math.max(PATCH * all, 0)) + EPS) / (den + EPS);
      if (R > 1) R = 1 - EPS;
      if (R < 0) R = EPS;
      const p = Math.min(P_MAX, Math.tan((Math.PI / 2) * R));
      let wsum = 0;
      for (let k = 0; k < K; k++) wsum += coef[k] = (ed[k]! / WINDOW) ** p + EPS;
      // The reference patch is sum_k coef_k (x_k - mu_k), rescaled to the strongest strength.
      for (let k = 0; k < K; k++) coef[k] = coef[k]! / wsum / ed[k]!;
      let vv = 0;
      for (let k = 0; k < K; k++) for (let j = 0; j < K; j++) vv += coef[k]! * coef[j]! * cov[k * K + j]!;
      const vnorm = Math.sqrt(Math.max(PATCH * vv, 0));
      const alpha = vnorm > 1e-12 ? maxEd / vnorm : 0;
      const gf = gausses[single[F]!]![i]!;
      let mu1 = 0;
      let e11 = 0;
      let e12 = 0;
      for (let k = 0; k < K; k++) {
        const gk = gausses[single[k]!]![i]!;
        mu1 += coef[k]! * (gk - mu[k]!);
        e12 += coef[k]! * (gausses[pair[k * (K + 1) + F]!]![i]! - mu[k]! * gf);
        for (let j = 0; j < K; j++) {
          const gj = gausses[single[j]!]![i]!;
          e11 += coef[k]! * coef[j]! * (gausses[pair[k * (K + 1) + j]!]![i]! - mu[j]! * gk - mu[k]! * gj + mu[k]! * mu[j]!);
        }
      }
      mu1 *= alpha;
      const sigma1 = alpha * alpha * e11 - mu1 * mu1;
      const sigma2 = gausses[pair[F * (K + 1) + F]!]![i]! - gf * gf;
      const sigma12 = alpha * e12 - mu1 * gf;
      total += (2 * sigma12 + C) / (sigma1 + sigma2 + C);
      count++;
    }
  }
  return total / count;
}

/** MEF-SSIM of `fused` against the exposures it was made from (all the same size as it). */
export function mefSsim(sources: Image16[], fused: Image16): { score: number; scales: number[] } {
  if (sources.length < 2) throw new Error(`MEF-SSIM needs at least 2 source exposures, got ${sources.length}`);
  for (const [i, s] of sources.entries()) {
    if (s.width !== fused.width || s.height !== fused.height) throw new Error(`source ${i} is ${s.width}x${s.height}, the fused image ${fused.width}x${fused.height}`);
  }
  if (Math.min(fused.width, fused.height) / 2 ** (SCALE_WEIGHTS.length - 1) < WINDOW) throw new Error(`image ${fused.width}x${fused.height} too small for ${SCALE_WEIGHTS.length} scales`);
  let seq = sources.map(greyOf);
  let f = greyOf(fused);
  const scales: number[] = [];
  for (let l = 0; l < SCALE_WEIGHTS.length; l++) {
    if (l > 0) {
      seq = seq.map(halve);
      f = halve(f);
    }
    scales.push(scaleScore(seq, f));
  }
  const weightSum = SCALE_WEIGHTS.reduce((a, b) => a + b, 0);
  const score = scales.reduce((acc, q, l) => acc * Math.sign(q) * Math.abs(q) ** (SCALE_WEIGHTS[l]! / weightSum), 1);
  return { score, scales };
}
