import { arena, reserve, type ToolKernels, toolKernels } from '../kernels.js';
import type { Plane } from './luma.js';

/**
 * Burt & Adelson pyramids over single-channel float planes (colour images are blended one
 * plane per channel), with the 5-tap binomial kernel [1 4 6 4 1]/16, mirrored at the edges.
 * Each pass filters vertically into one row, then horizontally, so a level costs one read of
 * its source. Expansion upsamples with the same kernel: even outputs take (1, 6, 1)/8 of their
 * coarse neighbours, odd ones (1, 1)/2, in each direction, coarse edges repeated (reconstruction
 * is exact whatever the edge rule, as long as one rule is used throughout). The passes run in the
 * WebAssembly kernels (f32 SIMD, kernels/tools.ts).
 */

/** Rows of a level reduced or added per call: the kernels' memory holds chunks of planes, not whole ones. */
export const CHUNK_ROWS = 64;

/** Byte offsets of planes (plus scratch) laid out in the tool kernels' memory, which is grown to hold them. */
function layout(k: ToolKernels, floats: number[]): number[] {
  const l = arena(Object.fromEntries(floats.map((n, i) => [String(i), 4 * n])));
  reserve(k, l.end);
  return floats.map((_, i) => l[String(i)]!);
}

/** The rows of a coarse level of `coarseHeight` rows that expanding fine rows y0..y1 - 1 reads (from row0 to row1 - 1). */
export function expansionRows(y0: number, y1: number, coarseHeight: number): { row0: number; row1: number } {
  return { row0: Math.max(0, (y0 >> 1) - 1), row1: Math.min(coarseHeight, ((y1 - 1) >> 1) + 2) };
}

function copyIn(k: ToolKernels, at: number, data: Float32Array): void {
  new Float32Array(k.memory.buffer, at, data.length).set(data);
}

function copyOut(k: ToolKernels, at: number, into: Float32Array): void {
  into.set(new Float32Array(k.memory.buffer, at, into.length));
}

/**
 * Levels 0 (the base itself) to count - 1, each half the size of the one before (reducePlane in
 * the WebAssembly kernels, CHUNK_ROWS output rows at a time). Level l goes into reuse[l - 1] when
 * that has its size, else into a new array, which is left there for the next call.
 */
export function gaussianPyramid(base: Plane, count: number, reuse: Float32Array[] = []): Plane[] {
  const levels = [base];
  const k = toolKernels();
  // An output chunk reads its source rows 2 y2a - 2 to 2 y2b.
  const [row, src, out] = layout(k, [base.width + 32, (2 * CHUNK_ROWS + 3) * base.width, CHUNK_ROWS * ((base.width + 1) >> 1)]);
  for (let l = 1; l < count; l++) {
    const { width, height, data } = levels[l - 1]!;
    const w2 = (width + 1) >> 1;
    const h2 = (height + 1) >> 1;
    if (reuse[l - 1]?.length !== w2 * h2) reuse[l - 1] = new Float32Array(w2 * h2);
    const level = { width: w2, height: h2, data: reuse[l - 1]! };
    for (let y2a = 0; y2a < h2; y2a += CHUNK_ROWS) {
      const y2b = Math.min(h2, y2a + CHUNK_ROWS);
      const row0 = Math.max(0, 2 * y2a - 2);
      copyIn(k, src!, data.subarray(row0 * width, Math.min(height, 2 * y2b + 1) * width));
      k.reducePlane(src!, width, height, row0, y2a, y2b, row!, out!);
      copyOut(k, out!, level.data.subarray(y2a * w2, y2b * w2));
    }
    levels.push(level);
  }
  return levels;
}

/**
 * Adds weight x (fine - expand(coarse)), a weighted Laplacian band, into sum; without a coarser
 * level (the top of the pyramid), weight x fine. Weights of half the size (the finest band's)
 * are expanded too. addBandRows in the WebAssembly kernels, CHUNK_ROWS rows at a time.
 */
export function addWeightedBand(sum: Float32Array, weight: Plane, fine: Plane, coarse: Plane | null): void {
  const { width, height } = fine;
  const wc = (width + 1) >> 1;
  const hc = (height + 1) >> 1;
  const half = weight.width !== width;
  const k = toolKernels();
  const chunk = Math.min(height, CHUNK_ROWS);
  // Each chunk's half-size rows: the expansion of rows y0..y1 - 1 reads (y0 >> 1) - 1 to ((y1 - 1) >> 1) + 1.
  const halfRows = (chunk >> 1) + 3;
  const [vert, row, weightRow, s, w, f, c] = layout(k, [wc + 16, width + 16, width + 16, chunk * width, half ? halfRows * wc : chunk * width, chunk * width, halfRows * wc]);
  for (let y0 = 0; y0 < height; y0 += chunk) {
    const y1 = Math.min(height, y0 + chunk);
    const { row0, row1 } = expansionRows(y0, y1, hc);
    copyIn(k, s!, sum.subarray(y0 * width, y1 * width));
    copyIn(k, f!, fine.data.subarray(y0 * width, y1 * width));
    copyIn(k, w!, half ? weight.data.subarray(row0 * wc, row1 * wc) : weight.data.subarray(y0 * width, y1 * width));
    if (coarse) copyIn(k, c!, coarse.data.subarray(row0 * wc, row1 * wc));
    k.addBandRows(s!, w!, half ? 1 : 0, f!, width, y0, y1, c!, wc, coarse ? hc : 0, row0, vert!, row!, weightRow!);
    copyOut(k, s!, sum.subarray(y0 * width, y1 * width));
  }
}

/**
 * Collapses a Laplacian pyramid: from the top, each band plus the expansion of the collapsed
 * band above (addExpanded in the WebAssembly kernels), into the base; the levels above keep
 * their bands.
 */
export function collapsePyramid(bands: Plane[]): void {
  const base = bands[0]!;
  const k = toolKernels();
  const [vert, row, ...at] = layout(k, [((base.width + 1) >> 1) + 16, base.width + 16, ...bands.map((b) => b.data.length)]);
  bands.forEach((b, l) => {
    copyIn(k, at[l]!, b.data);
  });
  for (let l = bands.length - 2; l >= 0; l--) {
    const { width, height } = bands[l]!;
    const coarse = bands[l + 1]!;
    k.addExpanded(at[l]!, width, height, at[l + 1]!, coarse.width, coarse.height, vert!, row!);
  }
  copyOut(k, at[0]!, base.data);
}

/** Number of levels that takes the short side down to 2-3 px, as Mertens et al. do. */
export function levelCount(width: number, height: number): number {
  return Math.max(1, Math.floor(Math.log2(Math.min(width, height))));
}
