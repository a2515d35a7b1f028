/**
 * A log-chroma histogram estimate of the light, in the manner of Barron's Convolutional and
 * Fast Fourier Color Constancy: a light multiplies every pixel by the same gains, so it
 * shifts the histogram of ln(r/g), ln(b/g) without changing its shape. Histograms of the
 * pixels, of the pixels weighted by luminance² and of their local contrast are each convolved with a learned filter, a learned
 * bias map (the prior of lights) is added, and a softmax over the candidate lights gives a
 * distribution: the estimate is its mean, its covariance the confidence. The histograms
 * wrap around (a torus of BINS² cells), which makes the convolution exactly one
 * multiplication in the Fourier domain while training (bench/autoedit/light-fit.ts).
 * The window is set so that it holds every light the training degradations make.
 * Measured against and blended with the feature model's white by `npm run white-cv`; the
 * service does not use it yet (it did not improve the cross-validated renders).
 */
import { LUMA_B, LUMA_G, LUMA_R } from '../../src/imaging/colour.js';
import type { LinearImage } from '../../src/imaging/tone/preview.js';

export const LIGHT_BINS = 32;
/** The window of ln(r/g) and ln(b/g): its origin and the width of a cell, per axis. */
export const LIGHT_ORIGIN: readonly [number, number] = [-0.9, -3.1];
export const LIGHT_CELL: readonly [number, number] = [2.8 / LIGHT_BINS, 4 / LIGHT_BINS];
/** Histograms: the pixels, their local absolute deviation, and the pixels weighted by luminance² (the brightest surfaces are most often white or grey). */
export const LIGHT_CHANNELS = 3;
export const LIGHT_SPEC = `ffcc${LIGHT_BINS}@${LIGHT_ORIGIN.join(',')}/${LIGHT_CELL.map((c) => c.toFixed(5)).join(',')}+pixels+deviation+bright-v1`;

const EPS = 1e-4;
/** As in features.ts: darker pixels are chroma noise, brighter ones lie about their colour. */
const DARK = 0.004;
const CLIP = 0.98;

export interface LightWeights {
  spec: string;
  /** Per channel, BINS² filter taps, row v, column u. */
  filters: number[][];
  bias: number[];
}

export interface LightEstimate {
  /** ln(r/g), ln(b/g) of the light: the softmax mean. */
  mean: [number, number];
  /** Covariance uu, uv, vv of the softmax distribution. */
  covariance: [number, number, number];
}

/** Adds w at (u, v) into a wrapped BINS² histogram by bilinear splatting. */
function splat(hist: Float64Array, u: number, v: number, w: number): void {
  const n = LIGHT_BINS;
  const fu = (u - LIGHT_ORIGIN[0]) / LIGHT_CELL[0] - 0.5;
  const fv = (v - LIGHT_ORIGIN[1]) / LIGHT_CELL[1] - 0.5;
  const iu = Math.floor(fu);
  const iv = Math.floor(fv);
  const tu = fu - iu;
  const tv = fv - iv;
  const u0 = ((iu % n) + n) % n;
  const v0 = ((iv % n) + n) % n;
  const u1 = (u0 + 1) % n;
  const v1 = (v0 + 1) % n;
  hist[v0 * n + u0] += w * (1 - tu) * (1 - tv);
  hist[v0 * n + u1] += w * tu * (1 - tv);
  hist[v1 * n + u0] += w * (1 - tu) * tv;
  hist[v1 * n + u1] += w * tu * tv;
}

function normalise(hist: Float64Array): Float64Array {
  let sum = 0;
  for (const h of hist) sum += h;
  if (sum > 0) for (let i = 0; i < hist.length; i++) hist[i]! /= sum;
  return hist;
}

/**
 * The histograms of a preview, each summing to 1: pixels of usable brightness, one count
 * each, the same weighted by luminance², and the local absolute deviation (mean difference to the 4 neighbours per channel),
 * whose chroma the light shifts alike while edges between surfaces cancel much of their colour.
 */
export function lightHistograms(preview: LinearImage): Float64Array[] {
  const { width, height, data } = preview;
  const pixels = new Float64Array(LIGHT_BINS * LIGHT_BINS);
  const deviation = new Float64Array(LIGHT_BINS * LIGHT_BINS);
  const bright = new Float64Array(LIGHT_BINS * LIGHT_BINS);
  const at = (x: number, y: number, c: number) => Math.max(0, data[(y * width + x) * 3 + c]!);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const r = at(x, y, 0);
      const g = at(x, y, 1);
      const b = at(x, y, 2);
      const mx = Math.max(r, g, b);
      if (mx > CLIP) continue;
      const l = LUMA_R * r + LUMA_G * g + LUMA_B * b;
      if (l > DARK) {
        const u = Math.log((r + EPS) / (g + EPS));
        const v = Math.log((b + EPS) / (g + EPS));
        splat(pixels, u, v, 1);
        splat(bright, u, v, l * l);
      }
      if (x === 0 || y === 0 || x + 1 === width || y + 1 === height) continue;
      const d = [0, 0, 0];
      for (let c = 0; c < 3; c++) {
        const v = at(x, y, c);
        d[c] = (Math.abs(at(x - 1, y, c) - v) + Math.abs(at(x + 1, y, c) - v) + Math.abs(at(x, y - 1, c) - v) + Math.abs(at(x, y + 1, c) - v)) / 4;
      }
      if (LUMA_R * d[0]! + LUMA_G * d[1]! + LUMA_B * d[2]! > DARK * 0.5) splat(deviation, Math.log((d[0]! + EPS) / (d[1]! + EPS)), Math.log((d[2]! + EPS) / (d[1]! + EPS)), 1);
    }
  return [normalise(pixels), normalise(deviation), normalise(bright)];
}

