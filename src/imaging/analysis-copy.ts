/**
 * Small float copies of an image for analysis: decisions (sky and window masks, faces,
 * skin, subject) are taken on a downscaled copy and applied at full size. Values are
 * sRGB-encoded, 0..1.
 */
import { sharedFloat32 } from './bands.js';
import { image16FromSharp, sharpFromImage16, shrinkToLongEdge } from './image16.js';
import type { Image16 } from './types.js';

/** Long edge of the copies sky and window segmentation work on: detail enough, a fraction of the cost. */
export const ANALYSIS_EDGE = 640;

/** Interleaved RGB floats. */
export interface AnalysisCopy {
  width: number;
  height: number;
  rgb: Float32Array;
}

/**
 * Downscales (Lanczos-3, never enlarging) so the long edge is at most longEdge, and converts to
 * floats; on an imaging thread, in shared memory, so that the tasks render offers to the other
 * threads (composite-fits.ts, sky/scene.ts) read it without a copy.
 */
export async function analysisCopy(image: Image16, longEdge: number): Promise<AnalysisCopy> {
  const small = await shrinkToLongEdge(image, longEdge);
  const rgb = sharedFloat32(small.data.length);
  for (let i = 0; i < rgb.length; i++) rgb[i] = small.data[i]! / 65535;
  return { width: small.width, height: small.height, rgb };
}

/** R, G, B planes of an image scaled by 1/scale. */
export interface RgbPlanes {
  width: number;
  height: number;
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
  /** Full-size pixels per analysis pixel (>= 1). */
  scale: number;
}

/** Downscales (never enlarges) so the long edge is at most longEdge, with libvips' area-averaging resize, into planes. */
export async function downscalePlanes(image: Image16, longEdge: number): Promise<RgbPlanes> {
  const small = Math.max(image.width, image.height) > longEdge ? await image16FromSharp(sharpFromImage16(image).resize(longEdge, longEdge, { fit: 'inside', kernel: 'linear' })) : image;
  const { width, height, data } = small;
  const n = width * height;
  const r = new Float32Array(n);
  const g = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    r[i] = data[j]! / 65535;
    g[i] = data[j + 1]! / 65535;
    b[i] = data[j + 2]! / 65535;
  }
  return { width, height, r, g, b, scale: image.width / width };
}

/** Rec. 601 luma of sRGB-encoded planes. */
export function lumaOf(planes: RgbPlanes): Float32Array {
  const { r, g, b } = planes;
  const y = new Float32Array(r.length);
  for (let i = 0; i < y.length; i++) y[i] = 0.299 * r[i]! + 0.587 * g[i]! + 0.114 * b[i]!;
  return y;
}
