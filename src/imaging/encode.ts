/**
 * Encodes the engine's 16-bit sRGB images for delivery: JPEG with the metadata
 * photographers expect (camera, lens, capture time, exposure, GPS unless stripped, sRGB
 * ICC, orientation reset to 1 since pixels are upright), small JPEG thumbnails, and
 * lossless 16-bit TIFF. The EXIF is written here, byte for byte, and spliced into sharp's
 * output: exact fractions, and no loss of values libvips' string form cannot carry.
 */
import sharp from 'sharp';
import { TiffReader } from './raw/tiff.js';
import { TiffLayout, type CopiedTag, type TiffTag } from './raw/tiff-writer.js';
import type { Image16, PhotoMetadata } from './types.js';

export interface EncodeJpegOptions {
  /** 1..100, default 92. */
  quality?: number;
  /** Written as EXIF; pixels are always tagged sRGB (the engine works in sRGB). */
  metadata?: PhotoMetadata;
  /** Leave GPS position out of the output. */
  stripGps?: boolean;
}

export interface EncodeTiffOptions {
  /** Default 'deflate' (with horizontal prediction). */
  compression?: 'deflate' | 'lzw' | 'none';
  metadata?: PhotoMetadata;
  stripGps?: boolean;
}

export async function encodeJpeg(image: Image16, options: EncodeJpegOptions = {}): Promise<Buffer> {
  assertImage16(image);
  const { quality = 92, metadata, stripGps = false } = options;
  if (!(Number.isInteger(quality) && quality >= 1 && quality <= 100)) throw new Error(`Expected an integer between 1 and 100 for quality but received ${String(quality)}`);
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object')) throw new TypeError(`Expected an object for metadata but received ${String(metadata)}`);
  const jpeg = await sharp(to8Bit(image.data), { raw: { width: image.width, height: image.height, channels: 3 } })
    .withIccProfile('srgb')
    .jpeg({ quality })
    .toBuffer();
  const layout = new TiffLayout();
  const exif = layout.finish(layout.placeIfd(placeExif(layout, image, metadata, stripGps)));
  return withApp1(jpeg, exif);
}

