import { arena, reserve, toolKernels } from '../kernels.js';

/**
 * Mean over a (2r+1)² window of a single-channel float image, by running sums in two
 * separable passes, so the cost does not depend on r. Windows are clipped at the borders
 * and divided by the pixels they actually cover. out may be src. In the WebAssembly
 * kernel (kernels/tools.ts), through its memory: three image-sized f32 buffers there,
 * which the analysis-sized images every caller passes keep to a few MB.
 */
export function boxMean(src: Float32Array, width: number, height: number, radius: number, out = new Float32Array(width * height)): Float32Array {
  const n = width * height;
  const k = toolKernels();
  const l = arena({ src: n * 4, rows: n * 4, sums: (width + 2) * 8 });
  reserve(k, l.end);
  new Float32Array(k.memory.buffer, l.src, n).set(src.subarray(0, n));
  k.boxMean(l.src, width, height, radius, l.rows, l.sums, l.src);
  out.set(new Float32Array(k.memory.buffer, l.src, n));
  return out;
}
