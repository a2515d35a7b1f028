/** Ridge regression on standardised features: normal equations solved by Cholesky. */
import { solveSpd } from '../../src/imaging/cholesky.js';

/** Solves (A + λ·n·I) β = b for a symmetric positive definite A of size f (row-major). */
function solveRidge(gram: Float64Array, rhs: Float64Array, f: number, ridge: number): Float64Array {
  const a = Float64Array.from(gram);
  for (let i = 0; i < f; i++) a[i * f + i] += ridge;
  return solveSpd(a, rhs, f);
}

/** Centred normal equations of the rows picked (a row may be picked more than once). */
export interface Normal {
  n: number;
  f: number;
  xMean: Float64Array;
  yMean: Float64Array;
  gram: Float64Array;
  /** Per target, Xcᵀ yc. */
  cross: Float64Array[];
}

export function normalEquations(x: Float64Array[], y: Float64Array[], rows: readonly number[]): Normal {
  const f = x[0]!.length;
  const t = y[0]!.length;
  const n = rows.length;
  const xMean = new Float64Array(f);
  const yMean = new Float64Array(t);
  for (const r of rows) {
    for (let i = 0; i < f; i++) xMean[i] += x[r]![i]! / n;
    for (let k = 0; k < t; k++) yMean[k] += y[r]![k]! / n;
  }
  const gram = new Float64Array(f * f);
  const cross = Array.from({ length: t }, () => new Float64Array(f));
  const xc = new Float64Array(f);
  for (const r of rows) {
    for (let i = 0; i < f; i++) xc[i] = x[r]![i]! - xMean[i]!;
    for (let i = 0; i < f; i++) {
      const xi = xc[i]!;
      if (xi === 0) continue;
      for (let j = 0; j <= i; j++) gram[i * f + j] += xi * xc[j]!;
      for (let k = 0; k < t; k++) cross[k]![i] += xi * (y[r]![k]! - yMean[k]!);
    }
  }
  for (let i = 0; i < f; i++) for (let j = 0; j < i; j++) gram[j * f + i] = gram[i * f + j]!;
  return { n, f, xMean, yMean, gram, cross };
}

/** Intercept then coefficients for target k at ridge strength λ (per row, so folds of any size compare). */
export function fitTarget(normal: Normal, k: number, lambda: number): number[] {
  const beta = solveRidge(normal.gram, normal.cross[k]!, normal.f, lambda * normal.n);
  let intercept = normal.yMean[k]!;
  for (let i = 0; i < normal.f; i++) intercept -= beta[i]! * normal.xMean[i]!;
  return [intercept, ...beta];
}

export function applyLinear(coefficients: readonly number[], x: Float64Array): number {
  let s = coefficients[0]!;
  for (let i = 0; i < x.length; i++) s += coefficients[i + 1]! * x[i]!;
  return s;
}
