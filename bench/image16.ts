import sharp from '../src/imaging/sharp.js';
import { image16FromSharp, sharpFromImage16 } from '../src/imaging/image16.js';
import type { Image16 } from '../src/imaging/types.js';

/** Decodes any image sharp reads to 16-bit sRGB (the lead swaps this for imaging/decode.ts). */
export function decode16(input: string | Buffer): Promise<Image16> {
  return image16FromSharp(sharp(input));
}

export function encodeJpeg(image: Image16, quality = 90): Promise<Buffer> {
  return sharpFromImage16(image).toColourspace('srgb').jpeg({ quality }).toBuffer();
}

export function encodePng16(image: Image16): Promise<Buffer> {
  return sharpFromImage16(image).toColourspace('rgb16').png().toBuffer();
}

/** A JPEG thumbnail fitting width × height, for contact sheets. */
export function thumbnail(image: Image16, width: number, height: number): Promise<Buffer> {
  return sharpFromImage16(image).toColourspace('srgb').resize(width, height, { fit: 'contain', background: '#202020' }).png().toBuffer();
}
