/**
 * Box means and the grey-guided filter (He, Sun & Tang, "Guided Image Filtering", 2013)
 * on single-channel float images: the edge-preserving smoothing behind skin retouching
 * and the edge refinement of subject masks.
 */

/**
 * Mean over the (2r+1)² window around each pixel, by running sums in two separable passes
 * (cost independent of r); windows are clipped at the borders and divided by what they cover.
 */
export function boxMean(src: Float32Array, width: number, height: number, radius: number, out: Float32Array = new Float32Array(width * height)): Float32Array {
  const tmp = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = 0; x <= Math.min(radius, width - 1); x++) sum += src[row + x]!;
    for (let x = 0; x < width; x++) {
      const lo = x - radius;
      const hi = x + radius;
      tmp[row + x] = sum / (Math.min(hi, width - 1) - Math.max(lo, 0) + 1);
      if (hi + 1 < width) sum += src[row + hi + 1]!;
      if (lo >= 0) sum -= src[row + lo]!;
    }
  }
  const sums = new Float64Array(width);
  for (let y = 0; y <= Math.min(radius, height - 1); y++) for (let x = 0; x < width; x++) sums[x] += tmp[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const lo = y - radius;
    const hi = y + radius;
    const count = Math.min(hi, height - 1) - Math.max(lo, 0) + 1;
    const row = y * width;
    const add = hi + 1 < height ? (hi + 1) * width : -1;
    const sub = lo >= 0 ? lo * width : -1;
    for (let x = 0; x < width; x++) {
      out[row + x] = sums[x]! / count;
      if (add >= 0) sums[x] += tmp[add + x]!;
      if (sub >= 0) sums[x] -= tmp[sub + x]!;
    }
  }
  return out;
}

/**
 * The guided filter of p under a grey guide: within each window the output is a·guide + b,
 * fitted to p by least squares; eps (in squared guide units) regularises flat windows, so
 * variations of the guide well below sqrt(eps) are smoothed away while stronger edges are kept.
 * With guide = p it is an edge-preserving smoother.
 */
export function guidedFilter(guide: Float32Array, p: Float32Array, width: number, height: number, radius: number, eps: number): Float32Array {
  const n = width * height;
  const product = new Float32Array(n);
  const square = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    product[i] = guide[i]! * p[i]!;
    square[i] = guide[i]! * guide[i]!;
  }
  const meanI = boxMean(guide, width, height, radius);
  const meanP = boxMean(p, width, height, radius);
  const meanIp = boxMean(product, width, height, radius, product);
  const meanII = boxMean(square, width, height, radius, square);
  // Reuse the product/square buffers for the coefficients a and b.
  const a = meanIp;
  const b = meanII;
  for (let i = 0; i < n; i++) {
    const mi = meanI[i]!;
    const ai = (meanIp[i]! - mi * meanP[i]!) / (meanII[i]! - mi * mi + eps);
    a[i] = ai;
    b[i] = meanP[i]! - ai * mi;
  }
  const meanA = boxMean(a, width, height, radius, meanI);
  const meanB = boxMean(b, width, height, radius, meanP);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = meanA[i]! * guide[i]! + meanB[i]!;
  return out;
}
