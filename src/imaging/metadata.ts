/**
 * What a photo says about itself (camera, lens, capture time, exposure, GPS, ICC), read
 * from its EXIF without decoding pixels: fast enough to run on every frame when grouping
 * HDR brackets. JPEG, PNG and HEIF give their EXIF and ICC through sharp's header read;
 * TIFF and TIFF-based RAWs are walked directly; CR3 and RAF keep TIFF-structured EXIF in
 * their own boxes; other RAW layouts ask LibRaw.
 */
import sharp, { type Metadata } from './sharp.js';
import { invalidParameterError } from './args.js';
import { detectFormat } from './raw/detect.js';
import { librawIdentify, type LibRawInfo } from './raw/libraw.js';
import { TiffReader, type TiffIfd } from './raw/tiff.js';
import type { PhotoMetadata } from './types.js';

const TAG = {
  make: 271,
  model: 272,
  dateTime: 306,
  iccProfile: 34675,
  exifIfd: 34665,
  gpsIfd: 34853,
  exposureTime: 33434,
  fNumber: 33437,
  iso: 34855,
  isoSpeed: 34867,
  dateTimeOriginal: 36867,
  dateTimeDigitized: 36868,
  shutterSpeedValue: 37377,
  apertureValue: 37378,
  exposureBias: 37380,
  focalLength: 37386,
  subSecTimeOriginal: 37521,
  lensModel: 42036,
  /** Panasonic RW2: ISO in IFD0, the full EXIF in an embedded JPEG. */
  panasonicIso: 0x17,
  panasonicJpeg: 0x2e,
} as const;

export function emptyMetadata(): PhotoMetadata {
  return { make: null, model: null, lens: null, captureTime: null, exposureTime: null, fNumber: null, iso: null, exposureBias: null, focalLength: null, gps: null, icc: null };
}

/** Reads a photo's metadata; throws only when the bytes are no image format we read. */
export async function readMetadata(input: Buffer, fileName?: string): Promise<PhotoMetadata> {
  if (fileName !== undefined && typeof fileName !== 'string') throw invalidParameterError('fileName', 'a string', fileName);
  const detected = detectFormat(input, fileName);
  if (detected.format !== 'raw' && detected.format !== 'tiff') return fromSharp(input);
  switch (detected.rawContainer) {
    case 'cr3':
      return fromTiffs(cr3Exif(input));
    case 'raf':
      return fromTiffs(rafExif(input));
    case 'other':
      return withLibRaw(emptyMetadata(), await librawIdentify(input));
    default:
      return fromTiffs([new TiffReader(input)]);
  }
}

async function fromSharp(input: Buffer): Promise<PhotoMetadata> {
  let header: Metadata;
  try {
    header = await sharp(input).metadata();
  } catch (err) {
    throw new Error(`corrupt image: ${(err as Error).message}`);
  }
  const exif = header.exif && header.exif.length > 14 && header.exif.toString('latin1', 0, 4) === 'Exif' ? header.exif : null;
  const meta = exif ? fromTiffs([safeTiff(exif, 6)].filter((t) => t !== null)) : emptyMetadata();
  meta.icc = header.icc ?? null;
  return meta;
}

function safeTiff(buf: Buffer, at: number): TiffReader | null {
  try {
    return new TiffReader(buf, at);
  } catch {
    return null;
  }
}

/**
 * Merges metadata from TIFF structures whose first directory is IFD0-like (CR3 splits
 * IFD0, EXIF and GPS into separate structures; the first value found wins).
 */
function fromTiffs(tiffs: TiffReader[]): PhotoMetadata {
  const meta = emptyMetadata();
  const dirs: { tiff: TiffReader; ifd: TiffIfd }[] = [];
  const gpsDirs: { tiff: TiffReader; ifd: TiffIfd }[] = [];
  const sources = tiffs.flatMap((tiff) => {
    const embedded = tiff.magic === 0x55 ? panasonicJpegExif(tiff) : null;
    return embedded ? [tiff, embedded] : [tiff];
  });
  for (const tiff of sources) {
    const [ifd0] = tiff.chain(1);
    if (!ifd0) continue;
    for (const exif of tiff.children(ifd0, TAG.exifIfd)) dirs.push({ tiff, ifd: exif });
    dirs.push({ tiff, ifd: ifd0 });
    for (const gps of tiff.children(ifd0, TAG.gpsIfd)) gpsDirs.push({ tiff, ifd: gps });
    // A CR3 GPS box is a structure whose first directory is the GPS directory itself.
    if (ifd0.has(2) && ifd0.has(4) && !ifd0.has(TAG.make)) gpsDirs.push({ tiff, ifd: ifd0 });
  }
  const first = <T>(read: (tiff: TiffReader, ifd: TiffIfd) => T | null): T | null => {
    for (const { tiff, ifd } of dirs) {
      const value = read(tiff, ifd);
      if (value !== null) return value;
    }
    return null;
  };
  const num = (tag: number) => first((t, ifd) => positive(t.number(ifd.get(tag))));
  meta.make = first((t, ifd) => t.text(ifd.get(TAG.make)));
  meta.model = first((t, ifd) => t.text(ifd.get(TAG.model)));
  meta.lens = first((t, ifd) => t.text(ifd.get(TAG.lensModel)));
  meta.captureTime =
    first((t, ifd) => exifTime(t.text(ifd.get(TAG.dateTimeOriginal)), t.text(ifd.get(TAG.subSecTimeOriginal)))) ??
    first((t, ifd) => exifTime(t.text(ifd.get(TAG.dateTimeDigitized)), null)) ??
    first((t, ifd) => exifTime(t.text(ifd.get(TAG.dateTime)), null));
  meta.exposureTime = num(TAG.exposureTime) ?? first((t, ifd) => apex(t.number(ifd.get(TAG.shutterSpeedValue)), (v) => 2 ** -v));
  meta.fNumber = num(TAG.fNumber) ?? first((t, ifd) => apex(t.number(ifd.get(TAG.apertureValue)), (v) => 2 ** (v / 2)));
  meta.iso = num(TAG.iso) ?? num(TAG.isoSpeed) ?? num(TAG.panasonicIso);
  meta.exposureBias = first((t, ifd) => t.number(ifd.get(TAG.exposureBias)));
  meta.focalLength = num(TAG.focalLength);
  for (const { tiff, ifd } of gpsDirs) meta.gps ??= gpsOf(tiff, ifd);
  meta.icc = first((t, ifd) => {
    const e = ifd.get(TAG.iccProfile);
    return e && (e.type === 7 || e.type === 1) ? Buffer.from(t.buf.subarray(e.at, e.at + e.count)) : null;
  });
  return meta;
}

