/**
 * Decodes an upload to the engine's working image: 16-bit sRGB, upright. JPEG, PNG, TIFF,
 * WebP and HEIF go through sharp (libvips), which converts embedded ICC profiles to sRGB;
 * camera RAWs are developed by LibRaw (raw/libraw.ts). The format comes from the bytes.
 */
import sharp, { type Metadata, type Sharp } from './sharp.js';
import { assertIntegerInRange, invalidParameterError } from './args.js';
import { sharedRoom8, sharesPixels } from './bands.js';
import { image16FromSharp, image16Of, sharpFromImage16 } from './image16.js';
import { decodeInTwoParts, decodesInTwoParts } from './jpeg-two-part.js';
import { emptyMetadata, readMetadata, withLibRaw } from './metadata.js';
import { detectFormat, type ImageFormat } from './raw/detect.js';
import { librawDecode, librawIdentify, type LibRawInfo } from './raw/libraw.js';
import { asShotWhitePoint, type WhitePoint } from './raw/white-point.js';
import type { Image16, Image8, PhotoMetadata, RgbImage } from './types.js';

export interface DecodeOptions {
  /** Only a hint: the bytes decide the format. */
  fileName?: string;
  /** Clockwise degrees applied after the file's own orientation. */
  rotate?: 0 | 90 | 180 | 270;
  /** Downscale so the long edge is at most this (previews); decoders skip work where they can. */
  maxLongEdge?: number;
  /** Return 8-bit sources as an Image8 instead of widening them (the automatic edit's path to a JPEG). */
  keep8Bit?: boolean;
}

/** What a RAW development knows beyond the pixels: for white balance and Adobe XMP Temperature/Tint. */
export interface RawInfo {
  make: string;
  model: string;
  /** Full-resolution upright size of the developed image (before maxLongEdge). */
  width: number;
  height: number;
  bitsPerSample: number;
  blackLevel: number;
  whiteLevel: number;
  /** White balance the camera recorded (R, G, B multipliers, G = 1); null when it recorded none and daylight was used. */
  asShotMultipliers: [number, number, number] | null;
  /** Multipliers that make D65 daylight neutral for this camera (G = 1). */
  daylightMultipliers: [number, number, number];
  /** The light the as-shot balance neutralises: xy, kelvin and Adobe tint; null when unknown. */
  asShotWhite: WhitePoint | null;
}

export interface DecodedPhoto<I extends RgbImage = Image16> {
  image: I;
  metadata: PhotoMetadata;
  format: ImageFormat;
  /** EXIF orientation (1..8) the file is stored with; `image` is already turned upright. */
  orientation: number;
  rawInfo?: RawInfo;
}

/** A photo's pixel size and format, as its header tells them. */
export interface ImageSize {
  width: number;
  height: number;
  format: ImageFormat;
}

/**
 * The pixel size a decode will make, read from the header alone (sharp's header read;
 * LibRaw's identify for RAWs): what a photo will cost, known before any memory is spent on it.
 */
export async function readImageSize(input: Buffer, fileName?: string): Promise<ImageSize> {
  const { format } = detectFormat(input, fileName);
  if (format === 'raw') {
    const info = await librawIdentify(input);
    return { width: info.width, height: info.height, format };
  }
  const header = await sharp(input)
    .metadata()
    .catch((err: Error) => {
      throw new Error(`corrupt ${format.toUpperCase()}: ${err.message}`);
    });
  if (!header.width || !header.height) throw new Error(`corrupt ${format.toUpperCase()}: no pixel size in the header`);
  return { width: header.width, height: header.height, format };
}

/** LibRaw's flip codes as EXIF orientations: none, 180°, 90° counter-clockwise, 90° clockwise. */
const LIBRAW_FLIP_TO_EXIF: Record<number, number> = { 0: 1, 3: 3, 5: 8, 6: 6 };

