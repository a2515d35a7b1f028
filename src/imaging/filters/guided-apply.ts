/**
 * The fast guided filter's full-size evaluation (filters/guided.ts solves its coefficients).
 * A module of its own: it shares work over the imaging threads (bands.ts), which the grey
 * guided filter's users are imported by.
 */
import { isShared, sharedFloat32, sharedWork } from '../bands.js';
import { arena, reserve, toolKernels } from '../kernels.js';
import { type AxisTaps, axisTaps } from '../local/bilinear.js';
import type { Box, Image16 } from '../types.js';
import type { GuidedCoefficients } from './guided.js';

/** Rows evaluated per call into the kernel: its buffers stay a few MB whatever the image. */
const CHUNK_ROWS = 64;
/** Rows per item when the imaging threads share the evaluation: each item loads the coefficient grid into its thread's kernel once. */
const ITEM_ROWS = 256;

interface GuidedJob {
  /** The coefficients as (a_r, a_g, a_b, b) quadruples, the kernel's layout. */
  grid: Float32Array;
  gridWidth: number;
  gridHeight: number;
  image: Image16;
  region: { x0: number; y0: number; x1: number; y1: number };
  /** The output: the image's size, or the region's alone (cropped). */
  out: Float32Array;
  cropped: boolean;
  /** When asked for: per row, the first column whose output is above 0 and one past the last (equal when none). */
  spans: Int32Array | null;
  /** Per grid row, the first cell that can give an output above 0 and one past the last (equal when none): see liveCells. */
  live: Int32Array;
  /** The column taps into the grid; per grid column c, the first image column whose left tap is c or beyond (from[gridWidth]: the width). */
  xs: AxisTaps;
  from: Int32Array;
}

/**
 * Per row of the coefficient grid, the cells that can make an output above 0. The output is
 * a·I + b of a guide in 0..1, clamped at 0: it stays 0 where a and b are all 0, or b + Σ max(a, 0) is below 0, for
 * every cell a pixel's taps read (a bilinear mix of cells is bounded by the largest bound),
 * with a margin far wider than the kernel's f32 rounding. Masks are 0 over most of a photo:
 * only the rest is evaluated.
 */
function liveCells(a: Float32Array, b: Float32Array, width: number, height: number): Int32Array {
  const live = new Int32Array(height * 2);
  for (let y = 0; y < height; y++) {
    let first = width;
    let end = 0;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const r = a[i * 3]!,
        g = a[i * 3 + 1]!,
        bl = a[i * 3 + 2]!,
        c = b[i]!;
      // A cell of zeros gives 0 exactly (far from any sky, the filter's input is 0 throughout its windows).
      if (r === 0 && g === 0 && bl === 0 && c === 0) continue;
      const top = c + Math.max(r, 0) + Math.max(g, 0) + Math.max(bl, 0);
      // NaN coefficients fail the test and count as live, as they are evaluated.
      if (top + 1e-5 * (1 + Math.abs(c) + Math.abs(r) + Math.abs(g) + Math.abs(bl)) <= 0) continue;
      if (x < first) first = x;
      end = x + 1;
    }
    live[y * 2] = end === 0 ? 0 : first;
    live[y * 2 + 1] = end;
  }
  return live;
}

/**
 * Evaluates the filter on the full-size image: bilinearly upsampled a, b against the
 * full-resolution guide, output clamped to 0..1. In the WebAssembly kernel (kernels/tools.ts),
 * rows in chunks through its memory; over the imaging threads in bands of rows when the
 * image's pixels are shared (bands.ts).
 */
export async function applyGuidedCoefficients(coefficients: GuidedCoefficients, image: Image16, region?: Box): Promise<Float32Array> {
  return (await evaluate(coefficients, image, region, false, false)).out;
}

/**
 * applyGuidedCoefficients within the region alone, as an image of the region's size (its part
 * inside the image, row-major): a tool that works around a few windows needs no full-size buffer.
 */
export async function guidedRegion(coefficients: GuidedCoefficients, image: Image16, region: Box): Promise<Float32Array> {
  return (await evaluate(coefficients, image, region, false, true)).out;
}

/**
 * applyGuidedCoefficients over the whole image, and per row where its output holds
 * anything (the first column above 0 and one past the last; equal when none), found as
 * each band is evaluated: a mask that covers part of the photo is then read there only.
 */
export async function guidedMaskWithSpans(coefficients: GuidedCoefficients, image: Image16): Promise<{ mask: Float32Array; spans: Int32Array }> {
  const { out, spans } = await evaluate(coefficients, image, undefined, true, false);
  return { mask: out, spans: spans! };
}

async function evaluate(coefficients: GuidedCoefficients, image: Image16, region: Box | undefined, withSpans: boolean, cropped: boolean): Promise<{ out: Float32Array; spans: Int32Array | null }> {
  const { width, height, data } = image;
  // Only the region is computed (the rest stays 0): a small mask need not cost a full-size pass.
  const x0 = region ? Math.max(0, region.x) : 0;
  const y0 = region ? Math.max(0, region.y) : 0;
  const x1 = region ? Math.min(width, region.x + region.width) : width;
  const y1 = region ? Math.min(height, region.y + region.height) : height;
  const shared = isShared(data);
  const size = cropped ? Math.max(0, x1 - x0) * Math.max(0, y1 - y0) : width * height;
  const out = shared ? sharedFloat32(size) : new Float32Array(size);
  const spans = withSpans ? (shared ? new Int32Array(new SharedArrayBuffer(height * 8)) : new Int32Array(height * 2)) : null;
  if (x1 <= x0 || y1 <= y0) return { out, spans };
  const { width: cw, height: ch, a, b } = coefficients;
  const grid = shared ? sharedFloat32(cw * ch * 4) : new Float32Array(cw * ch * 4);
  for (let i = 0; i < cw * ch; i++) {
    grid[i * 4] = a[i * 3]!;
    grid[i * 4 + 1] = a[i * 3 + 1]!;
    grid[i * 4 + 2] = a[i * 3 + 2]!;
    grid[i * 4 + 3] = b[i]!;
  }
  const xs = axisTaps(width, cw);
  const from = new Int32Array(cw + 1);
  for (let c = 0, x = 0; c <= cw; c++) {
    while (x < width && xs.lo[x]! < c) x++;
    from[c] = x;
  }
  const job: GuidedJob = { grid, gridWidth: cw, gridHeight: ch, image, region: { x0, y0, x1, y1 }, out, cropped, spans, live: liveCells(a, b, cw, ch), xs, from };
  const items = Math.ceil((y1 - y0) / ITEM_ROWS);
  if (shared) await guidedBands(job, items);
  else for (let item = 0; item < items; item++) evaluateItem(job, item);
  loaded = null;
  return { out, spans };
}

