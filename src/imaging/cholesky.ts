/** Symmetric positive-definite linear systems, small and dense: the least-squares fits' normal equations. */

/** Solves A x = b for a symmetric positive-definite A (n × n, row-major) by Cholesky; a pivot is floored at 1e-12. */
export function solveSpd(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let sum = a[i * n + j]!;
      for (let m = 0; m < j; m++) sum -= l[i * n + m]! * l[j * n + m]!;
      l[i * n + j] = i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / l[j * n + j]!;
    }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = b[i]!;
    for (let m = 0; m < i; m++) sum -= l[i * n + m]! * y[m]!;
    y[i] = sum / l[i * n + i]!;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let m = i + 1; m < n; m++) sum -= l[m * n + i]! * x[m]!;
    x[i] = sum / l[i * n + i]!;
  }
  return x;
}
