/**
 * Encodes the engine's 16-bit sRGB images for delivery: JPEG with the metadata
 * photographers expect (camera, lens, capture time, exposure, GPS unless stripped, sRGB
 * ICC, orientation reset to 1 since pixels are upright), small JPEG thumbnails, and
 * lossless 16-bit TIFF. The EXIF is written here, byte for byte, and spliced into sharp's
 * output: exact fractions, and no loss of values libvips' string form cannot carry.
 */
import os from 'node:os';
import sharp from './sharp.js';
import { assertIntegerInRange, invalidParameterError } from './args.js';
import { assertImage16, assertRgbImage, image16FromSharp, sharpFromImage16 } from './image16.js';
import { TiffReader } from './raw/tiff.js';
import { placeExif, TiffLayout, type CopiedTag } from './raw/tiff-writer.js';
import { encodeBaseline, encodeInStrips, stripRows } from './jpeg-strips.js';
import type { Image16, PhotoMetadata, RgbImage } from './types.js';

export interface EncodeJpegOptions {
  /** 1..100, default 92. */
  quality?: number;
  /** Written as EXIF; pixels are always tagged sRGB (the engine works in sRGB). */
  metadata?: PhotoMetadata;
  /** Leave GPS position out of the output. */
  stripGps?: boolean;
}

/**
 * Below this many pixels a JPEG is encoded in one piece: a strip's pipeline costs about 0.6 ms
 * of CPU, and waking a second thread more. Best of 21–25 alternating runs at load 7: 2 MP in
 * two strips 6.5–7.0 ms against 5.8 in one in two runs (4.4 against 5.8 in a third), 4 MP
 * 7.4–8.0 against 10.0–10.3 in three (node dist/bench/encode-strips.js).
 */
const STRIPS_MIN_PIXELS = 4_000_000;

export interface EncodeTiffOptions {
  /** Default 'deflate' (with horizontal prediction). */
  compression?: 'deflate' | 'lzw' | 'none';
  metadata?: PhotoMetadata;
  stripGps?: boolean;
}

export async function encodeJpeg(image: RgbImage, options: EncodeJpegOptions = {}): Promise<Buffer> {
  assertRgbImage(image);
  const { quality = 92, metadata, stripGps = false } = options;
  assertIntegerInRange(quality, 'quality', 1, 100);
  assertMetadata(metadata);
  // Without optimised Huffman tables libjpeg streams instead of holding every DCT coefficient
  // of the photo (6 B/px): a third of the time, for files about 3 % larger; and strips of it
  // share the standard tables, so they join into one file (jpeg-strips.ts). The pixels are
  // sRGB already, so the profile is attached as it is rather than through a colour transform.
  const [jpeg, icc] = await Promise.all([baselineJpeg(image, quality), srgbProfile()]);
  const layout = new TiffLayout();
  const exif = layout.finish(layout.placeIfd(placeExif(layout, metadata, { stripGps, width: image.width, height: image.height })));
  return withSegments(jpeg, [segment(0xe1, 'Exif\0\0', exif), segment(0xe2, 'ICC_PROFILE\0', Buffer.concat([Buffer.from([1, 1]), icc]))]);
}

/**
 * The image's baseline JPEG: on every core, in strips joined by restart markers (jpeg-strips.ts),
 * when it is large enough to gain; the same pixels either way.
 */
function baselineJpeg(image: RgbImage, quality: number): Promise<Buffer> {
  const data = samples8(image);
  const rows = image.width * image.height >= STRIPS_MIN_PIXELS ? stripRows(image.width, image.height, os.availableParallelism()) : null;
  return rows === null ? encodeBaseline(data, image.width, image.height, quality) : encodeInStrips(data, image.width, image.height, quality, rows);
}

/** A small JPEG preview, long edge `longEdge` (never enlarged), without metadata. */
export async function encodeThumbnail(image: RgbImage, longEdge = 512): Promise<Buffer> {
  assertRgbImage(image);
  assertIntegerInRange(longEdge, 'longEdge', 1);
  const fit = { fit: 'inside', withoutEnlargement: true } as const;
  if (image.data instanceof Uint8Array) return sharp8(image).resize(longEdge, longEdge, fit).jpeg({ quality: 80 }).toBuffer();
  // Downscale at 16 bits, round to 8 afterwards (libvips truncates when it narrows).
  const small = await image16FromSharp(sharpFromImage16(image as Image16).resize(longEdge, longEdge, fit));
  return sharp8(small).jpeg({ quality: 80 }).toBuffer();
}

