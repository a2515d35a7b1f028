import type { Image16 } from '../types.js';

/** A single-channel float image, values 0..1 (sRGB-encoded luma), row-major. */
export interface Grey {
  width: number;
  height: number;
  data: Float32Array;
  /** Source pixels per analysis pixel along each axis (a whole number). */
  factor: number;
}

/**
 * A grey copy whose long edge is at most maxEdge, averaged over factor × factor blocks.
 * Line and saliency analysis need neither full resolution nor colour and run far faster
 * at ~1 MP; a whole-number box average keeps the analysis synchronous and the mapping
 * back to source pixels exact: analysis pixel i is centred on source pixel i·factor + (factor−1)/2.
 */
export function downscaledGrey(image: Image16, maxEdge: number): Grey {
  const factor = Math.max(1, Math.ceil(Math.max(image.width, image.height) / maxEdge));
  const width = Math.max(1, Math.floor(image.width / factor));
  const height = Math.max(1, Math.floor(image.height / factor));
  const data = new Float32Array(width * height);
  const src = image.data;
  const stride = image.width * 3;
  // Rec. 709 luma weights, folded with the block average and the 16-bit range.
  const norm = 1 / (factor * factor * 65535);
  const wr = 0.2126 * norm;
  const wg = 0.7152 * norm;
  const wb = 0.0722 * norm;
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
      data[y * width + x] = r * wr + g * wg + b * wb;
    }
  }
  return { width, height, data, factor };
}