export async function decodeImage(input: Buffer, options?: DecodeOptions & { keep8Bit?: false }): Promise<DecodedPhoto>;
export async function decodeImage(input: Buffer, options: DecodeOptions): Promise<DecodedPhoto<RgbImage>>;
export async function decodeImage(input: Buffer, options: DecodeOptions = {}): Promise<DecodedPhoto<RgbImage>> {
  if (!Buffer.isBuffer(input)) throw invalidParameterError('input', 'a Buffer', input);
  const { fileName, rotate = 0, maxLongEdge, keep8Bit = false } = options;
  if (fileName !== undefined && typeof fileName !== 'string') throw invalidParameterError('fileName', 'a string', fileName);
  if (![0, 90, 180, 270].includes(rotate)) throw invalidParameterError('rotate', 'one of 0, 90, 180, 270', rotate);
  if (maxLongEdge !== undefined) assertIntegerInRange(maxLongEdge, 'maxLongEdge', 1);
  const { format, rawContainer } = detectFormat(input, fileName);
  // For RAW layouts only LibRaw reads, the decode below fills the metadata instead.
  const metadata = rawContainer === 'other' ? emptyMetadata() : await readMetadata(input, fileName);
  if (format === 'raw') {
    const { image, info } = await librawDecode(input, maxLongEdge === undefined ? {} : { maxLongEdge });
    const upright = rotate === 0 && (maxLongEdge === undefined || Math.max(image.width, image.height) <= maxLongEdge) ? image : await transform(image, rotate, maxLongEdge);
    return { image: upright, metadata: withLibRaw(metadata, info), format, orientation: LIBRAW_FLIP_TO_EXIF[info.flip] ?? 1, rawInfo: rawInfoOf(info) };
  }
  const header = await sharp(input)
    .metadata()
    .catch((err: Error) => {
      throw new Error(`corrupt ${format.toUpperCase()}: ${err.message}`);
    });
  if (header.compression === 'hevc') {
    // sharp's bundled libvips decodes AVIF-coded HEIF only: HEVC is patent-encumbered and left out of it.
    throw new Error('HEIC photos coded with HEVC (as iPhones write them) are not supported: the image library has no HEVC decoder. Export the photo as JPEG (or AVIF) and upload that.');
  }
  let source = input;
  let sixteenBit = header.depth !== 'uchar' && header.depth !== 'char';
  const srgbOrUntagged = !header.icc || /sRGB/i.test(iccDescription(header.icc));
  if (sixteenBit && !srgbOrUntagged) {
    // sharp 0.35 garbles ICC transforms of 16-bit pixels: narrow to 8 bits still under the source profile, then convert that.
    source = await sharp(input, { failOn: 'error' }).autoOrient().keepIccProfile().toColourspace('srgb').png({ compressionLevel: 0 }).toBuffer();
    sixteenBit = false;
  }
  const pipelineOf = (bytes: Buffer) => {
    let pipeline = sharp(bytes, { failOn: 'error' }).autoOrient();
    // 16-bit sRGB needs no transform, and skipping it avoids the bug above.
    if (sixteenBit) pipeline = pipeline.keepIccProfile();
    // Resized before the user's turn: a turn first makes libvips decode every pixel of a JPEG instead of a DCT-scaled copy (5x the CPU at 18 MP).
    if (maxLongEdge !== undefined) pipeline = pipeline.resize(maxLongEdge, maxLongEdge, { fit: 'inside', withoutEnlargement: true });
    return pipeline.rotate(rotate).flatten({ background: '#ffffff' });
  };
  const what = `corrupt ${format.toUpperCase()}`;
  let image: RgbImage;
  if (sixteenBit || !keep8Bit) image = await toImage16(pipelineOf(source), sixteenBit, what);
  else if (maxLongEdge !== undefined) image = await toImage8(pipelineOf(source), what);
  else image = await fullSize8(source, pipelineOf, header, rotate, what);
  return { image, metadata, format, orientation: header.orientation ?? 1 };
}

/**
 * A photo kept 8-bit and not resized has the header's pixel count, so its shared room can be
 * made while libvips decodes; a baseline upright JPEG bound for it decodes in two parts at once.
 */
