/**
 * One photo over every imaging thread. A thread with a large pass shares its data
 * (SharedArrayBuffer), announces the job on a BroadcastChannel and works through its items
 * (bands of rows, frames of a bracket) itself; every other imaging thread that is free at
 * that moment (no task of its own, or waiting on libvips) takes items too. Items are claimed
 * with an atomic counter, so each is done once and the owner waits only for items already
 * started: a busy thread that reads the announcement late finds nothing left to do.
 * There is no second pool: the threads are the service's imaging threads, which call
 * helpWithBands when they start. A job names its kind of work; the module that defines a
 * kind registers it (sharedWork) when it loads, so every thread that imports it can help.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { BroadcastChannel, isMainThread } from 'node:worker_threads';
import type { Image16, RgbImage } from './types.js';

/** Below this many pixels, announcing and sharing cost more than they save. */
const SHARED_MIN_PIXELS = 2_000_000;
/**
 * Jobs of fewer items run on their own thread: a helper that is slow to finish the one item it
 * took (a loaded machine gives it a fraction of a core) holds the owner up by a whole item.
 * With 3 items (a bracket's frames) on 2 cores loaded about 7 deep, sharing made the HDR merge
 * slower; with 8 and more, the owner takes most of them when a helper lags.
 */
const MIN_SHARED_ITEMS = 8;
/** counter[]: next item to claim, items finished, items that failed. */
const NEXT = 0;
const DONE = 1;
const FAILED = 2;

interface Job {
  kind: string;
  args: unknown;
  counter: Int32Array;
  items: number;
  /** Bytes of shared memory the job's arguments hold (see sharedReachable). */
  sharedBytes: number;
}

type ItemRunner = (args: never, item: number) => void;
const kinds = new Map<string, ItemRunner>();

const CHANNEL = 'retouch:imaging-bands';
let helping: BroadcastChannel | null = null;

/**
 * V8 does not count SharedArrayBuffers as external memory, so their garbage never prompts a
 * collection: a thread whose JavaScript allocates little (a helper above all, which only
 * receives jobs) kept every photo's pixels, and a server grew by about 100 MB a photo. An
 * imaging thread therefore collects itself once this much shared memory has become
 * reachable from it since its last collection (received in a job, or allocated here).
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

/**
 * The SharedArrayBuffers this thread has posted in jobs: every imaging thread hears every job,
 * so a buffer posted again (a photo's pixels go to several passes, a recycled buffer to the
 * next photo's) makes no more memory reachable from them than the first time did. Counting
 * each pass's buffers anew had a helper collect itself about three times an 18 MP photo.
 */
const posted = new WeakSet<SharedArrayBuffer>();

/** Bytes of the distinct SharedArrayBuffers a job's arguments hold (typed arrays, in arrays and plain objects) that no earlier job of this thread posted. */
function sharedBytesOf(value: unknown, seen = new Set<SharedArrayBuffer>()): number {
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer;
    if (!(buffer instanceof SharedArrayBuffer) || seen.has(buffer) || posted.has(buffer)) return 0;
    seen.add(buffer);
    posted.add(buffer);
    return buffer.byteLength;
  }
  if (typeof value !== 'object' || value === null) return 0;
  let bytes = 0;
  for (const v of Object.values(value)) bytes += sharedBytesOf(v, seen);
  return bytes;
}

/** Items this thread did for other threads' jobs. */
let helped = 0;

export function bandsHelped(): number {
  return helped;
}

/** Makes this thread an imaging thread: it takes items of other threads' jobs whenever its event loop is free. */
export function helpWithBands(): void {
  if (helping || isMainThread) return;
  // The collector V8 exposes to contexts created once its flag is set: this thread's own.
  v8.setFlagsFromString('--expose-gc');
  collect = vm.runInNewContext('gc') as () => void;
  helping = new BroadcastChannel(CHANNEL);
  helping.onmessage = (event) => {
    const job = (event as unknown as { data: Job }).data;
    helped += work(job);
    sharedReachable(job.sharedBytes);
  };
  // Listening must not keep the thread alive on its own.
  helping.unref();
}

/** Set on a thread that shares its jobs without helping with others' (see shareJobs). */
let owning = false;

/**
 * Makes this thread share its large passes with the imaging threads without taking part in
 * theirs: for a process whose own thread does the work (a benchmark's child, a command-line
 * tool) with helper threads beside it (helpWithBands). The service's main thread never calls it.
 */
export function shareJobs(): void {
  owning = true;
}

/** True on a thread whose jobs the imaging threads can help with: an imaging thread, or one that called shareJobs. */
export function sharing(): boolean {
  return helping !== null || owning;
}

