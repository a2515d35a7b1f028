import { Piscina } from 'piscina';
import type { CopilotDelta } from '../domain/copilot/instructions/index.js';
import { DevelopError, type DevelopedOutput, type FrameInfo, type ImagingEngine, type Photo, type SkySource, type SourceFrame, type VersionState } from '../domain/engine.js';
import { UnprocessablePhoto } from '../domain/errors.js';
import { readImageSize } from '../imaging/decode.js';
import { developMemory } from '../imaging/develop-memory.js';
import type { EditRequest } from '../imaging/edit-request.js';
import type { PostOptions } from '../imaging/post.js';
import type { DevelopSettings, Style } from '../imaging/settings.js';
import type { FrameBytes, SkyBytes } from './imaging-tasks.js';
import type { MemoryBudget } from './memory-budget.js';
import { lowerAllButEventLoopFromNowOn } from './thread-priority.js';
import { asBuffer, ownBytes } from './transfer.js';

interface DevelopedBytes {
  bytes: Uint8Array;
  thumbnail: Uint8Array | null;
  settings?: DevelopSettings;
  companion?: { fileName: string; bytes: Uint8Array };
}

function developed(result: DevelopedBytes): DevelopedOutput {
  return {
    bytes: asBuffer(result.bytes),
    thumbnail: result.thumbnail ? asBuffer(result.thumbnail) : null,
    ...(result.settings === undefined ? {} : { settings: result.settings }),
    ...(result.companion ? { companion: { fileName: result.companion.fileName, bytes: asBuffer(result.companion.bytes) } } : {}),
  };
}

/** What lets a photo onto the imaging threads. */
export interface Admission {
  /** The memory every pool of the process shares (IMAGING_MEMORY_MB). */
  budget: MemoryBudget;
  /** Larger photos (any one frame) are refused from their header (MAX_IMAGE_MEGAPIXELS). */
  maxMegapixels: number;
}

/** Whatever fails on an imaging thread (the engine refused the photo, or the photo killed its thread) is the photo's. */
async function photosFault<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw new DevelopError(err instanceof Error ? err.message : String(err));
  }
}

/** 256 MP, 1.5 MP: whole megapixels from 10 up, tenths below. */
function megapixels(mp: number): string {
  return String(mp >= 10 ? Math.round(mp) : Math.round(mp * 10) / 10);
}

/**
 * Photo development on a pool of worker threads, so that decoding and rendering never
 * hold up the API's event loop. Input bytes are moved to the thread, not copied. A photo
 * goes to a thread once the memory its development takes is free in the shared budget.
 */
export class ImagingPool implements ImagingEngine {
  private pool: Piscina | null = null;

  constructor(
    private readonly threads: number,
    private readonly admission: Admission,
    /** Nice levels the imaging threads, and every other thread but the event loop, run below the main thread (jobs/thread-priority.ts); 0 keeps the API's priority. */
    private readonly nice = 0,
  ) {
    lowerAllButEventLoopFromNowOn(nice);
  }

  /**
   * The threads, started with the first task: a command that develops nothing (accounts,
   * keys) never starts them, nor stops them while they still load their modules, which
   * Node 20 can abort on (a worker terminated during ES module evaluation).
   */
  private threadPool(): Piscina {
    this.pool ??= new Piscina({
      filename: new URL('./imaging-tasks.js', import.meta.url).href,
      workerData: { nice: this.nice },
      // Every thread stays up, its event loop free between tasks (no blocking wait for the
      // next one): a photo alone is split over the idle threads (imaging/bands.ts).
      minThreads: this.threads,
      maxThreads: this.threads,
      atomics: 'disabled',
    });
    return this.pool;
  }

  /** Runs a task, moving every byte array found in `moved` to the worker. */
  private async run<T>(name: string, task: object, moved: Uint8Array[] = []): Promise<T> {
    return this.threadPool().run(task, { name, transferList: moved.map((b) => b.buffer as ArrayBuffer) }) as Promise<T>;
  }

