/**
 * One photo over every imaging thread. A thread with a large per-pixel pass shares the
 * image (SharedArrayBuffer), announces the job on a BroadcastChannel and works through
 * its bands of rows itself; every other imaging thread that is free at that moment (no
 * task of its own, or waiting on libvips) takes bands too. Bands are claimed with an
 * atomic counter, so each is done once and the owner waits only for bands already
 * started: a busy thread that reads the announcement late finds nothing left to do.
 * There is no second pool: the threads are the service's imaging threads, which call
 * helpWithBands when they start.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';
import type { RgbImage } from './types.js';
import { developRows, type DevelopPlan, type Samples } from './tone/pixel-pass.js';

/** Below this many pixels, announcing and sharing cost more than they save. */
const SHARED_MIN_PIXELS = 2_000_000;
/** Rows per band: small enough to balance two or more threads, large enough to amortise a claim. */
const BAND_ROWS = 64;
/** counter[]: next band to claim, bands finished, bands that failed. */
const NEXT = 0;
const DONE = 1;
const FAILED = 2;

interface DevelopJob {
  plan: DevelopPlan;
  src: Samples;
  dst: Samples;
  width: number;
  height: number;
  counter: Int32Array;
  bands: number;
}

const CHANNEL = 'retouch:imaging-bands';
let helping: BroadcastChannel | null = null;

/**
 * V8 does not count SharedArrayBuffers as external memory, so their garbage never prompts a
 * collection: a thread whose JavaScript allocates little (a helper above all, which only
 * receives jobs) kept every photo's pixels, and a server grew by about 100 MB a photo. An
 * imaging thread therefore collects itself once this much shared memory has become
 * reachable from it since its last collection.
 */
const SHARED_BYTES_PER_COLLECTION = 256 * 2 ** 20;
let sharedSinceCollection = 0;
let collect: (() => void) | null = null;

function sharedReachable(bytes: number): void {
  sharedSinceCollection += bytes;
  if (!collect || sharedSinceCollection < SHARED_BYTES_PER_COLLECTION) return;
  sharedSinceCollection = 0;
  collect();
}
/** Bands this thread developed for other threads' photos. */
let helped = 0;

export function bandsHelped(): number {
  return helped;
}

/** Makes this thread an imaging thread: it takes bands of other threads' photos whenever its event loop is free. */
export function helpWithBands(): void {
  if (helping || isMainThread) return;
  // The collector V8 exposes to contexts created once its flag is set: this thread's own.
  v8.setFlagsFromString('--expose-gc');
  collect = vm.runInNewContext('gc') as () => void;
  helping = new BroadcastChannel(CHANNEL);
  helping.onmessage = (event) => {
    const job = (event as unknown as { data: DevelopJob }).data;
    helped += work(job);
    sharedReachable(job.src.byteLength + job.dst.byteLength);
  };
  // Listening must not keep the thread alive on its own.
  helping.unref();
}

/** Claims and develops bands until none are left; how many it took. */
function work(job: DevelopJob): number {
  const { counter, bands } = job;
  let taken = 0;
  for (let band = Atomics.add(counter, NEXT, 1); band < bands; band = Atomics.add(counter, NEXT, 1)) {
    try {
      const y0 = band * BAND_ROWS;
      developRows(job.plan, job.src, job.dst, job.width, job.height, y0, Math.min(job.height, y0 + BAND_ROWS));
    } catch {
      Atomics.add(counter, FAILED, 1);
    }
    taken++;
    if (Atomics.add(counter, DONE, 1) + 1 === bands) Atomics.notify(counter, DONE);
  }
  return taken;
}

// Node has had Atomics.waitAsync since 16; the compiler's ES2023 library does not declare it.
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { async: boolean; value: Promise<unknown> } }).waitAsync;

const isShared = (data: Samples): boolean => data.buffer instanceof SharedArrayBuffer;

function sharedSamples(bits: 8 | 16, length: number): Samples {
  sharedReachable(length * (bits / 8));
  return bits === 8 ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint16Array(new SharedArrayBuffer(length * 2));
}

/**
 * The image with its pixels in shared memory, so that other imaging threads can work on
 * it, when this is an imaging thread and the image is large; the image itself otherwise.
 */
export function shareable<I extends RgbImage>(image: I): I {
  if (!helping || isShared(image.data) || image.width * image.height < SHARED_MIN_PIXELS) return image;
  const data = sharedSamples(image.data instanceof Uint8Array ? 8 : 16, image.data.length);
  data.set(image.data);
  return { ...image, data };
}

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
  const job: DevelopJob = { plan, src, dst: sharedSamples(depth, src.length), width, height, counter: new Int32Array(new SharedArrayBuffer(12)), bands: Math.ceil(height / BAND_ROWS) };
  // Posted through this thread's own channel when it has one, which does not hear itself.
  const channel = helping ?? new BroadcastChannel(CHANNEL);
  channel.postMessage(job);
  if (channel !== helping) channel.close();
  work(job);
  for (let done = Atomics.load(job.counter, DONE); done < job.bands; done = Atomics.load(job.counter, DONE)) {
    const wait = waitAsync(job.counter, DONE, done);
    if (wait.async) await wait.value;
  }
  if (Atomics.load(job.counter, FAILED) > 0) throw new Error('the develop pass failed on an imaging thread');
  return { width, height, data: job.dst } as RgbImage;
}
