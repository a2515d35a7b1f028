/**
 * Planar float copies of an image for analysis (face detection, skin and subject masks):
 * decisions are taken on a small copy and applied at full size.
 */
import sharp from 'sharp';
import type { Image16 } from '../types.js';

/** R, G, B planes, sRGB-encoded 0..1, of an image scaled by 1/scale. */
export interface RgbPlanes {
  width: number;
  height: number;
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
  /** Full-size pixels per analysis pixel (>= 1). */
  scale: number;
}

/** Downscales (never enlarges) so the long edge is at most longEdge, with libvips' area-averaging resize. */
export async function downscalePlanes(image: Image16, longEdge: number): Promise<RgbPlanes> {
  let data = image.data;
  let { width, height } = image;
  if (Math.max(width, height) > longEdge) {
    const out = await sharp(image.data, { raw: { width, height, channels: 3 } })
      .resize(longEdge, longEdge, { fit: 'inside', kernel: 'linear' })
      .toColourspace('rgb16')
      .raw({ depth: 'ushort' })
      .toBuffer({ resolveWithObject: true });
    data = new Uint16Array(out.data.buffer, out.data.byteOffset, out.data.length / 2);
    width = out.info.width;
    height = out.info.height;
  }
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