  /**
   * Runs work on photos once they are admitted: each within the pixel limit (read from its
   * header, before anything is decoded), and the memory their development takes free in
   * the budget, given back when the work ends. A header that cannot be read is the photo's fault.
   */
  private async admitted<T>(photos: Photo[], work: () => Promise<T>): Promise<T> {
    const sizes = await photosFault(Promise.all(photos.map((p) => readImageSize(p.bytes, p.fileName))));
    const { budget, maxMegapixels } = this.admission;
    sizes.forEach((size, i) => {
      const mp = (size.width * size.height) / 1e6;
      if (mp > maxMegapixels) throw new UnprocessablePhoto(`${photos[i]!.fileName} is ${megapixels(mp)} MP; this server accepts up to ${megapixels(maxMegapixels)} MP`);
    });
    const release = await budget.acquire(sizes.reduce((sum, size) => sum + developMemory(size), 0));
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Develops photos once admitted; `task` builds the thread's task only then, when their bytes may be moved. */
  private develop(photos: Photo[], name: string, task: () => [object, Uint8Array[]]): Promise<DevelopedOutput> {
    return this.admitted(photos, async () => developed(await photosFault(this.run<DevelopedBytes>(name, ...task()))));
  }

  private frames(frames: SourceFrame[]): FrameBytes[] {
    return frames.map((f) => ({ fileName: f.fileName, rotate: f.rotate, bytes: ownBytes(f.bytes) }));
  }

  private sky(sky: SkySource | null): SkyBytes | null {
    return sky === null || 'builtinId' in sky ? sky : { id: sky.id, image: ownBytes(sky.image) };
  }

  /** Byte arrays of a task's frames and sky, to move rather than copy. */
  private static movable(frames: FrameBytes[], sky: SkyBytes | null = null): Uint8Array[] {
    return [...frames.map((f) => f.bytes), ...(sky && 'image' in sky ? [sky.image] : [])];
  }

  async frameInfo(bytes: Buffer, fileName: string): Promise<FrameInfo> {
    const own = ownBytes(bytes);
    return this.run('frameInfo', { bytes: own, fileName }, [own]);
  }

  developI2i(frames: SourceFrame[], request: EditRequest, sky: SkySource | null): Promise<DevelopedOutput> {
    return this.develop(frames, 'developI2i', () => {
      const f = this.frames(frames);
      const s = this.sky(sky);
      return [{ frames: f, request, sky: s }, ImagingPool.movable(f, s)];
    });
  }

  edit(frames: SourceFrame[], job: { request: EditRequest; style: Style; sky: SkySource | null; mergedName: string }): Promise<DevelopedOutput> {
    return this.develop(frames, 'developEdit', () => {
      const f = this.frames(frames);
      const s = this.sky(job.sky);
      return [{ frames: f, request: job.request, style: job.style, sky: s, mergedName: job.mergedName }, ImagingPool.movable(f, s)];
    });
  }

  export(frames: SourceFrame[], job: { settings: DevelopSettings; sky: SkySource | null }): Promise<DevelopedOutput> {
    return this.develop(frames, 'exportPhoto', () => {
      const f = this.frames(frames);
      const s = this.sky(job.sky);
      return [{ frames: f, settings: job.settings, sky: s }, ImagingPool.movable(f, s)];
    });
  }

  post(source: Photo, options: PostOptions): Promise<DevelopedOutput> {
    return this.develop([source], 'postEdit', () => {
      const own = ownBytes(source.bytes);
      return [{ bytes: own, options }, [own]];
    });
  }

  thumbnail(source: Photo): Promise<Buffer> {
    return this.admitted([source], async () => {
      const own = ownBytes(source.bytes);
      return asBuffer(await photosFault(this.run<Uint8Array>('thumbnail', { bytes: own }, [own])));
    });
  }

  async skyPreview(sky: SkySource): Promise<Buffer> {
    const s = this.sky(sky)!;
    return asBuffer(await this.run<Uint8Array>('skyPreview', { sky: s }, ImagingPool.movable([], s)));
  }

  copilotVersion(source: Buffer, parent: VersionState, delta: CopilotDelta, sky: SkySource | null): Promise<VersionState & { jpeg: Buffer }> {
    // The working copy is at most COPILOT_PREVIEW_EDGE pixels long: it is counted, never over the limit.
    return this.admitted([{ fileName: 'the Copilot working copy', bytes: source }], async () => {
      const own = ownBytes(source);
      const s = this.sky(sky);
      const result = await this.run<VersionState & { jpeg: Uint8Array }>('copilotVersion', { source: own, parent, delta, sky: s }, [own, ...ImagingPool.movable([], s)]);
      return { ...result, jpeg: asBuffer(result.jpeg) };
    });
  }

  copilotSource(frames: SourceFrame[]): Promise<Buffer> {
    return this.admitted(frames, async () => {
      const f = this.frames(frames);
      return asBuffer(await this.run<Uint8Array>('copilotSource', { frames: f }, ImagingPool.movable(f)));
    });
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
