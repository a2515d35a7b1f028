import { ALIGN_SLACK, arena, copyInAlike, reserve, toolKernels } from '../kernels.js';
import type { RgbImage } from '../types.js';

/** A float image at analysis size, values 0..1 (sRGB-encoded), row-major, `channels` interleaved. */
export interface Analysis {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Float32Array;
  /** Source pixels per analysis pixel along each axis (a whole number). */
  factor: number;
}

/** A single-channel analysis image. */
export type Grey = Analysis & { channels: 1 };

/** Source samples per call into the kernel: its buffers stay a few MB. */
const CHUNK_SAMPLES = 1 << 21;

/**
 * An RGB copy whose long edge is at most maxEdge, averaged over factor × factor blocks.
 * Analysis needs no full resolution and runs far faster at ~1 MP; a whole-number box
 * average keeps it synchronous and the mapping back exact: analysis pixel i is centred on
 * source pixel i·factor + (factor−1)/2. 8-bit samples count as their 16-bit widening
 * (v × 257), so an 8-bit photo gives what its widening would. Summed in the WebAssembly
 * kernel (kernels/tools.ts), block rows in chunks through its memory.
 */
export function downscaledRgb(image: RgbImage, maxEdge: number): Analysis & { channels: 3 } {
  return boxAverage(image, maxEdge, 3);
}

/**
 * The Rec. 709 luma of downscaledRgb, number for number (each channel's average rounded to
 * single precision, then weighted): what line detection looks at. Weighted in the kernel
 * (blockLuma), which spares a three-channel copy.
 */
export function downscaledGrey(image: RgbImage, maxEdge: number): Grey {
  return boxAverage(image, maxEdge, 1);
}

function boxAverage<C extends 1 | 3>(image: RgbImage, maxEdge: number, channels: C): Analysis & { channels: C } {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / maxEdge));
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const data = new Float32Array(width * height * channels);
  const eight = image.data instanceof Uint8Array;
  const rowSamples = image.width * 3;
  const rows = Math.max(1, Math.floor(CHUNK_SAMPLES / (factor * rowSamples)));
  const k = toolKernels();
  const l = arena({ src: rows * factor * rowSamples * (eight ? 1 : 2) + ALIGN_SLACK, out: rows * width * channels * 4, sums: Math.ceil((width * factor * 3) / 16) * 16 * 4 });
  reserve(k, l.end);
  const out = new Float32Array(k.memory.buffer, l.out, rows * width * channels);
  const norm = 1 / (factor * factor * 65535);
  const kernel = channels === 3 ? k.blockSums : k.blockLuma;
  for (let y0 = 0; y0 < height; y0 += rows) {
    const count = Math.min(rows, height - y0);
    const at = copyInAlike(k.memory.buffer, l.src, image.data.subarray(y0 * factor * rowSamples, (y0 + count) * factor * rowSamples)).byteOffset;
    kernel(at, eight ? 8 : 16, image.width, factor, count, width, eight ? 257 : 1, norm, l.out, l.sums);
    data.set(out.subarray(0, count * width * channels), y0 * width * channels);
  }
  return { width, height, channels, data, factor };
}
