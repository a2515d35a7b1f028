import { Piscina } from 'piscina';
import type { DevelopedOutput } from '../domain/batch.js';
import type { CopilotDeveloper, VersionState } from '../domain/copilot/copilot.js';
import type { CopilotDelta } from '../domain/copilot/instructions/index.js';
import type { I2iEditOptions } from '../domain/i2i-editing.js';
import type { FrameInfo, SourceFrame } from '../domain/photo-plan.js';
import type { ProfileDeveloper, ProfileEditOptions } from '../domain/profile-editing.js';
import type { PostOptions } from '../imaging/post.js';
import type { SkySource } from '../domain/sky-templates.js';
import type { FrameBytes, SkyBytes } from './imaging-tasks.js';
import { asBuffer, ownBytes } from './transfer.js';

interface DevelopedBytes {
  bytes: Uint8Array;
  thumbnail: Uint8Array | null;
  settings?: unknown;
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

/**
 * Photo development on a pool of worker threads, so that decoding and rendering never
 * hold up the API's event loop. Input bytes are moved to the thread, not copied.
 */
export class ImagingPool implements ProfileDeveloper, CopilotDeveloper {
  private readonly pool: Piscina;

  constructor(threads: number) {
    this.pool = new Piscina({
      filename: new URL('./imaging-tasks.js', import.meta.url).href,
      // Every thread stays up, its event loop free between tasks (no blocking wait for the
      // next one): a photo alone is split over the idle threads (imaging/bands.ts).
      minThreads: threads,
      maxThreads: threads,
      atomics: 'disabled',
    });
  }

  /** Runs a task, moving every byte array found in `moved` to the worker. */
  private async run<T>(name: string, task: object, moved: Uint8Array[] = []): Promise<T> {
    return this.pool.run(task, { name, transferList: moved.map((b) => b.buffer as ArrayBuffer) }) as Promise<T>;
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

  async developI2i(frames: SourceFrame[], options: I2iEditOptions, sky: SkySource | null): Promise<DevelopedOutput> {
    const f = this.frames(frames);
    const s = this.sky(sky);
    return developed(await this.run('developI2i', { frames: f, options, sky: s }, ImagingPool.movable(f, s)));
  }

  async edit(
    frames: SourceFrame[],
    job: { options: ProfileEditOptions; style: unknown; sky: SkySource | null; mergedName: string },
  ): Promise<DevelopedOutput> {
    const f = this.frames(frames);
    const s = this.sky(job.sky);
    return developed(await this.run('developEdit', { frames: f, options: job.options, style: job.style, sky: s, mergedName: job.mergedName }, ImagingPool.movable(f, s)));
  }

  async export(frames: SourceFrame[], job: { settings: unknown; sky: SkySource | null }): Promise<DevelopedOutput> {
    const f = this.frames(frames);
    const s = this.sky(job.sky);
    return developed(await this.run('exportPhoto', { frames: f, settings: job.settings, sky: s }, ImagingPool.movable(f, s)));
  }

  async post(bytes: Buffer, options: PostOptions): Promise<DevelopedOutput> {
    const own = ownBytes(bytes);
    return developed(await this.run('postEdit', { bytes: own, options }, [own]));
  }

  async thumbnail(jpeg: Buffer): Promise<Buffer> {
    const own = ownBytes(jpeg);
    return asBuffer(await this.run<Uint8Array>('thumbnail', { bytes: own }, [own]));
  }

  async skyPreview(sky: SkySource): Promise<Buffer> {
    const s = this.sky(sky)!;
    return asBuffer(await this.run<Uint8Array>('skyPreview', { sky: s }, ImagingPool.movable([], s)));
  }

  async copilotVersion(source: Buffer, parent: VersionState, delta: CopilotDelta, sky: SkySource | null): Promise<VersionState & { jpeg: Buffer }> {
    const own = ownBytes(source);
    const s = this.sky(sky);
    const result = await this.run<VersionState & { jpeg: Uint8Array }>('copilotVersion', { source: own, parent, delta, sky: s }, [own, ...ImagingPool.movable([], s)]);
    return { ...result, jpeg: asBuffer(result.jpeg) };
  }

  async copilotSource(frames: SourceFrame[]): Promise<Buffer> {
    const f = this.frames(frames);
    return asBuffer(await this.run<Uint8Array>('copilotSource', { frames: f }, ImagingPool.movable(f)));
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