/** A small JPEG preview, long edge `longEdge` (never enlarged), without metadata. */
export async function encodeThumbnail(image: Image16, longEdge = 512): Promise<Buffer> {
  assertImage16(image);
  if (!(Number.isInteger(longEdge) && longEdge >= 1)) throw new Error(`Expected a positive integer for longEdge but received ${String(longEdge)}`);
  // Downscale at 16 bits, round to 8 afterwards (libvips truncates when it narrows).
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(longEdge, longEdge, { fit: 'inside', withoutEnlargement: true })
    .raw({ depth: 'ushort' })
    .toBuffer({ resolveWithObject: true });
  const small = new Uint16Array(data.buffer, data.byteOffset, data.length / 2);
  return sharp(to8Bit(small), { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

/** Lossless 16-bit RGB TIFF, tagged sRGB, with the same EXIF as encodeJpeg. */
export async function encodeTiff16(image: Image16, options: EncodeTiffOptions = {}): Promise<Buffer> {
  assertImage16(image);
  const { compression = 'deflate', metadata, stripGps = false } = options;
  if (!['deflate', 'lzw', 'none'].includes(compression)) throw new Error(`Expected one of deflate, lzw, none for compression but received ${String(compression)}`);
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object')) throw new TypeError(`Expected an object for metadata but received ${String(metadata)}`);
  // sharp writes the pixels; its 16-bit ICC transform is wrong, so the profile is added here with the EXIF.
  const tiff = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .toColourspace('rgb16')
    .tiff({ compression, ...(compression === 'none' ? {} : { predictor: 'horizontal' as const }) })
    .toBuffer();
  const reader = new TiffReader(tiff);
  if (!reader.littleEndian) throw new Error('encodeTiff16: expected a little-endian TIFF from libvips');
  const layout = new TiffLayout(tiff);
  const ours = [...placeExif(layout, image, metadata, stripGps), { tag: ICC_PROFILE, type: 'UNDEFINED' as const, values: await srgbProfile() }];
  const kept: CopiedTag[] = [...reader.ifd(reader.firstIfd).entries.values()]
    .filter((e) => !ours.some((t) => t.tag === e.tag))
    .map((e) => ({ tag: e.tag, typeCode: e.type, count: e.count, field: tiff.subarray(e.field, e.field + 4) }));
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

/** Inserts an APP1 EXIF segment after SOI (and after a JFIF APP0, where readers look for it). */
function withApp1(jpeg: Buffer, exif: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exif]);
  if (payload.length + 2 > 0xffff) throw new Error(`EXIF block of ${payload.length} bytes does not fit a JPEG segment`);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  const at = jpeg[2] === 0xff && jpeg[3] === 0xe0 ? 4 + jpeg.readUInt16BE(4) : 2;
  return Buffer.concat([jpeg.subarray(0, at), header, payload, jpeg.subarray(at)]);
}

function assertImage16(image: Image16): void {
  if (image === null || typeof image !== 'object') throw new TypeError(`Expected an Image16 object for image but received ${String(image)}`);
  const { width, height, data } = image;
  if (!(Number.isInteger(width) && width >= 1 && Number.isInteger(height) && height >= 1)) throw new Error(`Expected positive integer image dimensions but received ${width}x${height}`);
  if (!(data instanceof Uint16Array)) throw new TypeError('Expected a Uint16Array for image.data');
  if (data.length !== width * height * 3) throw new Error(`Expected ${width * height * 3} samples for a ${width}x${height} RGB image but received ${data.length}`);
}

/** round(v / 257) for every 16-bit value: libvips would truncate (v >> 8), darkening by half a level on average. */
const narrow = new Uint8Array(65536);
for (let v = 0; v < 65536; v++) narrow[v] = Math.round(v / 257);

function to8Bit(data: Uint16Array): Uint8Array {
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = narrow[data[i]!]!;
  return out;
}

const TAG = {
  make: 271, model: 272, orientation: 274, software: 305, exifIfd: 34665, gpsIfd: 34853,
  exposureTime: 33434, fNumber: 33437, iso: 34855, exifVersion: 36864, dateTimeOriginal: 36867,
  exposureBias: 37380, focalLength: 37386, subSecTimeOriginal: 37521, colorSpace: 40961,
  pixelXDimension: 40962, pixelYDimension: 40963, lensModel: 42036,
} as const;

/**
 * Places the EXIF (and GPS) directories for a photo and returns the IFD0 tags that name
 * the camera and point to them. Orientation is 1: the pixels are upright.
 */
function placeExif(layout: TiffLayout, image: Image16, meta: PhotoMetadata | undefined, stripGps: boolean): TiffTag[] {
  const ifd0: TiffTag[] = [
    { tag: TAG.orientation, type: 'SHORT', values: [1] },
    { tag: TAG.software, type: 'ASCII', values: 'retouch' },
  ];
  const exif: TiffTag[] = [
    { tag: TAG.exifVersion, type: 'UNDEFINED', values: Buffer.from('0232') },
    { tag: TAG.colorSpace, type: 'SHORT', values: [1] },
    { tag: TAG.pixelXDimension, type: 'LONG', values: [image.width] },
    { tag: TAG.pixelYDimension, type: 'LONG', values: [image.height] },
  ];
  const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
  const positive = (v: unknown): v is number => finite(v) && v > 0;
  const text = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
  let gpsOffset: number | null = null;
  if (meta) {
    if (text(meta.make)) ifd0.push({ tag: TAG.make, type: 'ASCII', values: meta.make });
    if (text(meta.model)) ifd0.push({ tag: TAG.model, type: 'ASCII', values: meta.model });
    if (text(meta.lens)) exif.push({ tag: TAG.lensModel, type: 'ASCII', values: meta.lens });
    const time = text(meta.captureTime) ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?/.exec(meta.captureTime) : null;
    if (time) {
      exif.push({ tag: TAG.dateTimeOriginal, type: 'ASCII', values: `${time[1]}:${time[2]}:${time[3]} ${time[4]}` });
      if (time[5]) exif.push({ tag: TAG.subSecTimeOriginal, type: 'ASCII', values: time[5] });
    }
    if (positive(meta.exposureTime)) exif.push({ tag: TAG.exposureTime, type: 'RATIONAL', values: [meta.exposureTime] });
    if (positive(meta.fNumber)) exif.push({ tag: TAG.fNumber, type: 'RATIONAL', values: [meta.fNumber] });
    if (positive(meta.iso)) exif.push({ tag: TAG.iso, type: 'SHORT', values: [Math.min(65535, Math.round(meta.iso))] });
    if (finite(meta.exposureBias)) exif.push({ tag: TAG.exposureBias, type: 'SRATIONAL', values: [meta.exposureBias] });
    if (positive(meta.focalLength)) exif.push({ tag: TAG.focalLength, type: 'RATIONAL', values: [meta.focalLength] });
    const g = meta.gps;
    if (!stripGps && g && finite(g.latitude) && finite(g.longitude)) gpsOffset = layout.placeIfd(gpsTags(g.latitude, g.longitude, finite(g.altitude) ? g.altitude : null));
  }
  ifd0.push({ tag: TAG.exifIfd, type: 'LONG', values: [layout.placeIfd(exif)] });
  if (gpsOffset !== null) ifd0.push({ tag: TAG.gpsIfd, type: 'LONG', values: [gpsOffset] });
  return ifd0;
}

function gpsTags(latitude: number, longitude: number, altitude: number | null): TiffTag[] {
  const dms = (degrees: number) => {
    const a = Math.abs(degrees);
    const d = Math.floor(a);
    const m = Math.floor((a - d) * 60);
    return [d, m, (a - d - m / 60) * 3600];
  };
  const tags: TiffTag[] = [
    { tag: 0, type: 'BYTE', values: [2, 3, 0, 0] },
    { tag: 1, type: 'ASCII', values: latitude < 0 ? 'S' : 'N' },
    { tag: 2, type: 'RATIONAL', values: dms(latitude) },
    { tag: 3, type: 'ASCII', values: longitude < 0 ? 'W' : 'E' },
    { tag: 4, type: 'RATIONAL', values: dms(longitude) },
  ];
  if (altitude !== null) tags.push({ tag: 5, type: 'BYTE', values: [altitude < 0 ? 1 : 0] }, { tag: 6, type: 'RATIONAL', values: [Math.abs(altitude)] });
  return tags;
}
