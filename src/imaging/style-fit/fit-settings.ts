/**
 * Inverse rendering: the develop sliders that make render(original, s) look most like a
 * given edit of the same picture. Damped Gauss–Newton (Levenberg–Marquardt) on the
 * per-pixel CIELAB differences, with the Jacobian taken by forward differences through the
 * renderer itself, so whatever render does (local tone, clipping, skin-aware vibrance) is
 * what is inverted; after that, Broyden's rank-one updates keep the Jacobian current at
 * one render per step. Callers pass small copies (a few hundred pixels on the long edge):
 * every evaluation is a full render.
 */
import { ciede2000, linearToLab, mired, srgb16ToLinearLut } from '../colour.js';
import { solveSpd } from '../cholesky.js';
import { render } from '../render.js';
import { SETTING_RANGES, type DevelopSettings } from '../settings.js';
import type { Image16 } from '../types.js';

/** The sliders a style biases, in the order of the parameter vector; temperature is fitted in mireds. */
const FITTED_SLIDERS = ['exposure', 'contrast', 'highlights', 'shadows', 'whites', 'blacks', 'temperature', 'tint', 'vibrance', 'saturation', 'clarity'] as const;
const K = FITTED_SLIDERS.length;

/**
 * One parameter unit per slider, chosen so a unit of each changes a typical picture by a
 * comparable amount; the optimiser works in these units, the difference step is half of one.
 */
const UNIT = [0.1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5];
const STEP = 0.5;
/**
 * Pull towards the start, per unit², against the mean squared ΔE76: small enough not to
 * bias a slider the picture constrains, enough to keep one it does not (whites in a
 * picture with nothing bright) where it started.
 */
const PRIOR = 1e-4;
/** Budget of renders per fit: K + 1 for the first Jacobian, then one per step (K more whenever it is taken afresh). */
const MAX_RENDERS = 48;
/** Levenberg–Marquardt damping: where it starts, and where a Jacobian counts as no longer pointing downhill. */
const LAMBDA_START = 1e-3;
const LAMBDA_MAX = 10;
/** Stop when an accepted step lowers the cost by less than this fraction. */
const MIN_GAIN = 1e-4;

/** Bounds per parameter: slider ranges; temperature's in mireds (high kelvin = low mired). */
const LOWER = FITTED_SLIDERS.map((k) => (k === 'temperature' ? mired(SETTING_RANGES.temperature[1]) : SETTING_RANGES[k][0]));
const UPPER = FITTED_SLIDERS.map((k) => (k === 'temperature' ? mired(SETTING_RANGES.temperature[0]) : SETTING_RANGES[k][1]));

/** CIELAB of every pixel, interleaved. */
export function labImage(image: Image16): Float32Array {
  const lin = srgb16ToLinearLut();
  const out = new Float32Array(image.data.length);
  const lab = new Float64Array(3);
  for (let i = 0; i < out.length; i += 3) {
    linearToLab(lin[image.data[i]!]!, lin[image.data[i + 1]!]!, lin[image.data[i + 2]!]!, lab);
    out[i] = lab[0]!;
    out[i + 1] = lab[1]!;
    out[i + 2] = lab[2]!;
  }
  return out;
}

/** Mean CIEDE2000 between two CIELAB images of the same size. */
export function meanDeltaE00(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 3) sum += ciede2000(a[i]!, a[i + 1]!, a[i + 2]!, b[i]!, b[i + 1]!, b[i + 2]!);
  return sum / (a.length / 3);
}

export interface SettingsFit {
  settings: DevelopSettings;
  /** Accepted Levenberg–Marquardt steps. */
  iterations: number;
  /** Renders the fit cost. */
  renders: number;
}

function toParameters(s: DevelopSettings): Float64Array {
  return Float64Array.from(FITTED_SLIDERS, (k) => (k === 'temperature' ? mired(s.temperature) : s[k]));
}

