/**
 * Fits the histogram light estimator (src/imaging/autoedit/light.ts) as FFCC does: the
 * score map of a draw is Σ_c H_c ⊛ F_c + B, a circular convolution and so one product per
 * frequency; the loss is the cross-entropy of the softmax against the true light (splatted
 * bilinearly onto the candidate cells), which is convex in the filters and the bias, plus
 * penalties on each map's squared differences between neighbouring cells (smoothness, the
 * quadratic total variation of FFCC) and its squared values. Being convex, it is minimised
 * by L-BFGS with a backtracking line search, with no step size to tune.
 */
import { LIGHT_BINS, LIGHT_CELL, LIGHT_CHANNELS, LIGHT_ORIGIN, LIGHT_SPEC, moments, softmax, type LightEstimate, type LightWeights } from './light.js';

const N = LIGHT_BINS;
const CELLS = N * N;

/** The cell of frequency −k for each k. */
const NEGATIVE = Uint16Array.from({ length: CELLS }, (_, k) => ((N - Math.floor(k / N)) % N) * N + ((N - (k % N)) % N));

/** Bit reversal of 0…N−1 and the twiddle factors, computed once. */
const REVERSED = Uint16Array.from({ length: N }, (_, i) => {
  let r = 0;
  for (let bit = 1, j = i; bit < N; bit <<= 1, j >>= 1) r = (r << 1) | (j & 1);
  return r;
});
const COS = Float64Array.from({ length: N / 2 }, (_, k) => Math.cos((2 * Math.PI * k) / N));
const SIN = Float64Array.from({ length: N / 2 }, (_, k) => Math.sin((2 * Math.PI * k) / N));

/** In-place radix-2 FFT of one line of N complex values at re/im[offset + k·stride]. */
function fft1(re: Float64Array, im: Float64Array, offset: number, stride: number, inverse: boolean): void {
  for (let i = 1; i < N; i++) {
    const j = REVERSED[i]!;
    if (i < j) {
      const a = offset + i * stride;
      const b = offset + j * stride;
      const tr = re[a]!;
      const ti = im[a]!;
      re[a] = re[b]!;
      im[a] = im[b]!;
      re[b] = tr;
      im[b] = ti;
    }
  }
  const sign = inverse ? 1 : -1;
  for (let len = 2; len <= N; len <<= 1) {
    const half = len >> 1;
    const step = N / len;
    for (let i = 0; i < N; i += len)
      for (let k = 0; k < half; k++) {
        const wr = COS[k * step]!;
        const wi = sign * SIN[k * step]!;
        const a = offset + (i + k) * stride;
        const b = a + half * stride;
        const xr = re[b]! * wr - im[b]! * wi;
        const xi = re[b]! * wi + im[b]! * wr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a]! += xr;
        im[a]! += xi;
      }
  }
}

/** 2-D DFT of an N×N map in place; the inverse divides by N². */
export function fft2(re: Float64Array, im: Float64Array, inverse = false): void {
  for (let r = 0; r < N; r++) fft1(re, im, r * N, 1, inverse);
  for (let c = 0; c < N; c++) fft1(re, im, c, N, inverse);
  if (inverse)
    for (let i = 0; i < CELLS; i++) {
      re[i]! /= CELLS;
      im[i]! /= CELLS;
    }
}

/** A draw ready for fitting: the spectra of its histograms and its true light as a target distribution. */
export interface LightSample {
  spectra: { re: Float64Array; im: Float64Array }[];
  target: Float64Array;
}

/** The true light (ln r/g, ln b/g) splatted onto the candidate cells, clamped to the window. */
export function targetMap(u: number, v: number): Float64Array {
  const t = new Float64Array(CELLS);
  const fu = Math.min(N - 1, Math.max(0, (u - LIGHT_ORIGIN[0]) / LIGHT_CELL[0] - 0.5));
  const fv = Math.min(N - 1, Math.max(0, (v - LIGHT_ORIGIN[1]) / LIGHT_CELL[1] - 0.5));
  const iu = Math.min(N - 2, Math.floor(fu));
  const iv = Math.min(N - 2, Math.floor(fv));
  const tu = fu - iu;
  const tv = fv - iv;
  t[iv * N + iu] = (1 - tu) * (1 - tv);
  t[iv * N + iu + 1] = tu * (1 - tv);
  t[(iv + 1) * N + iu] = (1 - tu) * tv;
  t[(iv + 1) * N + iu + 1] = tu * tv;
  return t;
}

