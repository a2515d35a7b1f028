import { isShared, shareable, sharedSamples, sharedWork } from '../bands.js';
import { ALIGN_SLACK, alike, arena, copyInAlike, reserve, toolKernels } from '../kernels.js';
import type { Mat3 } from '../matrix.js';
import { image16Of } from '../image16.js';
import type { Image16, RgbImage } from '../types.js';
import type { GeometryPlan } from './frame.js';

/** How far outside the outer pixel edge a sample may land and still count as inside (float slack). */
const EDGE_SLACK = 1e-6;

/**
 * Renders a plan: one bilinear resampling of the source through the plan's homography,
 * to 16 bits (an 8-bit source read as its exact widening). Samples landing outside the photo are left 0 (the frame is chosen so none
 * do); within half a pixel of the edge they take the edge pixel. A plan without rotation
 * or perspective whose crop falls on whole pixels is a plain copy of rows. A large photo's
 * rows are resampled in chunks over the imaging threads (bands.ts).
 */
export async function renderPlan(image: RgbImage, plan: GeometryPlan): Promise<Image16> {
  const m = plan.toSource;
  const { width: ow, height: oh } = plan;
  const startX = m[2] / m[8];
  const startY = m[5] / m[8];
  if (plan.identity && isWhole(startX) && isWhole(startY) && Math.abs(m[0] - 1) < 1e-9 && Math.abs(m[4] - 1) < 1e-9) {
    const x0 = Math.round(startX);
    const y0 = Math.round(startY);
    const { width, data } = image16Of(image);
    const out = new Uint16Array(ow * oh * 3);
    for (let y = 0; y < oh; y++) {
      const from = ((y0 + y) * width + x0) * 3;
      out.set(data.subarray(from, from + ow * 3), y * ow * 3);
    }
    return { width: ow, height: oh, data: out };
  }
  const source = shareable(image);
  // A small photo stays on this thread: copying it to the helpers would cost more than they save.
  if (!isShared(source.data)) return resample(image, m, ow, oh);
  // Every output sample is written (0 where it falls outside the photo): a recycled buffer serves.
  const job: ResampleJob = { image: source, m, ow, oh, out: sharedSamples(16, ow * oh * 3) as Uint16Array };
  await resampleBands(job, Math.ceil(oh / CHUNK_ROWS));
  return { width: ow, height: oh, data: job.out };
}

/** Output rows per call into the kernel, and per item when the imaging threads share the work: its buffers hold these and the source rows they reach. */
const CHUNK_ROWS = 128;

interface ResampleJob {
  image: RgbImage;
  m: Mat3;
  ow: number;
  oh: number;
  out: Uint16Array;
}

/**
 * Bilinear resampling through a homography from output pixel (x, y) to source pixel
 * coordinates: the one loop every geometric correction goes through. In the WebAssembly
 * kernel (kernels/tools.ts), in chunks of output rows; each chunk takes only the source
 * rows it reaches into the kernel's memory (a homography maps the chunk's rectangle to a
 * quadrilateral whose corners bound it), so memory stays a band of the photo.
 */
export function resample(image: RgbImage, toSource: Mat3, ow: number, oh: number): Image16 {
  const job: ResampleJob = { image, m: toSource, ow, oh, out: new Uint16Array(ow * oh * 3) };
  for (let chunk = 0; chunk * CHUNK_ROWS < oh; chunk++) resampleChunk(job, chunk);
  return { width: ow, height: oh, data: job.out };
}

/** One chunk of output rows into job.out, in the kernel of the thread that runs it. */
function resampleChunk({ image, m, ow, oh, out }: ResampleJob, chunk: number): void {
  const { width: sw, height: sh, data: src } = image;
  const k = toolKernels();
  const rowSamples = sw * 3;
  const j0 = chunk * CHUNK_ROWS;
  const j1 = Math.min(oh, j0 + CHUNK_ROWS);
  const [r0, r1] = sourceRows(m, ow, j0, j1, sh);
  // The kernel reads and writes up to 10 bytes past each buffer: arena's 16 bytes of slack hold them.
  const eight = src instanceof Uint8Array;
  const l = arena({ src: (r1 - r0) * rowSamples * (eight ? 1 : 2) + ALIGN_SLACK, out: (j1 - j0) * ow * 6 + ALIGN_SLACK });
  reserve(k, l.end);
  const srcAt = copyInAlike(k.memory.buffer, l.src, src.subarray(r0 * rowSamples, r1 * rowSamples)).byteOffset;
  // Out at an address alike modulo 8 with its place in `out` too (kernels.ts alike).
  const outAt = alike(l.out, out.byteOffset + j0 * ow * 6);
  // 8-bit samples are read as their exact widening: the same output as from a widened copy.
  const resampleRows = eight ? k.resampleRows8 : k.resampleRows;
  resampleRows(srcAt, r0, sw, sh, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], EDGE_SLACK, outAt, ow, j0, j1);
  out.set(new Uint16Array(k.memory.buffer, outAt, (j1 - j0) * ow * 3), j0 * ow * 3);
}

/** resample's chunks spread over the imaging threads (bands.ts) when the source is shared. */
const resampleBands = sharedWork('geometry-resample', resampleChunk);

/** The source rows (start, end exclusive) that output rows j0..j1−1 read: from the corners of their rectangle, all rows when w changes sign. */
function sourceRows(m: Mat3, ow: number, j0: number, j1: number, sh: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const j of [j0, j1 - 1]) {
    for (const i of [0, ow - 1]) {
      const w = m[6] * i + m[7] * j + m[8];
      if (!(w > 0)) return [0, sh];
      const y = (m[3] * i + m[4] * j + m[5]) / w;
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
    }
  }
  // A row of margin each side for rounding; the taps read floor(y) and the row below it.
  return [Math.max(0, Math.min(sh - 1, Math.floor(lo) - 1)), Math.min(sh, Math.max(1, Math.floor(hi) + 3))];
}

function isWhole(v: number): boolean {
  return Math.abs(v - Math.round(v)) < 1e-6;
}
