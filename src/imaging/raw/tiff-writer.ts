/**
 * Writes little-endian TIFF structure: EXIF blocks for JPEG, extra tags for TIFF files,
 * and (in tests) whole DNGs. Blocks are placed in order, children before the directories
 * that point to them, so every offset is known when a directory is written.
 */
import type { PhotoMetadata } from '../types.js';

export type TagType = 'BYTE' | 'ASCII' | 'SHORT' | 'LONG' | 'RATIONAL' | 'SRATIONAL' | 'UNDEFINED';

/** A tag to write; numbers of RATIONAL types become fractions (see `fraction`). */
export interface TiffTag {
  tag: number;
  type: TagType;
  values: number[] | string | Buffer;
}

/** A tag copied verbatim from an existing little-endian directory in the same file. */
export interface CopiedTag {
  tag: number;
  typeCode: number;
  count: number;
  /** The entry's 4-byte value-or-offset field. */
  field: Buffer;
}

const typeCode: Record<TagType, number> = { BYTE: 1, ASCII: 2, SHORT: 3, LONG: 4, RATIONAL: 5, SRATIONAL: 10, UNDEFINED: 7 };
const typeSize: Record<TagType, number> = { BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, SRATIONAL: 8, UNDEFINED: 1 };

/** Lays out a TIFF file or EXIF block: an 8-byte header, then whatever is placed, word-aligned. */
export class TiffLayout {
  private readonly parts: Buffer[];
  private size: number;

  /** @param prefix existing little-endian TIFF bytes to append to (its header is rewritten by `finish`); omit to start empty. */
  constructor(prefix?: Buffer) {
    const start = prefix ?? Buffer.from([0x49, 0x49, 42, 0, 0, 0, 0, 0]);
    this.parts = [start.length % 2 ? Buffer.concat([start, Buffer.alloc(1)]) : start];
    this.size = this.parts[0]!.length;
  }

  /** Appends bytes, returning their offset. */
  place(bytes: Buffer): number {
    const offset = this.size;
    const padded = bytes.length % 2 ? Buffer.concat([bytes, Buffer.alloc(1)]) : bytes;
    this.parts.push(padded);
    this.size += padded.length;
    return offset;
  }

  /** Appends one directory (no next directory), returning its offset. */
  placeIfd(tags: (TiffTag | CopiedTag)[]): number {
    return this.place(ifdBytes(tags, this.size));
  }

  /** The file, its header pointing at `firstIfd`. */
  finish(firstIfd: number): Buffer {
    const header = Buffer.from(this.parts[0]!.subarray(0, 8));
    header.writeUInt32LE(firstIfd, 4);
    return Buffer.concat([header, this.parts[0]!.subarray(8), ...this.parts.slice(1)]);
  }
}

function ifdBytes(tags: (TiffTag | CopiedTag)[], at: number): Buffer {
  const sorted = [...tags].sort((a, b) => a.tag - b.tag);
  const head = Buffer.alloc(2 + sorted.length * 12 + 4);
  head.writeUInt16LE(sorted.length, 0);
  const extra: Buffer[] = [];
  let extraAt = at + head.length;
  sorted.forEach((t, i) => {
    const o = 2 + i * 12;
    head.writeUInt16LE(t.tag, o);
    if ('field' in t) {
      head.writeUInt16LE(t.typeCode, o + 2);
      head.writeUInt32LE(t.count, o + 4);
      t.field.copy(head, o + 8, 0, 4);
      return;
    }
    const value = encodeValues(t);
    head.writeUInt16LE(typeCode[t.type], o + 2);
    head.writeUInt32LE(value.length / typeSize[t.type], o + 4);
    if (value.length <= 4) {
      value.copy(head, o + 8);
    } else {
      head.writeUInt32LE(extraAt, o + 8);
      const padded = value.length % 2 ? Buffer.concat([value, Buffer.alloc(1)]) : value;
      extra.push(padded);
      extraAt += padded.length;
    }
  });
  return Buffer.concat([head, ...extra]);
}

function encodeValues(t: TiffTag): Buffer {
  if (Buffer.isBuffer(t.values)) return t.values;
  if (typeof t.values === 'string') return Buffer.from(`${t.values}\0`, 'latin1');
  const size = typeSize[t.type];
  const b = Buffer.alloc(t.values.length * size);
  t.values.forEach((v, i) => {
    switch (t.type) {
      case 'SHORT':
        b.writeUInt16LE(v, i * 2);
        break;
      case 'LONG':
        b.writeUInt32LE(v, i * 4);
        break;
      case 'RATIONAL':
      case 'SRATIONAL': {
        const [n, d] = fraction(v);
        if (t.type === 'RATIONAL') b.writeUInt32LE(Math.max(0, n), i * 8);
        else b.writeInt32LE(n, i * 8);
        b.writeUInt32LE(d, i * 8 + 4);
        break;
      }
      default:
        b[i] = v;
    }
  });
  return b;
}

/** A fraction for v as cameras write them: 1/250 for short times, whole numbers over 1, else ten-thousandths. */
export function fraction(v: number): [number, number] {
  if (v > 0 && v < 1) {
    const inverse = Math.round(1 / v);
    if (inverse <= 100000 && Math.abs(inverse * v - 1) < 1e-6) return [1, inverse];
  }
  if (Number.isInteger(v) || Math.abs(v) >= 200000) return [Math.round(v), 1];
  return [Math.round(v * 10000), 10000];
}

const TAG = {
  make: 271,
  model: 272,
  orientation: 274,
  software: 305,
  exifIfd: 34665,
  gpsIfd: 34853,
  exposureTime: 33434,
  fNumber: 33437,
  iso: 34855,
  exifVersion: 36864,
  dateTimeOriginal: 36867,
  exposureBias: 37380,
  focalLength: 37386,
  subSecTimeOriginal: 37521,
  colorSpace: 40961,
  pixelXDimension: 40962,
  pixelYDimension: 40963,
  lensModel: 42036,
} as const;

/**
 * Places the EXIF (and GPS) directories for a photo and returns the IFD0 tags that name
 * the camera and point to them. Orientation is 1: the pixels are upright.
 */
export function placeExif(layout: TiffLayout, meta: PhotoMetadata | undefined, options: { stripGps?: boolean; width: number; height: number }): TiffTag[] {
  const ifd0: TiffTag[] = [
    { tag: TAG.orientation, type: 'SHORT', values: [1] },
    { tag: TAG.software, type: 'ASCII', values: 'retouch' },
  ];
  const exif: TiffTag[] = [
    { tag: TAG.exifVersion, type: 'UNDEFINED', values: Buffer.from('0232') },
    { tag: TAG.colorSpace, type: 'SHORT', values: [1] },
    { tag: TAG.pixelXDimension, type: 'LONG', values: [options.width] },
    { tag: TAG.pixelYDimension, type: 'LONG', values: [options.height] },
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
    if (!options.stripGps && g && finite(g.latitude) && finite(g.longitude)) gpsOffset = layout.placeIfd(gpsTags(g.latitude, g.longitude, finite(g.altitude) ? g.altitude : null));
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