/** Claims and runs items until none are left; how many it took. A thread that does not know the kind takes none. */
function work(job: Job): number {
  const run = kinds.get(job.kind);
  if (!run) return 0;
  const { counter, items } = job;
  let taken = 0;
  for (let item = Atomics.add(counter, NEXT, 1); item < items; item = Atomics.add(counter, NEXT, 1)) {
    try {
      run(job.args as never, item);
    } catch {
      Atomics.add(counter, FAILED, 1);
    }
    taken++;
    if (Atomics.add(counter, DONE, 1) + 1 === items) Atomics.notify(counter, DONE);
  }
  return taken;
}

// Node has had Atomics.waitAsync since 16; the compiler's ES2023 library does not declare it.
const waitAsync = (Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { async: boolean; value: Promise<unknown> } }).waitAsync;

/** Runs items 0..items-1 of a job of a registered kind (sharedWork), with the help of the other imaging threads, whether or not this thread shares its jobs; resolves when all are done. */
export async function runShared(kind: string, args: unknown, items: number): Promise<void> {
  await offerShared(kind, args, items)();
}

/**
 * Posts a job of a registered kind to the other imaging threads and returns at once the
 * function that finishes it: it runs here the items no thread has claimed yet and resolves
 * when all are done. In between this thread is free for work of its own.
 */
function offerShared(kind: string, args: unknown, items: number): () => Promise<void> {
  const job: Job = { kind, args, counter: new Int32Array(new SharedArrayBuffer(12)), items, sharedBytes: sharedBytesOf(args) };
  // Posted through this thread's own channel when it has one, which does not hear itself.
  const channel = helping ?? new BroadcastChannel(CHANNEL);
  channel.postMessage(job);
  if (channel !== helping) channel.close();
  return async () => {
    work(job);
    for (let done = Atomics.load(job.counter, DONE); done < items; done = Atomics.load(job.counter, DONE)) {
      const wait = waitAsync(job.counter, DONE, done);
      if (wait.async) await wait.value;
    }
    if (Atomics.load(job.counter, FAILED) > 0) throw new Error(`the ${kind} pass failed on an imaging thread`);
  };
}

/**
 * Registers a kind of task that a thread offers to the other imaging threads while it does
 * work of its own: one of two independent tasks of a photo, too long to run one after the
 * other. `offer(args)` posts it on a sharing thread (sharing()) and returns `finish`, which
 * runs it here unless another imaging thread has taken it, and resolves once it is done;
 * elsewhere finish runs it here. run and args as for sharedWork (one item).
 */
export function sharedTask<A>(kind: string, run: (args: A) => void): (args: A) => () => Promise<void> {
  kinds.set(kind, ((args: A) => run(args)) as ItemRunner);
  return (args) => (sharing() ? offerShared(kind, args, 1) : async () => run(args));
}

/**
 * Registers a kind of shared work and returns its runner: `run(args, item)` must touch only
 * memory no other item writes, and args must be structured-cloneable, its arrays in shared
 * memory (sharedFloat32 and the like) when they are large or written. On a sharing thread
 * (sharing()) the items are spread over the imaging threads; elsewhere they run here, in order.
 */
export function sharedWork<A>(kind: string, run: (args: A, item: number) => void): (args: A, items: number) => Promise<void> {
  kinds.set(kind, run as ItemRunner);
  return async (args, items) => {
    if (!spreads(items)) {
      for (let item = 0; item < items; item++) run(args, item);
      return;
    }
    await runShared(kind, args, items);
  };
}

/** Whether a job of this many items is spread over the imaging threads (else it runs on its own thread, in order). */
export function spreads(items: number): boolean {
  return sharing() && items >= MIN_SHARED_ITEMS;
}

/** A Float32Array other imaging threads can write into (shared memory) on a sharing thread; a plain one elsewhere. */
export function sharedFloat32(length: number): Float32Array {
  if (!sharing()) return new Float32Array(length);
  sharedReachable(length * 4);
  return new Float32Array(new SharedArrayBuffer(length * 4));
}

/** As sharedFloat32, for 16-bit samples. */
export function sharedUint16(length: number): Uint16Array {
  if (!sharing()) return new Uint16Array(length);
  sharedReachable(length * 2);
  return new Uint16Array(new SharedArrayBuffer(length * 2));
}

/** Whether an image of this many pixels goes to shared memory: this thread shares its jobs and the image is large enough to gain. */
export function sharesPixels(pixels: number): boolean {
  return sharing() && pixels >= SHARED_MIN_PIXELS;
}

