/**
 * The Image16 itself: its argument check, its way into and out of sharp at full 16-bit
 * precision, and resizing.
 */
import os from 'node:os';
import sharp, { type Sharp } from './sharp.js';
import { invalidParameterError } from './args.js';
import { shareableUint16 } from './bands.js';
import { arena, reserve, toolKernels } from './kernels.js';
import type { Image16, Image8, RgbImage } from './types.js';

/** Throws unless size has positive integer width and height. */
export function assertImageSize(size: unknown, name: string): asserts size is { width: number; height: number } {
  if (typeof size !== 'object' || size === null) throw invalidParameterError(name, 'an object with width and height', size);
  const { width, height } = size as { width?: unknown; height?: unknown };
  if (!Number.isInteger(width) || (width as number) < 1) throw invalidParameterError(`${name}.width`, 'a positive integer', width);
  if (!Number.isInteger(height) || (height as number) < 1) throw invalidParameterError(`${name}.height`, 'a positive integer', height);
}

/** Throws unless image is a well-formed Image16: positive integer size, a Uint16Array of width × height × 3 values. */
export function assertImage16(image: unknown, name = 'image'): asserts image is Image16 {
  if (typeof image !== 'object' || image === null) throw invalidParameterError(name, 'an Image16 {width, height, data}', image);
  assertImageSize(image, name);
  const { width, height, data } = image as Image16;
  if (!(data instanceof Uint16Array)) throw invalidParameterError(`${name}.data`, 'a Uint16Array', data);
  if (data.length !== width * height * 3) throw invalidParameterError(`${name}.data.length`, `${width * height * 3} (width x height x 3)`, data.length);
}

/** Throws unless image is a well-formed Image16 or Image8. */
export function assertRgbImage(image: unknown, name = 'image'): asserts image is RgbImage {
  if (typeof image === 'object' && image !== null && (image as Image8).data instanceof Uint8Array) {
    assertImageSize(image, name);
    const { width, height, data } = image as Image8;
    if (data.length !== width * height * 3) throw invalidParameterError(`${name}.data.length`, `${width * height * 3} (width x height x 3)`, data.length);
    return;
  }
  assertImage16(image, name);
}

/** 8-bit pixels widened exactly (v × 257), once per image: the detectors and render's early stages share the copy. */
const widened = new WeakMap<Image8, Image16>();

/** The image at 16 bits: itself when it is, else its exact widening. */
export function image16Of(image: RgbImage): Image16 {
  if (image.data instanceof Uint16Array) return image as Image16;
  const narrow = image as Image8;
  let wide = widened.get(narrow);
  if (!wide) {
    wide = { width: narrow.width, height: narrow.height, data: widen(narrow.data, shareableUint16(narrow.width, narrow.height)) };
    widened.set(narrow, wide);
  }
  return wide;
}

/** Samples widened per call into the kernel: its buffers stay a few MB. */
const WIDEN_CHUNK = 1 << 20;

/** v × 257 for each 8-bit sample into out, sixteen at a time in the WebAssembly kernel (kernels/tools.ts). */
function widen(narrow: Uint8Array, out: Uint16Array): Uint16Array {
  const k = toolKernels();
  const l = arena({ src: WIDEN_CHUNK, dst: WIDEN_CHUNK * 2 });
  reserve(k, l.end);
  const src = new Uint8Array(k.memory.buffer, l.src, WIDEN_CHUNK);
  const dst = new Uint16Array(k.memory.buffer, l.dst, WIDEN_CHUNK);
  for (let at = 0; at < narrow.length; at += WIDEN_CHUNK) {
    const count = Math.min(WIDEN_CHUNK, narrow.length - at);
    src.set(narrow.subarray(at, at + count));
    k.widenRows(l.src, l.dst, count);
    out.set(dst.subarray(0, count), at);
  }
  return out;
}

/** A sharp pipeline reading the image as raw 16-bit RGB. */
export function sharpFromImage16(image: Image16): Sharp {
  return sharpFromRgb(image);
}

