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

/** Byte offsets of planes (plus scratch) laid out in the tool kernels' memory, which is grown to hold them. */
function layout(k: ToolKernels, floats: number[]): number[] {
  const l = arena(Object.fromEntries(floats.map((n, i) => [String(i), 4 * n])));
  reserve(k, l.end);
  return floats.map((_, i) => l[String(i)]!);
}

function copyIn(k: ToolKernels, at: number, data: Float32Array): void {
  new Float32Array(k.memory.buffer, at, data.length).set(data);
}

function copyOut(k: ToolKernels, at: number, into: Float32Array): void {
  into.set(new Float32Array(k.memory.buffer, at, into.length));
}

/** Levels 0 (the base itself) to count - 1, each half the size of the one before (reducePlane in the WebAssembly kernels). */
export function gaussianPyramid(base: Plane, count: number): Plane[] {
  const levels = [base];
  for (let l = 1, w = base.width, h = base.height; l < count; l++) {
    w = (w + 1) >> 1;
    h = (h + 1) >> 1;
    levels.push({ width: w, height: h, data: new Float32Array(w * h) });
  }
  const k = toolKernels();
  const at = layout(k, [base.width + 32, ...levels.map((p) => p.data.length)]);
  copyIn(k, at[1]!, base.data);
  for (let l = 1; l < count; l++) {
    const src = levels[l - 1]!;
    k.reducePlane(at[l]!, src.width, src.height, at[0]!, at[l + 1]!);
    copyOut(k, at[l + 1]!, levels[l]!.data);
  }
  return levels;
}

/**
 * Adds weight x (fine - expand(coarse)), a weighted Laplacian band, into sum; without a coarser
 * level (the top of the pyramid), weight x fine. Weights of half the size (the finest band's)
 * are expanded too. addBandRows in the WebAssembly kernels, row by row.
 */
export function addWeightedBand(sum: Float32Array, weight: Plane, fine: Plane, coarse: Plane | null): void {
  const { width, height } = fine;
  const k = toolKernels();
  const wc = (width + 1) >> 1;
  const [vert, row, weightRow, s, w, f, c] = layout(k, [wc + 16, width + 16, width + 16, sum.length, weight.data.length, fine.data.length, coarse?.data.length ?? 0]);
  copyIn(k, s!, sum);
  copyIn(k, w!, weight.data);
  copyIn(k, f!, fine.data);
  if (coarse) copyIn(k, c!, coarse.data);
  k.addBandRows(s!, w!, weight.width !== width ? 1 : 0, f!, width, height, c!, coarse?.width ?? 0, coarse?.height ?? 0, vert!, row!, weightRow!);
  copyOut(k, s!, sum);
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
