import sharp, { type Sharp } from 'sharp';
import type { Image16 } from '../src/imaging/types.js';

/** Decodes any image sharp reads to 16-bit sRGB (the lead swaps this for imaging/decode.ts). */
export async function decode16(input: string | Buffer): Promise<Image16> {
  const { data, info } = await sharp(input).removeAlpha().toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint16Array(data.buffer, data.byteOffset, data.length / 2) };
}

function input16(image: Image16): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

export function encodeJpeg(image: Image16, quality = 90): Promise<Buffer> {
  return input16(image).toColourspace('srgb').jpeg({ quality }).toBuffer();
}

export function encodePng16(image: Image16): Promise<Buffer> {
  return input16(image).toColourspace('rgb16').png().toBuffer();
}

/** A JPEG thumbnail fitting width × height, for contact sheets. */
export function thumbnail(image: Image16, width: number, height: number): Promise<Buffer> {
  return input16(image).toColourspace('srgb').resize(width, height, { fit: 'contain', background: '#202020' }).png().toBuffer();
}