/**
 * The job whose coefficient grid and column taps this thread's kernel holds. A thread runs a
 * job's items one after another with no other kernel work between them (bands.ts), so they
 * are loaded once per job and thread, not once per item. Weakly: a helper must not keep a
 * finished job's pixels alive.
 */
let loaded: WeakRef<GuidedJob> | null = null;

/** Rows y0 + item · ITEM_ROWS on (at most ITEM_ROWS) of the job's region into job.out, in the kernel of the thread that runs it; per row only the columns whose taps read live cells. */
function evaluateItem(job: GuidedJob, item: number): void {
  const { grid, gridWidth: cw, gridHeight: ch, image, region, out, cropped, spans, live, xs, from } = job;
  const { width, height, data } = image;
  const { x0, x1 } = region;
  const top = region.y0 + item * ITEM_ROWS;
  const bottom = Math.min(region.y1, top + ITEM_ROWS);
  const count = x1 - x0;
  const k = toolKernels();
  const l = arena({ coef: cw * ch * 16, rowTaps: CHUNK_ROWS * 12, colTaps: count * 8, row: (cw + 1) * 16, guide: CHUNK_ROWS * width * 6, out: CHUNK_ROWS * count * 4, spans: 8 });
  reserve(k, l.end);
  const memory = k.memory.buffer;
  if (loaded?.deref() !== job) {
    new Float32Array(memory, l.coef, cw * ch * 4).set(grid);
    const colIndex = new Int32Array(memory, l.colTaps, count * 2);
    const colWeight = new Float32Array(memory, l.colTaps, count * 2);
    for (let x = x0; x < x1; x++) {
      colIndex[(x - x0) * 2] = xs.lo[x]!;
      colWeight[(x - x0) * 2 + 1] = xs.t[x]!;
    }
    loaded = new WeakRef(job);
  }
  const ys = axisTaps(height, ch);
  const rowIndex = new Int32Array(memory, l.rowTaps, CHUNK_ROWS * 3);
  const rowWeight = new Float32Array(memory, l.rowTaps, CHUNK_ROWS * 3);
  const guide = new Uint16Array(memory, l.guide, CHUNK_ROWS * width * 3);
  const chunk = new Float32Array(memory, l.out, CHUNK_ROWS * count);
  const found = new Int32Array(memory, l.spans, 2);
  for (let c0 = top; c0 < bottom; c0 += CHUNK_ROWS) {
    const rows = Math.min(CHUNK_ROWS, bottom - c0);
    for (let r = 0; r < rows; r++) {
      const y = c0 + r;
      rowIndex[r * 3] = ys.lo[y]!;
      rowIndex[r * 3 + 1] = ys.hi[y]!;
      rowWeight[r * 3 + 2] = ys.t[y]!;
      const above = ys.lo[y]! * 2;
      const below = ys.hi[y]! * 2;
      const first = Math.min(live[above + 1]! > live[above]! ? live[above]! : cw, live[below + 1]! > live[below]! ? live[below]! : cw);
      const end = Math.max(live[above + 1]!, live[below + 1]!);
      // A column reads cells lo and lo + 1: those reading live ones are from[first − 1] up to from[end]. The rest of
      // the row stays 0, as out is fresh: evaluated, it would come out 0.
      const xa = end > first ? Math.max(x0, from[Math.max(0, first - 1)]!) : x0;
      const xb = end > first ? Math.min(x1, from[end]!) : x0;
      if (spans) {
        spans[y * 2] = 0;
        spans[y * 2 + 1] = 0;
      }
      if (xb <= xa) continue;
      guide.set(data.subarray((y * width + xa) * 3, (y * width + xb) * 3), (r * width + xa) * 3);
      const at = r * count + xa - x0;
      k.guidedRows(l.coef, cw, l.rowTaps + r * 12, l.colTaps + (xa - x0) * 8, l.row, l.guide + (r * width + xa) * 6, width * 3, xb - xa, 1, l.out + at * 4);
      if (spans) {
        // The whole image (x0 = 0): only the row's span of nonzero values is written, and the pages of rows without sky are never touched.
        k.nonzeroSpans(l.out + at * 4, xb - xa, 1, l.spans);
        if (found[1]! > found[0]!) {
          spans[y * 2] = xa + found[0]!;
          spans[y * 2 + 1] = xa + found[1]!;
          out.set(chunk.subarray(at + found[0]!, at + found[1]!), y * width + xa + found[0]!);
        }
      } else out.set(chunk.subarray(at, at + xb - xa), cropped ? (y - region.y0) * count + xa - x0 : y * width + xa);
    }
  }
}

/** The evaluation's bands spread over the imaging threads (bands.ts) when the image is shared. */
const guidedBands = sharedWork('guided-filter', evaluateItem);
