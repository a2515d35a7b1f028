/**
 * Per-coordinate taps for bilinear sampling along one axis: destination pixel i (of
 * count) reads source pixels lo[i] and hi[i] (of size) with weight t[i] on hi.
 * Pixel centres are aligned, as when a whole image is scaled; start and span select a
 * sub-range of the source instead (in source pixels).
 */
export interface AxisTaps {
  lo: Int32Array;
  hi: Int32Array;
  t: Float32Array;
}

export function axisTaps(count: number, size: number, start = 0, span = size): AxisTaps {
  const lo = new Int32Array(count);
  const hi = new Int32Array(count);
  const t = new Float32Array(count);
  const step = span / count;
  for (let i = 0; i < count; i++) {
    const at = Math.min(size - 1, Math.max(0, start + (i + 0.5) * step - 0.5));
    const l = Math.floor(at);
    lo[i] = l;
    hi[i] = Math.min(size - 1, l + 1);
    t[i] = at - l;
  }
  return { lo, hi, t };
}