/** A sharp pipeline reading the image as raw RGB at its depth (sharp takes it from the typed array). */
function sharpFromRgb(image: RgbImage): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/**
 * Runs a sharp pipeline to an Image16. The 16-bit colourspace must be named: without it
 * libvips rescales the samples to 8 bits on output.
 */
export async function image16FromSharp(pipeline: Sharp): Promise<Image16> {
  const { data, info } = await pipeline.removeAlpha().toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`libvips returned ${info.channels} channels, expected 3`);
  // A Uint16Array view needs an even byte offset; libvips' buffers nearly always have one, else copy.
  const bytes = data.byteOffset % 2 === 0 ? data : Buffer.from(data);
  return { width: info.width, height: info.height, data: new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2) };
}

/** The size whose long edge is at most longEdge, aspect kept; never larger than the input. */
export function sizeForLongEdge(width: number, height: number, longEdge: number): { width: number; height: number } {
  const scale = Math.min(1, longEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Resamples to width × height with libvips' Lanczos-3, at 16 bits; the image itself when the size is its own. */
export function resizeImage16(image: Image16, width: number, height: number): Promise<Image16> {
  return resizeAtDepth(image, width, height, sharpFromImage16, image16FromSharp);
}

/** resizeImage16 at 8 bits: libvips' vector path, several times faster than its 16-bit one. */
export function resizeImage8(image: Image8, width: number, height: number): Promise<Image8> {
  return resizeAtDepth(image, width, height, sharpFromRgb, image8FromSharp);
}

/** Runs a sharp pipeline on 8-bit RGB to an Image8. */
async function image8FromSharp(pipeline: Sharp): Promise<Image8> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`libvips returned ${info.channels} channels, expected 3`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

async function resizeAtDepth<I extends RgbImage>(image: I, width: number, height: number, from: (image: I) => Sharp, to: (pipeline: Sharp) => Promise<I>): Promise<I> {
  if (width === image.width && height === image.height) return image;
  const resized = () => from(image).resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  if (width < image.width && height < image.height && image.width * image.height >= STRIPS_MIN_PIXELS) return shrinkInStrips(image, width, height, resized, to);
  return to(resized());
}

/** Below this many pixels one libvips pipeline is about as fast as several. */
const STRIPS_MIN_PIXELS = 2_000_000;

/**
 * resizeAtDepth's downscale of a large image on several cores. libvips runs one pipeline on
 * one thread here (sharp's concurrency is 1 on glibc without jemalloc), and a Lanczos-3 shrink
 * reads every source sample for 2 × 3 × the scale taps: 18 MP to 640 px took about 150 ms of
 * CPU at 16 bits while the imaging threads waited. So bands of the output's rows are made at once, each by
 * the whole pipeline cut to its rows (sharp's calls run side by side on libuv's pool): libvips
 * computes only the source rows a band reaches, and a sample does not depend on which region
 * asked for it, so the bands are the one pipeline's rows.
 */
async function shrinkInStrips<I extends RgbImage>(image: I, width: number, height: number, resized: () => Sharp, to: (pipeline: Sharp) => Promise<I>): Promise<I> {
  const strips = Math.min(MAX_STRIPS, os.availableParallelism(), height);
  const rows = Math.ceil(height / strips);
  const length = width * height * 3;
  const out = image.data instanceof Uint8Array ? new Uint8Array(length) : new Uint16Array(length);
  await Promise.all(
    Array.from({ length: Math.ceil(height / rows) }, async (_, k) => {
      const top = k * rows;
      const band = Math.min(height, top + rows) - top;
      const part = await to(resized().extract({ left: 0, top, width, height: band }));
      out.set(part.data, top * width * 3);
    }),
  );
  return { width, height, data: out } as I;
}

/** Strips of resizeImage16's parallel shrink: past a few, each adds more overhead than it takes off. */
const MAX_STRIPS = 4;

/** A copy whose long edge is at most longEdge (resizeImage16 at sizeForLongEdge); the image itself when it is no larger. */
export function shrinkToLongEdge(image: Image16, longEdge: number): Promise<Image16> {
  const size = sizeForLongEdge(image.width, image.height, longEdge);
  return resizeImage16(image, size.width, size.height);
}
