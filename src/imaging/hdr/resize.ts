import sharp from 'sharp';
import type { Image16 } from '../types.js';

/** The size whose long edge is at most longEdge, aspect kept; never larger than the input. */
export function sizeForLongEdge(width: number, height: number, longEdge: number): { width: number; height: number } {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Resamples with libvips' Lanczos-3, staying at 16 bits (sharp drops to 8 unless told rgb16). */
export async function resizeImage16(image: Image16, width: number, height: number): Promise<Image16> {
  if (width === image.width && height === image.height) return image;
  const buf = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .toColourspace('rgb16')
    .raw({ depth: 'ushort' })
    .toBuffer();
  const data = buf.byteOffset % 2 === 0 ? new Uint16Array(buf.buffer, buf.byteOffset, buf.length / 2) : new Uint16Array(new Uint8Array(buf).buffer);
  return { width, height, data };
}
