import { Piscina } from 'piscina';
import type { DevelopedOutput } from '../domain/batch.js';
import type { I2iEditOptions } from '../domain/i2i-editing.js';
import type { FrameInfo, SourceFrame } from '../domain/photo-plan.js';
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
 * Photo development on a pool of worker threads sized to the cores, so that decoding and
 * rendering never hold up the API's event loop. Input bytes are moved to the thread, not copied.
 */
export class ImagingPool {
  private readonly pool: Piscina;

  constructor(threads: number) {
    this.pool = new Piscina({
      filename: new URL('./imaging-tasks.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      // Idle threads give their memory back; a burst of edits starts them again in milliseconds.
      idleTimeout: 30_000,
    });
  }

  private run<T>(name: string, task: object, bytes: Uint8Array[]): Promise<T> {
    return this.pool.run(task, { name, transferList: bytes.map((b) => b.buffer as ArrayBuffer) }) as Promise<T>;
  }

  private frames(frames: SourceFrame[]) {
    return frames.map((f) => ({ fileName: f.fileName, rotate: f.rotate, bytes: ownBytes(f.bytes) }));
  }

  async frameInfo(bytes: Buffer, fileName: string): Promise<FrameInfo> {
    const own = ownBytes(bytes);
    return this.run('frameInfo', { bytes: own, fileName }, [own]);
  }

  async developI2i(frames: SourceFrame[], options: I2iEditOptions): Promise<DevelopedOutput> {
    const moved = this.frames(frames);
    return developed(await this.run<DevelopedBytes>('developI2i', { frames: moved, options }, moved.map((f) => f.bytes)));
  }

  async thumbnail(jpeg: Buffer): Promise<Buffer> {
    const own = ownBytes(jpeg);
    return asBuffer(await this.run<Uint8Array>('thumbnail', { bytes: own }, [own]));
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
