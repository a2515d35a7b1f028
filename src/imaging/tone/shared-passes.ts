/**
 * The develop pass and the linear preview over the imaging threads (bands.ts): in a module of
 * their own, so that a thread that only merges brackets does not load the tone modules.
 */
import { isShared, runShared, shareable, sharedFloat32, sharedSamples, sharedWork } from '../bands.js';
import type { RgbImage } from '../types.js';
import { developRows, type DevelopPlan, type Samples } from './pixel-pass.js';
import { type LinearImage, linearPreview, linearPreviewRows, previewGrid } from './preview.js';

/** Rows per band: small enough to balance two or more threads, large enough to amortise a claim. */
const BAND_ROWS = 64;

interface DevelopJob {
  plan: DevelopPlan;
  src: Samples;
  dst: Samples;
  width: number;
  height: number;
}

// Registered here, run through runShared: pixels in shared memory are developed in bands even on a thread that does not share its own jobs.
sharedWork('develop', (job: DevelopJob, band: number) => {
  const y0 = band * BAND_ROWS;
  developRows(job.plan, job.src, job.dst, job.width, job.height, y0, Math.min(job.height, y0 + BAND_ROWS));
});

/**
 * The develop pass over an image into a new one of `depth` bits: in bands over the
 * imaging threads when the image's pixels are shared, in one go otherwise.
 */
export async function developImage(plan: DevelopPlan, image: RgbImage, depth: 8 | 16): Promise<RgbImage> {
  const { width, height } = image;
  const src = shareable(image).data;
  if (!isShared(src)) {
    const dst = depth === 8 ? new Uint8Array(src.length) : new Uint16Array(src.length);
    developRows(plan, src, dst, width, height, 0, height);
    return { width, height, data: dst } as RgbImage;
  }
  const job: DevelopJob = { plan, src, dst: sharedSamples(depth, src.length), width, height };
  await runShared('develop', job, Math.ceil(height / BAND_ROWS));
  return { width, height, data: job.dst } as RgbImage;
}

interface PreviewJob {
  image: RgbImage;
  maxEdge: number;
  out: Float32Array;
  /** The preview's height. */
  rows: number;
}

/** Preview rows per item: a 512-pixel preview of an 18 MP photo is 40 items. */
const PREVIEW_ROWS = 8;

const previewBands = sharedWork('linear-preview', (job: PreviewJob, item: number) => {
  linearPreviewRows(job.image, job.maxEdge, job.out, item * PREVIEW_ROWS, Math.min(job.rows, (item + 1) * PREVIEW_ROWS));
});

/**
 * linearPreview, the same numbers, in bands of rows over the imaging threads when the
 * image's pixels are shared (a full-resolution read each time: the estimate's and the
 * develop plan's previews were a photo's longest passes on one thread); in one go otherwise.
 */
export async function sharedLinearPreview(image: RgbImage, maxEdge: number): Promise<LinearImage> {
  if (!isShared(image.data)) return linearPreview(image, maxEdge);
  const grid = previewGrid(image.width, image.height, maxEdge);
  const out = sharedFloat32(grid.width * grid.height * 3);
  await previewBands({ image, maxEdge, out, rows: grid.height }, Math.ceil(grid.height / PREVIEW_ROWS));
  return { width: grid.width, height: grid.height, data: out };
}
