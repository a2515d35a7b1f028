import sharp, { type Sharp } from 'sharp';
import type { Image16 } from '../types.js';

/** An argument error in sharp's words: which parameter, what was expected, what came. */
export function invalidParameter(name: string, expected: string, actual: unknown): Error {
  const shown = typeof actual === 'object' && actual !== null ? Object.prototype.toString.call(actual) : String(actual);
  return new Error(`Expected ${expected} for ${name} but received ${shown} of type ${typeof actual}`);
}

export function assertImage16(image: unknown, name: string): asserts image is Image16 {
  const candidate = image as Partial<Image16> | null;
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    !Number.isInteger(candidate.width) ||
    !Number.isInteger(candidate.height) ||
    candidate.width! < 1 ||
    candidate.height! < 1 ||
    !(candidate.data instanceof Uint16Array) ||
    candidate.data.length !== candidate.width! * candidate.height! * 3
  ) {
    throw invalidParameter(name, 'an Image16 (positive integer width and height, Uint16Array data of width*height*3)', image);
  }
}

export function assertNumberInRange(value: unknown, name: string, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalidParameter(name, `a number between ${min} and ${max}`, value);
  }
}

/** A sharp pipeline reading an Image16 as 16-bit RGB. */
export function sharpFromImage16(image: Image16): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/** Runs a sharp pipeline to 16-bit RGB. */
export async function image16FromSharp(pipeline: Sharp): Promise<Image16> {
  const { data, info } = await pipeline.removeAlpha().toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
  // Copy out of sharp's Buffer so the pixels own an aligned ArrayBuffer.
  const pixels = new Uint16Array(info.width * info.height * 3);
  pixels.set(new Uint16Array(data.buffer, data.byteOffset, pixels.length));
  return { width: info.width, height: info.height, data: pixels };
}

/** Long edge of the analysis copies segmentation and statistics work on: detail enough, a fraction of the cost. */
export const ANALYSIS_EDGE = 640;

/** A downscaled float copy for analysis: interleaved RGB, sRGB-encoded, 0..1. */
export interface AnalysisCopy {
  width: number;
  height: number;
  rgb: Float32Array;
}

/** Downscales so the long edge is at most longEdge (never upscales) and converts to floats. */
export async function analysisCopy(image: Image16, longEdge: number): Promise<AnalysisCopy> {
  const scale = Math.min(1, longEdge / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const small = scale < 1 ? await image16FromSharp(sharpFromImage16(image).resize(width, height, { fit: 'fill' })) : image;
  const rgb = new Float32Array(small.data.length);
  for (let i = 0; i < rgb.length; i++) rgb[i] = small.data[i]! / 65535;
  return { width, height, rgb };
}