function toSettings(base: DevelopSettings, p: Float64Array): DevelopSettings {
  const out = { ...base };
  FITTED_SLIDERS.forEach((k, j) => {
    out[k] = k === 'temperature' ? 1e6 / p[j]! : p[j]!;
  });
  return out;
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** The Jacobian of the residuals in normalised units, by columns, with JᵀJ kept in step. */
class Jacobian {
  readonly columns: Float32Array[];
  readonly jtj = new Float64Array(K * K);
  private readonly scratch: Float32Array;

  constructor(length: number) {
    this.columns = Array.from({ length: K }, () => new Float32Array(length));
    this.scratch = new Float32Array(length);
  }

  /** Recomputes JᵀJ once the columns were set by differences. */
  refresh(): void {
    for (let j = 0; j < K; j++) for (let m = 0; m <= j; m++) this.jtj[j * K + m] = this.jtj[m * K + j] = dot(this.columns[j]!, this.columns[m]!);
  }

  /** Jᵀv. */
  transposeTimes(v: Float32Array): Float64Array {
    return Float64Array.from(this.columns, (c) => dot(c, v));
  }

  /**
   * Broyden's rank-one correction J += u dqᵀ, u = (rNext − r − J dq) / |dq|², for a step dq
   * that took the residuals from r to rNext; JᵀJ gains Jᵀu dqᵀ + dq uᵀJ + |u|² dq dqᵀ.
   */
  update(dq: Float64Array, r: Float32Array, rNext: Float32Array): void {
    const norm = dq.reduce((s, v) => s + v * v, 0);
    if (norm === 0) return;
    const u = this.scratch;
    for (let i = 0; i < u.length; i++) u[i] = rNext[i]! - r[i]!;
    for (let j = 0; j < K; j++) {
      const c = this.columns[j]!;
      const d = dq[j]!;
      for (let i = 0; i < u.length; i++) u[i]! -= c[i]! * d;
    }
    for (let i = 0; i < u.length; i++) u[i]! /= norm;
    const ju = this.transposeTimes(u);
    const uu = dot(u, u);
    for (let j = 0; j < K; j++) {
      const c = this.columns[j]!;
      const d = dq[j]!;
      for (let i = 0; i < u.length; i++) c[i]! += u[i]! * d;
    }
    for (let j = 0; j < K; j++) for (let m = 0; m < K; m++) this.jtj[j * K + m]! += ju[j]! * dq[m]! + dq[j]! * ju[m]! + uu * dq[j]! * dq[m]!;
  }
}

/**
 * The settings, starting from `start`, whose render of `original` comes closest to the
 * CIELAB image `goal` (labImage of the edit, same size); fields other than the fitted
 * sliders stay as in `start`.
 */
export async function fitSettings(original: Image16, goal: Float32Array, start: DevelopSettings): Promise<SettingsFit> {
  const n = original.width * original.height;
  const p0 = toParameters(start);
  let renders = 0;

  /** Residuals (rendered − goal, CIELAB) of normalised parameters q, written into out; returns the mean squared ΔE76 plus the prior. */
  const cost = async (q: Float64Array, out: Float32Array): Promise<number> => {
    const p = p0.map((v, j) => v + q[j]! * UNIT[j]!);
    const lab = labImage(await render(original, toSettings(start, p)));
    renders++;
    let sum = 0;
    for (let i = 0; i < out.length; i++) {
      const d = lab[i]! - goal[i]!;
      out[i] = d;
      sum += d * d;
    }
    return sum / n + PRIOR * q.reduce((s, v) => s + v * v, 0);
  };
  /** Normalised parameters moved by step, clamped into the sliders' ranges. */
  const moved = (q: Float64Array, step: Float64Array): Float64Array =>
    q.map((v, j) => {
      const p = Math.min(UPPER[j]!, Math.max(LOWER[j]!, p0[j]! + (v + step[j]!) * UNIT[j]!));
      return (p - p0[j]!) / UNIT[j]!;
    });

  let q: Float64Array = new Float64Array(K);
  let r = new Float32Array(3 * n);
  let trial = new Float32Array(3 * n);
  let current = await cost(q, r);
  const jacobian = new Jacobian(3 * n);
  /** Forward differences at q: one render per slider. */
  const differentiate = async (): Promise<void> => {
    for (let j = 0; j < K; j++) {
      // Step inwards at an upper bound, so the difference stays inside the range.
      const h = p0[j]! + (q[j]! + STEP) * UNIT[j]! > UPPER[j]! ? -STEP : STEP;
      const probe = Float64Array.from(q);
      probe[j] = q[j]! + h;
      const col = jacobian.columns[j]!;
      await cost(probe, col);
      for (let i = 0; i < col.length; i++) col[i] = (col[i]! - r[i]!) / h;
    }
    jacobian.refresh();
  };

  await differentiate();
  let fresh = true;
  let lambda = LAMBDA_START;
  let iterations = 0;
  while (renders < MAX_RENDERS) {
    // Damped normal equations of mean squared residual + prior: (JᵀJ/n + PRIOR·I)(1 + λ on the diagonal) δ = −(Jᵀr/n + PRIOR·q).
    const g = jacobian.transposeTimes(r).map((v, j) => -(v / n + PRIOR * q[j]!));
    const a = jacobian.jtj.map((v, idx) => {
      const diagonal = idx % (K + 1) === 0;
      return (v / n + (diagonal ? PRIOR : 0)) * (diagonal ? 1 + lambda : 1);
    });
    const candidate = moved(q, solveSpd(a, g, K));
    const next = await cost(candidate, trial);
    jacobian.update(
      candidate.map((v, j) => v - q[j]!),
      r,
      trial,
    );
    if (next < current) {
      const gain = (current - next) / current;
      q = candidate;
      current = next;
      [r, trial] = [trial, r];
      lambda = Math.max(LAMBDA_START / 64, lambda / 4);
      fresh = false;
      iterations++;
      if (gain < MIN_GAIN) break;
    } else if (lambda < LAMBDA_MAX) lambda *= 8;
    else if (fresh) break;
    else {
      // The updated Jacobian no longer points downhill: take it afresh before giving up.
      await differentiate();
      fresh = true;
      lambda = LAMBDA_START;
    }
  }
  const p = p0.map((v, j) => v + q[j]! * UNIT[j]!);
  return { settings: toSettings(start, p), iterations, renders };
}