/** A sharp pipeline reading the image as raw 8-bit RGB (16-bit images rounded to 8 bits first). */
function sharp8(image: RgbImage) {
  return sharp(samples8(image), { raw: { width: image.width, height: image.height, channels: 3 } });
}

/** The image's samples at 8 bits (16-bit ones rounded). */
function samples8(image: RgbImage): Uint8Array {
  return image.data instanceof Uint8Array ? image.data : to8Bit(image.data);
}

/** Lossless 16-bit RGB TIFF, tagged sRGB, with the same EXIF as encodeJpeg. */
export async function encodeTiff16(image: Image16, options: EncodeTiffOptions = {}): Promise<Buffer> {
  assertImage16(image);
  const { compression = 'deflate', metadata, stripGps = false } = options;
  if (!['deflate', 'lzw', 'none'].includes(compression)) throw invalidParameterError('compression', 'one of deflate, lzw, none', compression);
  assertMetadata(metadata);
  // sharp writes the pixels; its 16-bit ICC transform is wrong, so the profile is added here with the EXIF.
  const tiff = await sharpFromImage16(image)
    .toColourspace('rgb16')
    .tiff({ compression, ...(compression === 'none' ? {} : { predictor: 'horizontal' as const }) })
    .toBuffer();
  const reader = new TiffReader(tiff);
  if (!reader.littleEndian) throw new Error('encodeTiff16: expected a little-endian TIFF from libvips');
  const layout = new TiffLayout(tiff);
  const ours = [...placeExif(layout, metadata, { stripGps, width: image.width, height: image.height }), { tag: ICC_PROFILE, type: 'UNDEFINED' as const, values: await srgbProfile() }];
  const kept: CopiedTag[] = [...reader.ifd(reader.firstIfd).entries.values()].filter((e) => !ours.some((t) => t.tag === e.tag)).map((e) => ({ tag: e.tag, typeCode: e.type, count: e.count, field: tiff.subarray(e.field, e.field + 4) }));
  return layout.finish(layout.placeIfd([...kept, ...ours]));
}

const ICC_PROFILE = 34675;

let srgbIcc: Promise<Buffer> | null = null;

/** The sRGB profile libvips attaches to JPEGs, read once. */
function srgbProfile(): Promise<Buffer> {
  srgbIcc ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
    .withIccProfile('srgb')
    .jpeg()
    .toBuffer()
    .then(async (jpeg) => {
      const { icc } = await sharp(jpeg).metadata();
      if (!icc) throw new Error('libvips attached no sRGB profile');
      return icc;
    });
  return srgbIcc;
}

/** An APPn segment: marker, length, identifier, payload. */
function segment(marker: number, identifier: string, body: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from(identifier, 'latin1'), body]);
  if (payload.length + 2 > 0xffff) throw new Error(`${identifier.replace(/\0+$/, '')} block of ${payload.length} bytes does not fit a JPEG segment`);
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** Inserts segments after SOI (and after a JFIF APP0, where readers look for EXIF). */
function withSegments(jpeg: Buffer, segments: Buffer[]): Buffer {
  const at = jpeg[2] === 0xff && jpeg[3] === 0xe0 ? 4 + jpeg.readUInt16BE(4) : 2;
  return Buffer.concat([jpeg.subarray(0, at), ...segments, jpeg.subarray(at)]);
}

function assertMetadata(metadata: PhotoMetadata | undefined): void {
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object')) throw invalidParameterError('metadata', 'an object', metadata);
}

/** round(v / 257) for every 16-bit value: libvips would truncate (v >> 8), darkening by half a level on average. */
const narrow = new Uint8Array(65536);
for (let v = 0; v < 65536; v++) narrow[v] = Math.round(v / 257);

function to8Bit(data: Uint16Array): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = narrow[data[i]!]!;
  return out;
}