/** Room for a width × height image's 16-bit samples: in shared memory when shareable() would copy the image there, so that it need not be. */
export function shareableUint16(width: number, height: number): Uint16Array {
  return sharesPixels(width * height) ? sharedUint16(width * height * 3) : new Uint16Array(width * height * 3);
}

/** A copy of an image's 16-bit samples for a tool to change: in shared memory when shareable() would copy the result there, so that it need not. */
export function shareableCopy(image: Image16): Uint16Array {
  const copy = shareableUint16(image.width, image.height);
  copy.set(image.data);
  return copy;
}

/** Whether the samples lie in shared memory, where other imaging threads can work on them. */
export const isShared = (data: ArrayBufferView): boolean => data.buffer instanceof SharedArrayBuffer;

/** Bytes of a memory page: writing one byte of each makes the kernel map the page. */
const PAGE_BYTES = 4096;

/**
 * Room in shared memory for an 8-bit image of this many pixels when shareable() would copy
 * it there, with every page already mapped; null when it would not. Made while libvips
 * decodes the photo (this thread waits idle meanwhile), so that the copy of the decoded
 * pixels into it costs the copy alone: on 18 MP, 9 ms against 23 ms into fresh memory.
 */
export function sharedRoom8(pixels: number): Uint8Array | null {
  if (!sharesPixels(pixels)) return null;
  const spare = takeSpare(pixels * 3);
  if (spare) return new Uint8Array(spare, 0, pixels * 3);
  const room = new Uint8Array(freshShared(pixels * 3));
  for (let i = 0; i < room.length; i += PAGE_BYTES) room[i] = 0;
  return room;
}

/** Room for `length` samples of `bits` bits in shared memory, its contents undefined (a spare's, or zeros): the caller writes every sample. */
export function sharedSamples(bits: 8 | 16, length: number): RgbImage['data'] {
  const bytes = length * (bits / 8);
  const buffer = takeSpare(bytes) ?? freshShared(bytes);
  return bits === 8 ? new Uint8Array(buffer, 0, length) : new Uint16Array(buffer, 0, length);
}

function freshShared(bytes: number): SharedArrayBuffer {
  sharedReachable(bytes);
  return new SharedArrayBuffer(bytes);
}

/**
 * Pixel buffers given back once a photo is encoded (recycleShared), and a framed photo's once
 * it is developed, kept for the next photo of about the same size: their pages are mapped
 * already, so neither the decode's room, geometry's output nor the develop pass's output pays
 * for mapping fresh memory (about 15 ms of CPU each for 18 MP 8-bit), and no collection is
 * needed to free them. At most SPARES (a photo's decoded, framed and developed pixels);
 * dropped once no photo has come for SPARE_MS. A spare serves a buffer up to SPARE_SLACK times
 * smaller than itself, as a view of its start: a framed photo's size moves with its correction.
 */
const SPARES = 3;
const SPARE_MS = 1000;
const SPARE_SLACK = 1.15;
const spares: SharedArrayBuffer[] = [];
let spareTimer: ReturnType<typeof setTimeout> | null = null;

/** The smallest spare of at least `bytes` and at most SPARE_SLACK times that, taken from the spares; null when none fits. */
function takeSpare(bytes: number): SharedArrayBuffer | null {
  let best = -1;
  for (const [i, b] of spares.entries()) {
    if (b.byteLength >= bytes && b.byteLength <= bytes * SPARE_SLACK && (best < 0 || b.byteLength < spares[best]!.byteLength)) best = i;
  }
  return best < 0 ? null : spares.splice(best, 1)[0]!;
}

/**
 * Gives the shared buffers under these samples back for the next photo's (see SPARES). Only for
 * samples nothing will read again: every pass over them has finished (runShared resolved) and
 * nothing else holds them.
 */
export function recycleShared(...samples: RgbImage['data'][]): void {
  if (!sharing()) return;
  for (const { buffer } of samples) {
    if (!(buffer instanceof SharedArrayBuffer) || spares.includes(buffer)) continue;
    spares.push(buffer);
    if (spares.length > SPARES) spares.shift();
  }
  if (spareTimer) clearTimeout(spareTimer);
  spareTimer = setTimeout(() => {
    spares.length = 0;
  }, SPARE_MS);
  spareTimer.unref();
}

/**
 * The image with its pixels in shared memory, so that other imaging threads can work on
 * it, when this thread shares its jobs (sharing()) and the image is large; the image itself otherwise.
 */
export function shareable<I extends RgbImage>(image: I): I {
  if (isShared(image.data) || !sharesPixels(image.width * image.height)) return image;
  const data = sharedSamples(image.data instanceof Uint8Array ? 8 : 16, image.data.length);
  data.set(image.data);
  return { ...image, data };
}