export function lightSample(histograms: readonly Float64Array[], u: number, v: number): LightSample {
  return {
    spectra: histograms.map((h) => {
      const re = Float64Array.from(h);
      const im = new Float64Array(CELLS);
      fft2(re, im);
      return { re, im };
    }),
    target: targetMap(u, v),
  };
}

export interface LightPenalties {
  /** Smoothness and size of the filters, and of the bias map. */
  filterSmooth: number;
  filterSize: number;
  biasSmooth: number;
  biasSize: number;
}

/** Parameters: LIGHT_CHANNELS filters then the bias, each N² cells. */
const PARAMS = (LIGHT_CHANNELS + 1) * CELLS;

/** Σ over neighbouring cells (wrapped) of squared differences, and its gradient added into grad. */
function smoothness(x: Float64Array, offset: number, weight: number, grad: Float64Array): number {
  let s = 0;
  for (let v = 0; v < N; v++)
    for (let u = 0; u < N; u++) {
      const i = offset + v * N + u;
      for (const j of [offset + v * N + ((u + 1) % N), offset + ((v + 1) % N) * N + u]) {
        const d = x[i]! - x[j]!;
        s += weight * d * d;
        grad[i]! += 2 * weight * d;
        grad[j]! -= 2 * weight * d;
      }
    }
  return s;
}

/** Scores of one draw from the filters' spectra and the bias. */
function scoresOf(sample: LightSample, filterRe: Float64Array[], filterIm: Float64Array[], bias: Float64Array, re: Float64Array, im: Float64Array): Float64Array {
  re.fill(0);
  im.fill(0);
  for (let c = 0; c < LIGHT_CHANNELS; c++) {
    const h = sample.spectra[c]!;
    const fr = filterRe[c]!;
    const fi = filterIm[c]!;
    for (let k = 0; k < CELLS; k++) {
      re[k]! += h.re[k]! * fr[k]! - h.im[k]! * fi[k]!;
      im[k]! += h.re[k]! * fi[k]! + h.im[k]! * fr[k]!;
    }
  }
  fft2(re, im, true);
  const s = new Float64Array(CELLS);
  for (let k = 0; k < CELLS; k++) s[k] = re[k]! + bias[k]!;
  return s;
}

function spectraOf(x: Float64Array): { re: Float64Array[]; im: Float64Array[] } {
  const re: Float64Array[] = [];
  const im: Float64Array[] = [];
  for (let c = 0; c < LIGHT_CHANNELS; c++) {
    re.push(Float64Array.from(x.subarray(c * CELLS, (c + 1) * CELLS)));
    im.push(new Float64Array(CELLS));
    fft2(re[c]!, im[c]!);
  }
  return { re, im };
}