/** Centre of cell i along an axis. */
export function cellCentre(axis: 0 | 1, i: number): number {
  return LIGHT_ORIGIN[axis] + (i + 0.5) * LIGHT_CELL[axis];
}

/** Score of every candidate light: each histogram circularly convolved with its filter, plus the bias. */
export function lightScores(histograms: readonly Float64Array[], weights: LightWeights): Float64Array {
  const n = LIGHT_BINS;
  const scores = Float64Array.from(weights.bias);
  for (const [c, hist] of histograms.entries()) {
    const filter = weights.filters[c]!;
    // Histograms are sparse: visit only the cells that hold something.
    for (let bv = 0; bv < n; bv++)
      for (let bu = 0; bu < n; bu++) {
        const h = hist[bv * n + bu]!;
        if (h === 0) continue;
        for (let lv = 0; lv < n; lv++) {
          const row = ((lv - bv + n) % n) * n;
          const out = lv * n;
          for (let lu = 0; lu < n; lu++) scores[out + lu] += h * filter[row + ((lu - bu + n) % n)]!;
        }
      }
  }
  return scores;
}

/** Softmax of the scores, in place. */
export function softmax(scores: Float64Array): Float64Array {
  let max = -Infinity;
  for (const s of scores) max = Math.max(max, s);
  let sum = 0;
  for (let i = 0; i < scores.length; i++) {
    scores[i] = Math.exp(scores[i]! - max);
    sum += scores[i]!;
  }
  for (let i = 0; i < scores.length; i++) scores[i]! /= sum;
  return scores;
}

/** Mean and covariance of a distribution over the candidate lights (a cell's own width added). */
export function moments(p: Float64Array): LightEstimate {
  const n = LIGHT_BINS;
  let mu = 0;
  let mv = 0;
  for (let v = 0; v < n; v++)
    for (let u = 0; u < n; u++) {
      mu += p[v * n + u]! * cellCentre(0, u);
      mv += p[v * n + u]! * cellCentre(1, v);
    }
  let uu = 0;
  let uv = 0;
  let vv = 0;
  for (let v = 0; v < n; v++)
    for (let u = 0; u < n; u++) {
      const du = cellCentre(0, u) - mu;
      const dv = cellCentre(1, v) - mv;
      uu += p[v * n + u]! * du * du;
      uv += p[v * n + u]! * du * dv;
      vv += p[v * n + u]! * dv * dv;
    }
  return { mean: [mu, mv], covariance: [uu + LIGHT_CELL[0] ** 2 / 12, uv, vv + LIGHT_CELL[1] ** 2 / 12] };
}

export function estimateLight(preview: LinearImage, weights: LightWeights): LightEstimate {
  if (weights.spec !== LIGHT_SPEC) throw new Error(`light weights were trained on "${weights.spec}", this build computes "${LIGHT_SPEC}"`);
  return moments(softmax(lightScores(lightHistograms(preview), weights)));
}

/**
 * How the light estimate and the feature model's white are weighed together: per axis
 * (ln r/g, ln b/g), each one's variance as a + b·(its own measure of doubt) — the bag's
 * spread² for the feature model, the softmax variance for the histograms — a and b fitted
 * by least squares to the squared errors of cross-validation (bench/white-cv.ts).
 */
export interface LightBlend {
  features: [number, number][];
  light: [number, number][];
}

/** The two whites weighed by the inverse of their variances; the spread becomes the blend's standard deviation. */
export function blendedWhite(features: { mean: [number, number]; spread: [number, number] }, light: LightEstimate, blend: LightBlend): { mean: [number, number]; spread: [number, number] } {
  const axis = (k: 0 | 1): [number, number] => {
    const [fa, fb] = blend.features[k]!;
    const [la, lb] = blend.light[k]!;
    const wf = 1 / (fa + fb * features.spread[k] ** 2);
    const wl = 1 / (la + lb * light.covariance[k === 0 ? 0 : 2]);
    return [(wf * features.mean[k] + wl * light.mean[k]) / (wf + wl), Math.sqrt(1 / (wf + wl))];
  };
  const [u, v] = [axis(0), axis(1)];
  return { mean: [u[0], v[0]], spread: [u[1], v[1]] };
}