async function fullSize8(source: Buffer, pipelineOf: (bytes: Buffer) => Sharp, header: Metadata, rotate: number, what: string): Promise<Image8> {
  const width = header.width ?? 0;
  const height = header.height ?? 0;
  if (!sharesPixels(width * height) || !decodesInTwoParts({ header, rotate, maxLongEdge: undefined })) return toImage8(pipelineOf(source), what, width * height);
  try {
    return await decodeInTwoParts(source, pipelineOf, width, height, () => sharedRoom8(width * height)!);
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}`);
  }
}

/** An ICC profile's description ('desc' tag, v2 text or v4 multi-localised), '' when unreadable. */
function iccDescription(icc: Buffer): string {
  try {
    const count = icc.readUInt32BE(128);
    for (let i = 0; i < Math.min(count, 100); i++) {
      const entry = 132 + i * 12;
      if (icc.toString('latin1', entry, entry + 4) !== 'desc') continue;
      const at = icc.readUInt32BE(entry + 4);
      const type = icc.toString('latin1', at, at + 4);
      if (type === 'desc') return icc.toString('latin1', at + 12, at + 12 + Math.min(icc.readUInt32BE(at + 8), 256)).replace(/\0.*$/s, '');
      if (type === 'mluc') {
        const length = icc.readUInt32BE(at + 20);
        const offset = icc.readUInt32BE(at + 24);
        return Buffer.from(icc.subarray(at + offset, at + offset + (Math.min(length, 512) & ~1)))
          .swap16()
          .toString('utf16le');
      }
    }
  } catch {
    // A malformed profile reads as no description.
  }
  return '';
}

/**
 * Runs a sharp pipeline to interleaved 16-bit sRGB. 8-bit sources are expanded here
 * (v * 257, exact) because libvips' own 8-to-16-bit sRGB conversion is off by up to 1/255.
 */
async function toImage16(pipeline: Sharp, sixteenBit: boolean, what: string): Promise<Image16> {
  if (!sixteenBit) return image16Of(await toImage8(pipeline, what));
  try {
    return await image16FromSharp(pipeline);
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}`);
  }
}

/**
 * Runs a sharp pipeline to interleaved 8-bit sRGB. Given the pixel count it will have, a
 * large image comes back in shared memory (sharedRoom8, made while libvips decodes).
 */
async function toImage8(pipeline: Sharp, what: string, pixels = 0): Promise<Image8> {
  try {
    const decoding = pipeline.toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const room = sharedRoom8(pixels);
    const { data, info } = await decoding;
    if (info.channels !== 3) throw new Error(`decoded to ${info.channels} channels, expected 3`);
    if (room?.length === data.length) {
      room.set(data);
      return { width: info.width, height: info.height, data: room };
    }
    return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message}`);
  }
}

/** Rotates and/or downscales a developed image. */
function transform(image: Image16, rotate: number, maxLongEdge: number | undefined): Promise<Image16> {
  let pipeline = sharpFromImage16(image).rotate(rotate);
  if (maxLongEdge !== undefined) pipeline = pipeline.resize(maxLongEdge, maxLongEdge, { fit: 'inside', withoutEnlargement: true });
  return toImage16(pipeline, true, 'RAW post-processing failed');
}

function rawInfoOf(info: LibRawInfo): RawInfo {
  const rgb = (m: number[]): [number, number, number] => [m[0]! / m[1]!, 1, m[2]! / m[1]!];
  const swapped = (info.flip & 4) !== 0;
  return {
    make: info.make,
    model: info.model,
    width: swapped ? info.height : info.width,
    height: swapped ? info.width : info.height,
    bitsPerSample: info.bitsPerSample,
    blackLevel: info.blackLevel,
    whiteLevel: info.whiteLevel,
    asShotMultipliers: info.cameraMultipliers[0]! > 0 && info.cameraMultipliers[1]! > 0 ? rgb(info.cameraMultipliers) : null,
    daylightMultipliers: rgb(info.daylightMultipliers),
    asShotWhite: asShotWhitePoint(info),
  };
}
