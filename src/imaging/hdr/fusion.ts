import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { Image16 } from '../types.js';
import { addBands, blendFrames, collapseToImage, type BlendedBands } from './blend.js';
import type { Plane } from './luma.js';
import { qualityWeights } from './weights.js';

/** Per pixel, each frame's share of the total, in place. */
function normalise(weights: Float32Array[]): void {
  const n = weights[0]!.length;
  const sum = new Float32Array(n);
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    for (let p = 0; p < n; p++) sum[p] = sum[p]! + w[p]!;
  }
  for (let p = 0; p < n; p++) sum[p] = sum[p]! > 0 ? 1 / sum[p]! : 0;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    for (let p = 0; p < n; p++) w[p] = w[p]! * sum[p]!;
  }
}

/** Below this many pixels of frames to blend, handing some to the helper thread costs more than it saves. */
const PARALLEL_MIN_PIXELS = 1_000_000;

interface Pending {
  resolve: (sums: BlendedBands) => void;
  reject: (err: Error) => void;
}

/**
 * One blending thread kept for the life of the process: a new thread per merge would run its
 * first frames in V8's unoptimised tiers, slower than doing them here. It holds the process
 * open only while it has work (ref while requests are pending, unref when idle).
 */
let helper: { worker: Worker; pending: Map<number, Pending>; next: number } | null = null;

function blendHelper(): NonNullable<typeof helper> {
  if (helper) return helper;
  const worker = new Worker(new URL('./blend-worker.js', import.meta.url));
  const state = { worker, pending: new Map<number, Pending>(), next: 0 };
  const fail = (err: Error) => {
    for (const p of state.pending.values()) p.reject(err);
    state.pending.clear();
    if (helper === state) helper = null;
  };
  worker.on('message', ({ id, sums, error }: { id: number; sums?: BlendedBands; error?: string }) => {
    const p = state.pending.get(id);
    state.pending.delete(id);
    if (state.pending.size === 0) worker.unref();
    if (error !== undefined) p?.reject(new Error(`blend worker: ${error}`));
    else p?.resolve(sums!);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`blend worker exited with code ${code}`)));
  worker.unref();
  helper = state;
  return state;
}

/** Blends frames in the helper thread; their buffers are moved there, not copied, and no longer usable here. */
function blendInWorker(frames: Image16[], lumas: Plane[], weights: Float32Array[]): Promise<BlendedBands> {
  const { worker, pending, next } = blendHelper();
  helper!.next = next + 1;
  return new Promise((resolve, reject) => {
    pending.set(next, { resolve, reject });
    worker.ref();
    const buffers = [...frames.map((f) => f.data.buffer), ...lumas.map((l) => l.data.buffer), ...weights.map((w) => w.buffer)];
    worker.postMessage({ id: next, frames, lumas, weights }, buffers as ArrayBuffer[]);
  });
}

/**
 * Exposure fusion (Mertens, Kautz & Van Reeth 2007) of aligned frames of one size: quality
 * weights, normalised per pixel; each frame's Laplacian pyramid blended with its weights'
 * Gaussian pyramid, for luma and two colour differences; the sums collapsed. Blending band by
 * band hides the seams a per-pixel blend would show. Normalising before blurring matters: a
 * frame that is the only usable one somewhere keeps its full share there, however small its
 * raw weights. Large brackets are blended partly in a worker (frames are independent once
 * their weights are normalised); the frames and lumas handed over are consumed.
 */
export async function fuseExposures(frames: Image16[], lumas: Plane[]): Promise<Image16> {
  const { width, height } = frames[0]!;
  const weights = frames.map((frame, i) => {
    const w = new Float32Array(width * height);
    qualityWeights(frame, lumas[i]!, w);
    return w;
  });
  normalise(weights);
  if (availableParallelism() < 2 || frames.length * width * height < PARALLEL_MIN_PIXELS) return collapseToImage(blendFrames(frames, lumas, weights));
  // This thread collapses the sums afterwards, so when the frames do not split evenly it takes the larger part.
  const here = Math.ceil(frames.length / 2);
  const there = blendInWorker(frames.slice(here), lumas.slice(here), weights.slice(here));
  const sums = blendFrames(frames.slice(0, here), lumas.slice(0, here), weights.slice(0, here));
  addBands(sums, await there);
  return collapseToImage(sums);
}
