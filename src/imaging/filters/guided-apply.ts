/**
 * The fast guided filter's full-size evaluation (filters/guided.ts solves its coefficients).
 * A module of its own: it shares work over the imaging threads (bands.ts), which the grey
 * guided filter's users are imported by.
 */
import { isShared, sharedFloat32, sharedWork } from '../bands.js';
import { arena, reserve, toolKernels } from '../kernels.js';
import { axisTaps } from '../local/bilinear.js';
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
  out: Float32Array;
  /** When asked for: per row, the first column whose output is above 0 and one past the last (equal when none). */
  spans: Int32Array | null;
}

/**
 * Evaluates the filter on the full-size image: bilinearly upsampled a, b against the
 * full-resolution guide, output clamped to 0..1. In the WebAssembly kernel (kernels/tools.ts),
 * rows in chunks through its memory; over the imaging threads in bands of rows when the
 * image's pixels are shared (bands.ts).
 */
export async function applyGuidedCoefficients(coefficients: GuidedCoefficients, image: Image16, region?: Box): Promise<Float32Array> {
  return (await evaluate(coefficients, image, region, false)).out;
}

/**
 * applyGuidedCoefficients over the whole image, and per row where its output holds
 * anything (the first column above 0 and one past the last; equal when none), found as
 * each band is evaluated: a mask that covers part of the photo is then read there only.
 */
export async function guidedMaskWithSpans(coefficients: GuidedCoefficients, image: Image16): Promise<{ mask: Float32Array; spans: Int32Array }> {
  const { out, spans } = await evaluate(coefficients, image, undefined, true);
  return { mask: out, spans: spans! };
}

async function evaluate(coefficients: GuidedCoefficients, image: Image16, region: Box | undefined, withSpans: boolean): Promise<{ out: Float32Array; spans: Int32Array | null }> {
  const { width, height, data } = image;
  // Only the region is computed (the rest stays 0): a small mask need not cost a full-size pass.
  const x0 = region ? Math.max(0, region.x) : 0;
  const y0 = region ? Math.max(0, region.y) : 0;
  const x1 = region ? Math.min(width, region.x + region.width) : width;
  const y1 = region ? Math.min(height, region.y + region.height) : height;
  const shared = isShared(data);
  const out = shared ? sharedFloat32(width * height) : new Float32Array(width * height);
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
  const job: GuidedJob = { grid, gridWidth: cw, gridHeight: ch, image, region: { x0, y0, x1, y1 }, out, spans };
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

/** Rows y0 + item · ITEM_ROWS on (at most ITEM_ROWS) of the job's region into job.out, in the kernel of the thread that runs it. */
function evaluateItem(job: GuidedJob, item: number): void {
  const { grid, gridWidth: cw, gridHeight: ch, image, region, out, spans } = job;
  const { width, height, data } = image;
  const { x0, x1 } = region;
  const top = region.y0 + item * ITEM_ROWS;
  const bottom = Math.min(region.y1, top + ITEM_ROWS);
  const count = x1 - x0;
  const k = toolKernels();
  const l = arena({ coef: cw * ch * 16, rowTaps: CHUNK_ROWS * 12, colTaps: count * 8, row: (cw + 1) * 16, guide: CHUNK_ROWS * width * 6, out: CHUNK_ROWS * count * 4, spans: CHUNK_ROWS * 8 });
  reserve(k, l.end);
  const memory = k.memory.buffer;
  if (loaded?.deref() !== job) {
    new Float32Array(memory, l.coef, cw * ch * 4).set(grid);
    const xs = axisTaps(width, cw);
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
  for (let c0 = top; c0 < bottom; c0 += CHUNK_ROWS) {
    const rows = Math.min(CHUNK_ROWS, bottom - c0);
    for (let r = 0; r < rows; r++) {
      rowIndex[r * 3] = ys.lo[c0 + r]!;
      rowIndex[r * 3 + 1] = ys.hi[c0 + r]!;
      rowWeight[r * 3 + 2] = ys.t[c0 + r]!;
    }
    guide.set(data.subarray(c0 * width * 3, (c0 + rows) * width * 3));
    k.guidedRows(l.coef, cw, l.rowTaps, l.colTaps, l.row, l.guide + x0 * 6, width * 3, count, rows, l.out);
    if (spans) {
      k.nonzeroSpans(l.out, count, rows, l.spans);
      const found = new Int32Array(memory, l.spans, rows * 2);
      spans.set(found, c0 * 2);
      // out is fresh, all 0: only each row's span need be written, and the pages of rows without sky are never touched.
      for (let r = 0; r < rows; r++) out.set(chunk.subarray(r * count + found[r * 2]!, r * count + found[r * 2 + 1]!), (c0 + r) * width + found[r * 2]!);
    } else if (count === width) out.set(chunk.subarray(0, rows * count), c0 * width);
    else for (let r = 0; r < rows; r++) out.set(chunk.subarray(r * count, (r + 1) * count), (c0 + r) * width + x0);
  }
}

/** The evaluation's bands spread over the imaging threads (bands.ts) when the image is shared. */
const guidedBands = sharedWork('guided-filter', evaluateItem);