/** Mean cross-entropy over the samples plus the penalties, and its gradient. */
function objective(x: Float64Array, samples: readonly LightSample[], p: LightPenalties): { value: number; grad: Float64Array } {
  const grad = new Float64Array(PARAMS);
  const { re: filterRe, im: filterIm } = spectraOf(x);
  const bias = x.subarray(LIGHT_CHANNELS * CELLS);
  const accRe = Array.from({ length: LIGHT_CHANNELS }, () => new Float64Array(CELLS));
  const accIm = Array.from({ length: LIGHT_CHANNELS }, () => new Float64Array(CELLS));
  const re = new Float64Array(CELLS);
  const im = new Float64Array(CELLS);
  const scores = [new Float64Array(CELLS), new Float64Array(CELLS)];
  let loss = 0;
  const inv = 1 / samples.length;
  // Two draws per complex transform: their score maps are real, so one goes in the real part, one in the imaginary.
  for (let first = 0; first < samples.length; first += 2) {
    const pair = samples.slice(first, first + 2);
    re.fill(0);
    im.fill(0);
    for (const [j, sample] of pair.entries())
      for (let c = 0; c < LIGHT_CHANNELS; c++) {
        const h = sample.spectra[c]!;
        const fr = filterRe[c]!;
        const fi = filterIm[c]!;
        for (let k = 0; k < CELLS; k++) {
          const pr = h.re[k]! * fr[k]! - h.im[k]! * fi[k]!;
          const pi = h.re[k]! * fi[k]! + h.im[k]! * fr[k]!;
          // Spectrum of the first plus i times that of the second.
          if (j === 0) {
            re[k]! += pr;
            im[k]! += pi;
          } else {
            re[k]! -= pi;
            im[k]! += pr;
          }
        }
      }
    fft2(re, im, true);
    for (const [j, sample] of pair.entries()) {
      const sj = scores[j]!;
      const part = j === 0 ? re : im;
      for (let k = 0; k < CELLS; k++) sj[k] = part[k]! + bias[k]!;
      softmax(sj);
      for (let k = 0; k < CELLS; k++) {
        const t = sample.target[k]!;
        if (t > 0) loss -= inv * t * Math.log(Math.max(1e-300, sj[k]!));
        const g = inv * (sj[k]! - t);
        grad[LIGHT_CHANNELS * CELLS + k]! += g;
        sj[k] = g;
      }
    }
    for (let k = 0; k < CELLS; k++) {
      re[k] = scores[0]![k]!;
      im[k] = pair.length > 1 ? scores[1]![k]! : 0;
    }
    fft2(re, im);
    for (let k = 0; k < CELLS; k++) {
      // Separate the two spectra: G₁ = (Z[k] + conj Z[−k]) / 2, G₂ = (Z[k] − conj Z[−k]) / 2i.
      const m = NEGATIVE[k]!;
      const g1r = (re[k]! + re[m]!) / 2;
      const g1i = (im[k]! - im[m]!) / 2;
      const g2r = (im[k]! + im[m]!) / 2;
      const g2i = (re[m]! - re[k]!) / 2;
      // The gradient of a circular convolution's filter is the correlation with the histogram: conj(Ĥ)·Ĝ.
      for (let c = 0; c < LIGHT_CHANNELS; c++) {
        const h = pair[0]!.spectra[c]!;
        let ar = h.re[k]! * g1r + h.im[k]! * g1i;
        let ai = h.re[k]! * g1i - h.im[k]! * g1r;
        if (pair.length > 1) {
          const h2 = pair[1]!.spectra[c]!;
          ar += h2.re[k]! * g2r + h2.im[k]! * g2i;
          ai += h2.re[k]! * g2i - h2.im[k]! * g2r;
        }
        accRe[c]![k]! += ar;
        accIm[c]![k]! += ai;
      }
    }
  }
  for (let c = 0; c < LIGHT_CHANNELS; c++) {
    fft2(accRe[c]!, accIm[c]!, true);
    for (let k = 0; k < CELLS; k++) grad[c * CELLS + k]! += accRe[c]![k]!;
  }
  let penalty = 0;
  for (let c = 0; c <= LIGHT_CHANNELS; c++) {
    const isBias = c === LIGHT_CHANNELS;
    penalty += smoothness(x, c * CELLS, isBias ? p.biasSmooth : p.filterSmooth, grad);
    const size = isBias ? p.biasSize : p.filterSize;
    for (let k = c * CELLS; k < (c + 1) * CELLS; k++) {
      penalty += size * x[k]! ** 2;
      grad[k]! += 2 * size * x[k]!;
    }
  }
  return { value: loss + penalty, grad };
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** L-BFGS (memory 10) with an Armijo backtracking line search, from x0; stops when the objective changes by less than tol relative. */
function lbfgs(f: (x: Float64Array) => { value: number; grad: Float64Array }, x0: Float64Array, maxIterations: number, tol: number): { x: Float64Array; iterations: number; evaluations: number; value: number } {
  let x = Float64Array.from(x0);
  let { value, grad } = f(x);
  let evaluations = 1;
  let it = 0;
  const ss: Float64Array[] = [];
  const ys: Float64Array[] = [];
  for (; it < maxIterations; it++) {
    const q = Float64Array.from(grad);
    const alphas: number[] = [];
    for (let i = ss.length - 1; i >= 0; i--) {
      const a = dot(ss[i]!, q) / dot(ys[i]!, ss[i]!);
      alphas[i] = a;
      for (let k = 0; k < q.length; k++) q[k]! -= a * ys[i]![k]!;
    }
    const gamma = ss.length > 0 ? dot(ss.at(-1)!, ys.at(-1)!) / dot(ys.at(-1)!, ys.at(-1)!) : 1 / Math.sqrt(dot(grad, grad));
    for (let k = 0; k < q.length; k++) q[k]! *= gamma;
    for (let i = 0; i < ss.length; i++) {
      const b = dot(ys[i]!, q) / dot(ys[i]!, ss[i]!);
      for (let k = 0; k < q.length; k++) q[k]! += ss[i]![k]! * (alphas[i]! - b);
    }
    // q is now the quasi-Newton direction (to be subtracted).
    const slope = -dot(grad, q);
    if (slope >= 0) break;
    let step = 1;
    let next = x;
    let trial = { value, grad };
    for (let tries = 0; tries < 30; tries++, step /= 2) {
      next = Float64Array.from(x, (v, k) => v - step * q[k]!);
      trial = f(next);
      evaluations++;
      if (trial.value <= value + 1e-4 * step * slope) break;
    }
    if (trial.value > value) break;
    const s = Float64Array.from(next, (v, k) => v - x[k]!);
    const y = Float64Array.from(trial.grad, (v, k) => v - grad[k]!);
    if (dot(s, y) > 1e-12) {
      ss.push(s);
      ys.push(y);
      if (ss.length > 10) {
        ss.shift();
        ys.shift();
      }
    }
    const change = Math.abs(value - trial.value) / Math.max(1e-12, Math.abs(value));
    x = next;
    ({ value, grad } = trial);
    if (change < tol) break;
  }
  return { x, iterations: it, evaluations, value };
}

export interface LightFit {
  weights: LightWeights;
  iterations: number;
  evaluations: number;
  /** The objective at the end. */
  value: number;
  /** Parameters as one vector, to start a nearby fit from. */
  x: Float64Array;
}

export function fitLight(samples: readonly LightSample[], penalties: LightPenalties, start?: Float64Array, maxIterations = 150, tol = 1e-6): LightFit {
  const { x, iterations, evaluations, value } = lbfgs((v) => objective(v, samples, penalties), start ?? new Float64Array(PARAMS), maxIterations, tol);
  const round = (v: number) => Number(v.toPrecision(5));
  return {
    x,
    iterations,
    evaluations,
    value,
    weights: {
      spec: LIGHT_SPEC,
      filters: Array.from({ length: LIGHT_CHANNELS }, (_, c) => Array.from(x.subarray(c * CELLS, (c + 1) * CELLS), round)),
      bias: Array.from(x.subarray(LIGHT_CHANNELS * CELLS), round),
    },
  };
}

/** The estimate of a fitted sample, through the spectra (as the fit sees it). */
export function predictSample(sample: LightSample, x: Float64Array): LightEstimate {
  const { re: fr, im: fi } = spectraOf(x);
  return moments(softmax(scoresOf(sample, fr, fi, x.subarray(LIGHT_CHANNELS * CELLS), new Float64Array(CELLS), new Float64Array(CELLS))));
}

/** Finite-difference check of the objective's gradient on a few coordinates (for the tests of this fitter). */
export function gradientError(samples: readonly LightSample[], penalties: LightPenalties, x: Float64Array, coordinates: readonly number[]): number {
  const { grad } = objective(x, samples, penalties);
  let worst = 0;
  for (const k of coordinates) {
    const h = 1e-5;
    const plus = Float64Array.from(x);
    const minus = Float64Array.from(x);
    plus[k]! += h;
    minus[k]! -= h;
    const numeric = (objective(plus, samples, penalties).value - objective(minus, samples, penalties).value) / (2 * h);
    worst = Math.max(worst, Math.abs(numeric - grad[k]!) / Math.max(1e-6, Math.abs(numeric)));
  }
  return worst;
}
