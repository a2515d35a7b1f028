import { Piscina } from 'piscina';
import { asBuffer, ownBytes } from './transfer.js';
import type { DevelopI2iInput, DevelopI2iOutput, FrameInfo, PhotoDeveloper } from '../domain/i2i-editing.js';

/**
 * Photo development on a pool of worker threads sized to the cores, so that decoding and
 * rendering never hold up the API's event loop.
 */
export class ImagingPool implements PhotoDeveloper {
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

  /** Runs a task with its byte arrays moved, not copied, to the worker thread. */
  private run<T>(name: string, task: object, bytes: Uint8Array[]): Promise<T> {
    return this.pool.run(task, { name, transferList: bytes.map((b) => b.buffer as ArrayBuffer) }) as Promise<T>;
  }

  async frameInfo(bytes: Buffer, fileName: string): Promise<FrameInfo> {
    const own = ownBytes(bytes);
    return this.run('frameInfo', { bytes: own, fileName }, [own]);
  }

  async groupBrackets(frames: FrameInfo[]): Promise<string[][]> {
    return frames.map((f) => [f.fileName]);
  }

  async developI2i(input: DevelopI2iInput): Promise<DevelopI2iOutput> {
    const frames = input.frames.map((f) => ({ fileName: f.fileName, rotate: f.rotate, bytes: ownBytes(f.bytes) }));
    const result = await this.run<{ jpeg: Uint8Array; thumbnail: Uint8Array; settings: unknown }>(
      'develop',
      {
        frames,
        options: {
          hdrMerge: input.options.hdr_merge,
          perspectiveCorrection: input.options.perspective_correction,
          skyReplacement: input.options.sky_replacement,
          skyTemplateId: input.options.sky_replacement_template_id,
        },
      },
      frames.map((f) => f.bytes),
    );
    return { jpeg: asBuffer(result.jpeg), thumbnail: asBuffer(result.thumbnail), settings: result.settings };
  }

  async thumbnail(jpeg: Buffer): Promise<Buffer> {
    const own = ownBytes(jpeg);
    return asBuffer(await this.run<Uint8Array>('thumbnail', { bytes: own }, [own]));
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
