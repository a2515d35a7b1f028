import type { Image16 } from '../types.js';

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

/**
 * An RGB copy whose long edge is at most maxEdge, averaged over factor × factor blocks.
 * Analysis needs no full resolution and runs far faster at ~1 MP; a whole-number box
 * average keeps it synchronous and the mapping back exact: analysis pixel i is centred on
 * source pixel i·factor + (factor−1)/2.
 */
export function downscaledRgb(image: Image16, maxEdge: number): Analysis & { channels: 3 } {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / maxEdge));
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const data = new Float32Array(width * height * 3);
  const src = image.data;
  const stride = image.width * 3;
  const norm = 1 / (factor * factor * 65535);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let dy = 0; dy < factor; dy++) {
        let p = (y * factor + dy) * stride + x * factor * 3;
        for (let dx = 0; dx < factor; dx++, p += 3) {
          r += src[p]!;
          g += src[p + 1]!;
          b += src[p + 2]!;
        }
      }
      const o = (y * width + x) * 3;
      data[o] = r * norm;
      data[o + 1] = g * norm;
      data[o + 2] = b * norm;
    }
  }
  return { width, height, channels: 3, data, factor };
}

/** The Rec. 709 luma of downscaledRgb: what line detection looks at. */
export function downscaledGrey(image: Image16, maxEdge: number): Grey {
  const rgb = downscaledRgb(image, maxEdge);
  const data = new Float32Array(rgb.width * rgb.height);
  for (let i = 0, p = 0; i < data.length; i++, p += 3) data[i] = 0.2126 * rgb.data[p]! + 0.7152 * rgb.data[p + 1]! + 0.0722 * rgb.data[p + 2]!;
  return { width: rgb.width, height: rgb.height, channels: 1, data, factor: rgb.factor };
}
