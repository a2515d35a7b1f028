/**
 * Runs the develop pass over all cores: the image is shared with a small pool of worker
 * threads (one fewer than the cores; the calling thread takes a band too), each develops a
 * band of rows. Inside a worker thread, where a job pool already uses the cores, and for
 * small images, it runs inline. Idle workers do not keep the process alive.
 */
import os from 'node:os';
import { Worker, isMainThread } from 'node:worker_threads';
import type { Image16 } from '../types.js';
import { developRows, type DevelopPlan } from './develop.js';
import type { DevelopJob } from './develop-worker.js';

/** Below this many pixels, thread start-up and copying cost more than they save. */
const PARALLEL_MIN_PIXELS = 2_000_000;

interface PoolWorker {
  worker: Worker;
  pending: Map<number, { resolve: () => void; reject: (err: Error) => void }>;
}

let pool: PoolWorker[] | null = null;
let nextJob = 0;

function startWorker(): PoolWorker {
  const worker = new Worker(new URL('./develop-worker.js', import.meta.url));
  worker.unref();
  const entry: PoolWorker = { worker, pending: new Map() };
  worker.on('message', (msg: { id: number; error?: string }) => {
    const job = entry.pending.get(msg.id);
    entry.pending.delete(msg.id);
    if (entry.pending.size === 0) worker.unref();
    if (msg.error) job?.reject(new Error(msg.error));
    else job?.resolve();
  });
  worker.on('error', (err) => {
    for (const job of entry.pending.values()) job.reject(err);
    entry.pending.clear();
    pool = pool?.filter((p) => p !== entry) ?? null;
  });
  return entry;
}

function workers(): PoolWorker[] {
  pool ??= Array.from({ length: Math.min(7, os.availableParallelism() - 1) }, startWorker);
  return pool;
}

function run(entry: PoolWorker, job: Omit<DevelopJob, 'id'>): Promise<void> {
  const id = nextJob++;
  return new Promise((resolve, reject) => {
    entry.pending.set(id, { resolve, reject });
    // A worker with work in flight must keep the process alive until it answers.
    entry.worker.ref();
    entry.worker.postMessage({ id, ...job });
  });
}

export async function developImage(plan: DevelopPlan, image: Image16): Promise<Image16> {
  const { width, height } = image;
  const helpers = isMainThread && width * height >= PARALLEL_MIN_PIXELS ? workers() : [];
  if (helpers.length === 0) {
    const dst = new Uint16Array(image.data.length);
    developRows(plan, image.data, dst, width, height, 0, height);
    return { width, height, data: dst };
  }
  const src = new Uint16Array(new SharedArrayBuffer(image.data.byteLength));
  src.set(image.data);
  const dst = new Uint16Array(new SharedArrayBuffer(image.data.byteLength));
  const bands = helpers.length + 1;
  const edge = (k: number) => Math.round((k * height) / bands);
  const jobs = helpers.map((entry, k) => run(entry, { plan, src, dst, width, height, y0: edge(k + 1), y1: edge(k + 2) }));
  developRows(plan, src, dst, width, height, 0, edge(1));
  await Promise.all(jobs);
  return { width, height, data: dst };
}