function positive(v: number | null): number | null {
  return v !== null && v > 0 ? v : null;
}

function apex(v: number | null, convert: (v: number) => number): number | null {
  return v === null ? null : positive(convert(v));
}

/** 'YYYY:MM:DD HH:MM:SS' (+ sub-seconds) as ISO 8601 without zone; null for blank or malformed stamps. */
function exifTime(stamp: string | null, subSec: string | null): string | null {
  const m = stamp ? /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(stamp) : null;
  if (!m || m[1] === '0000') return null;
  const fraction = subSec && /^\d+$/.test(subSec.trim()) ? `.${subSec.trim()}` : '';
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${fraction}`;
}

function gpsOf(tiff: TiffReader, ifd: TiffIfd): PhotoMetadata['gps'] {
  const degrees = (tag: number, refTag: number, negative: string) => {
    const [d, m = 0, s = 0] = tiff.numbers(ifd.get(tag), 3);
    if (d === undefined || ![d, m, s].every(Number.isFinite)) return null;
    const value = d + m / 60 + s / 3600;
    return tiff.text(ifd.get(refTag))?.toUpperCase() === negative ? -value : value;
  };
  const latitude = degrees(2, 1, 'S');
  const longitude = degrees(4, 3, 'W');
  if (latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  const altitude = tiff.number(ifd.get(6));
  const below = tiff.number(ifd.get(5)) === 1;
  return { latitude, longitude, altitude: altitude === null ? null : below ? -altitude : altitude };
}

/** The EXIF of a JPEG whose bytes start at `start`: the TIFF structure in its APP1 'Exif' segment. */
function jpegExif(buf: Buffer, start = 0): TiffReader | null {
  if (buf[start] !== 0xff || buf[start + 1] !== 0xd8) return null;
  let at = start + 2;
  while (at + 4 <= buf.length && buf[at] === 0xff) {
    const marker = buf[at + 1]!;
    if (marker === 0xda || marker === 0xd9) break;
    const length = buf.readUInt16BE(at + 2);
    if (marker === 0xe1 && buf.toString('latin1', at + 4, at + 10) === 'Exif\0\0') return safeTiff(buf, at + 10);
    at += 2 + length;
  }
  return null;
}

function panasonicJpegExif(tiff: TiffReader): TiffReader | null {
  const e = tiff.chain(1)[0]?.get(TAG.panasonicJpeg);
  return e ? jpegExif(tiff.buf, e.at) : null;
}

/** Fuji RAF: a big-endian header whose bytes 84..88 hold the offset of a full EXIF JPEG. */
function rafExif(buf: Buffer): TiffReader[] {
  if (buf.length < 92) return [];
  const exif = jpegExif(buf, buf.readUInt32BE(84));
  return exif ? [exif] : [];
}

/**
 * Canon CR3 (ISO base media): inside moov, a uuid box holds CMT1 (IFD0), CMT2 (EXIF) and
 * CMT4 (GPS), each a complete TIFF structure.
 */
function cr3Exif(buf: Buffer): TiffReader[] {
  const out: TiffReader[] = [];
  const walk = (from: number, to: number, depth: number) => {
    let at = from;
    while (at + 8 <= to) {
      let size = buf.readUInt32BE(at);
      const type = buf.toString('latin1', at + 4, at + 8);
      let header = 8;
      if (size === 1 && at + 16 <= to) {
        size = Number(buf.readBigUInt64BE(at + 8));
        header = 16;
      } else if (size === 0) {
        size = to - at;
      }
      if (size < header || at + size > to) return;
      if (type === 'moov' && depth === 0) walk(at + header, at + size, 1);
      else if (type === 'uuid' && depth === 1) walk(at + header + 16, at + size, 2);
      else if (/^CMT[124]$/.test(type) && depth === 2) {
        const tiff = safeTiff(buf, at + header);
        if (tiff) out.push(tiff);
      }
      at += size;
    }
  };
  walk(0, buf.length, 0);
  return out;
}

/** Fills what the EXIF left empty from LibRaw's reading of the file. */
export function withLibRaw(meta: PhotoMetadata, info: LibRawInfo): PhotoMetadata {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  meta.make ??= text(info.make);
  meta.model ??= text(info.model);
  meta.lens ??= text(info.lens);
  meta.exposureTime ??= positive(info.shutter);
  meta.fNumber ??= positive(info.aperture);
  meta.iso ??= positive(info.iso);
  meta.focalLength ??= positive(info.focalLength);
  meta.captureTime ??= info.timestamp > 0 ? new Date(info.timestamp * 1000).toISOString().slice(0, 19) : null;
  return meta;
}
