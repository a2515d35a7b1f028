/**
 * Camera RAW decoding with LibRaw compiled to WebAssembly (npm package libraw-wasm), so it
 * works after `npm install` alone. Decodes run on one worker thread, never blocking the
 * event loop; jobs queue there. The worker ends after a few idle seconds: a WebAssembly
 * heap only grows, and an 18 MP decode leaves some 450 MB behind it.
 */
import { Worker } from 'node:worker_threads';
import type { Image16 } from '../types.js';
import type { LibRawInfo, WorkerReply, WorkerRequest } from './libraw-protocol.js';

export type { LibRawInfo } from './libraw-protocol.js';

/**
 * How every RAW is developed: as-shot white balance, no auto-brightening, AHD demosaic,
 * highlights clipped to white, LibRaw's black/white levels as they are, sRGB primaries and
 * the sRGB tone curve, 16 bits, the file's own orientation.
 */
export const librawSettings: Readonly<Record<string, unknown>> = Object.freeze({
  useCameraWb: true,
  noAutoBright: true,
  userQual: 3,
  highlight: 0,
  adjustMaximumThr: 0,
  outputColor: 1,
  outputBps: 16,
  // LibRaw's gamm[6]: 1/power and toe slope; the wrapper copies all six, LibRaw fills the rest.
  gamm: [1 / 2.4, 12.92, 0, 0, 0, 0],
  userFlip: -1,
});

/** The same development as `dcraw_emu` flags (LibRaw's own command-line tool), for comparisons. */
export const dcrawEmuEquivalent = ['-w', '-W', '-q', '3', '-H', '0', '-c', '0', '-o', '1', '-6', '-g', '2.4', '12.92'];

const idleMs = 5000;

/** One worker thread and the jobs posted to it. */
class RawWorker {
  private readonly thread = new Worker(new URL('./libraw-worker.js', import.meta.url));
  private readonly pending = new Map<number, { resolve: (reply: WorkerReply) => void; reject: (err: Error) => void }>();
  private idleTimer: NodeJS.Timeout | null = null;
  private retiring = false;

  constructor() {
    this.thread.on('message', (reply: WorkerReply) => {
      this.pending.get(reply.id)?.resolve(reply);
      this.pending.delete(reply.id);
      // A failed decode may leave the WebAssembly module in a bad state: take no more jobs.
      if (!reply.ok) this.retire();
      if (this.pending.size === 0) this.settle();
    });
    this.thread.on('error', (err) => this.fail(new Error(`RAW decoder worker failed: ${err.message}`)));
    this.thread.on('exit', (code) => this.fail(new Error(`RAW decoder worker exited with code ${code}`)));
  }

  get accepting(): boolean {
    return !this.retiring;
  }

  post(request: WorkerRequest): Promise<WorkerReply> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.thread.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.thread.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
    });
  }

  private retire(): void {
    this.retiring = true;
    if (current === this) current = null;
  }

  /** No job left: let the process exit, and end the thread now if retiring, else after idleMs. */
  private settle(): void {
    this.thread.unref();
    if (this.retiring) {
      void this.thread.terminate();
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.retire();
      void this.thread.terminate();
    }, idleMs);
    this.idleTimer.unref();
  }

  private fail(err: Error): void {
    this.retire();
    for (const { reject } of this.pending.values()) reject(err);
    this.pending.clear();
  }
}

let current: RawWorker | null = null;
let nextId = 1;

async function submit(kind: WorkerRequest['kind'], input: Buffer, maxLongEdge?: number): Promise<Extract<WorkerReply, { ok: true }>> {
  // A copy of exactly these bytes, handed over to the worker without a second copy.
  const bytes = new Uint8Array(input);
  const request: WorkerRequest = { id: nextId++, kind, bytes, settings: { ...librawSettings }, ...(maxLongEdge !== undefined ? { maxLongEdge } : {}) };
  if (!current?.accepting) current = new RawWorker();
  const reply = await current.post(request);
  if (!reply.ok) throw new Error(`camera RAW could not be decoded (LibRaw ${reply.stage}): ${reply.error}`);
  return reply;
}

/** Develops a RAW file to 16-bit sRGB, upright by the file's orientation; half size when that still covers maxLongEdge. */
export async function librawDecode(input: Buffer, options: { maxLongEdge?: number } = {}): Promise<{ image: Image16; info: LibRawInfo }> {
  const reply = await submit('decode', input, options.maxLongEdge);
  const image = reply.image!;
  if (image.data.length !== image.width * image.height * 3) throw new Error(`LibRaw returned ${image.data.length} samples for ${image.width}x${image.height} RGB`);
  return { image, info: reply.info };
}

/** Reads what LibRaw knows of a RAW file without developing it. */
export async function librawIdentify(input: Buffer): Promise<LibRawInfo> {
  return (await submit('identify', input)).info;
}
