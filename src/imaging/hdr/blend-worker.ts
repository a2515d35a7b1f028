import { parentPort } from 'node:worker_threads';
import type { Image16 } from '../types.js';
import { blendFrames } from './blend.js';
import type { Plane } from './luma.js';

/** Helper-thread side of fuseExposures: blends the frames of each request and sends the sums back (moved, not copied). */
parentPort!.on('message', ({ id, frames, lumas, weights }: { id: number; frames: Image16[]; lumas: Plane[]; weights: Float32Array[] }) => {
  try {
    const sums = blendFrames(frames, lumas, weights);
    const buffers = [...sums.y, ...sums.cb, ...sums.cr].map((band) => band.data.buffer as ArrayBuffer);
    parentPort!.postMessage({ id, sums }, buffers);
  } catch (err) {
    parentPort!.postMessage({ id, error: String((err as Error).stack ?? err) });
  }
});
