/**
 * render(image, settings): the one renderer. Stages, in this order:
 *
 *   1. geometry      straighten (rotation about the centre, cropped to the largest
 *                    rectangle of the original aspect ratio), then `crop`
 *   2. noise         luminance noise reduction, on the decoded data before tone
 *                    curves stretch the noise
 *   3. develop       one fused pass per pixel: sharpening (unsharp mask of the input
 *                    luma, as raw converters sharpen before the tone curve) → white
 *                    balance + exposure (a 3×3 matrix in linear light) → local tone
 *                    (highlights, shadows, clarity on an edge-aware base layer) → tone
 *                    curve (contrast, whites, blacks, sRGB encoding; a lookup table) →
 *                    colour (vibrance, saturation)
 *
 * Perspective, sky replacement, window pull, skin smoothing and hdr are carried in the
 * settings but not applied here: perspective belongs to the geometry stage, the others to
 * a composite stage after develop (docs/imaging-engine.md).
 */
import sharp, { type Sharp } from 'sharp';
import { validateSettings, type DevelopSettings } from './settings.js';
import { reduceNoise } from './tone/detail.js';
import { planDevelop } from './tone/develop.js';
import { developImage } from './tone/develop-pool.js';
import type { Box, Image16 } from './types.js';

/** Throws unless image is a well-formed Image16. */
export function assertImage16(image: unknown, name = 'image'): asserts image is Image16 {
  const img = image as Partial<Image16> | null;
  if (typeof img !== 'object' || img === null) throw new Error(`Expected an Image16 {width, height, data} for ${name} but received ${String(image)}`);
  if (!Number.isInteger(img.width) || img.width! < 1) throw new Error(`Expected a positive integer for ${name}.width but received ${String(img.width)}`);
  if (!Number.isInteger(img.height) || img.height! < 1) throw new Error(`Expected a positive integer for ${name}.height but received ${String(img.height)}`);
  if (!(img.data instanceof Uint16Array)) throw new Error(`Expected a Uint16Array for ${name}.data`);
  if (img.data.length !== img.width! * img.height! * 3) throw new Error(`Expected ${name}.data to hold width × height × 3 = ${img.width! * img.height! * 3} values but it holds ${img.data.length}`);
}

export async function render(image: Image16, settings: DevelopSettings): Promise<Image16> {
  assertImage16(image);
  const s = validateSettings(settings);
  const framed = await geometryStage(image, s);
  const denoised = await reduceNoise(framed, s.noiseReduction);
  return developStage(denoised, s);
}

/** The develop pass (see tone/develop.ts), spread over the cores for large images. */
export function developStage(image: Image16, s: DevelopSettings): Promise<Image16> {
  return developImage(planDevelop(image, s), image);
}

function fromRaw(buffer: Buffer, width: number, height: number): Image16 {
  // A Uint16Array view needs an even offset; copy in the rare case it is not.
  const bytes = buffer.byteOffset % 2 === 0 ? buffer : Buffer.from(buffer);
  return { width, height, data: new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2) };
}

function rawInput(image: Image16): Sharp {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });
}

/**
 * Scale of the largest rectangle of the original's aspect ratio, centred, that fits
 * inside a width × height picture rotated by angle degrees.
 */
export function straightenScale(width: number, height: number, angle: number): number {
  const t = (Math.abs(angle) * Math.PI) / 180;
  const c = Math.cos(t);
  const sn = Math.sin(t);
  return Math.min(width / (width * c + height * sn), height / (width * sn + height * c));
}

/**
 * That rectangle in the coordinates of the rotated bounding canvas of size
 * canvasWidth × canvasHeight, rounded inwards so no corner of the canvas shows.
 */
export function straightenedFrame(width: number, height: number, angle: number, canvasWidth: number, canvasHeight: number): Box {
  const scale = straightenScale(width, height, angle);
  const margin = angle === 0 ? 0 : 2;
  const w = Math.floor(width * scale) - margin;
  const h = Math.floor(height * scale) - margin;
  return { x: Math.ceil((canvasWidth - w) / 2), y: Math.ceil((canvasHeight - h) / 2), width: w, height: h };
}

/** A crop (fractions) of a frame, in pixels of the frame's canvas, at least 1 px. */
function cropBox(frame: Box, crop: DevelopSettings['crop']): Box {
  if (!crop) return frame;
  const x0 = Math.round(frame.x + crop.left * frame.width);
  const y0 = Math.round(frame.y + crop.top * frame.height);
  const x1 = Math.max(x0 + 1, Math.round(frame.x + crop.right * frame.width));
  const y1 = Math.max(y0 + 1, Math.round(frame.y + crop.bottom * frame.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** Geometry: straighten, then crop. Returns the input itself when neither is set. */
export async function geometryStage(image: Image16, s: DevelopSettings): Promise<Image16> {
  if (s.straightenAngle === 0 && !s.crop) return image;
  let canvas = image;
  if (s.straightenAngle !== 0) {
    const { data, info } = await rawInput(image).rotate(s.straightenAngle, { background: { r: 0, g: 0, b: 0 } }).toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
    canvas = fromRaw(data, info.width, info.height);
  }
  const box = cropBox(straightenedFrame(image.width, image.height, s.straightenAngle, canvas.width, canvas.height), s.crop);
  const { data, info } = await rawInput(canvas).extract({ left: box.x, top: box.y, width: box.width, height: box.height }).toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer({ resolveWithObject: true });
  return fromRaw(data, info.width, info.height);
}

