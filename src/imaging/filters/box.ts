/**
 * Mean over a (2r+1)² window of a single-channel float image, by running sums in two
 * separable passes, so the cost does not depend on r. Windows are clipped at the borders
 * and divided by the pixels they actually cover. out may be src: the first pass reads it whole.
 */
export function boxMean(src: Float32Array, width: number, height: number, radius: number, out = new Float32Array(width * height)): Float32Array {
  const rows = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let sum = 0;
    for (let x = 0; x <= Math.min(radius, width - 1); x++) sum += src[row + x]!;
    for (let x = 0; x < width; x++) {
      const lo = Math.max(0, x - radius);
      const hi = Math.min(width - 1, x + radius);
      rows[row + x] = sum / (hi - lo + 1);
      if (x + radius + 1 < width) sum += src[row + x + radius + 1]!;
      if (x - radius >= 0) sum -= src[row + x - radius]!;
    }
  }
  const sums = new Float64Array(width);
  for (let y = 0; y <= Math.min(radius, height - 1); y++) for (let x = 0; x < width; x++) sums[x]! += rows[y * width + x]!;
  for (let y = 0; y < height; y++) {
    const count = Math.min(height - 1, y + radius) - Math.max(0, y - radius) + 1;
    const row = y * width;
    for (let x = 0; x < width; x++) out[row + x] = sums[x]! / count;
    const add = y + radius + 1;
    const drop = y - radius;
    if (add < height) for (let x = 0; x < width; x++) sums[x]! += rows[add * width + x]!;
    if (drop >= 0) for (let x = 0; x < width; x++) sums[x]! -= rows[drop * width + x]!;
  }
  return out;
}
