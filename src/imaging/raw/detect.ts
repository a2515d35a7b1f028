/**
 * Tells what an upload is from its bytes: JPEG, PNG, TIFF, WebP, HEIF, or a camera RAW (and
 * which container holds the RAW's EXIF). The file name is only a hint, used when the
 * bytes alone cannot tell a RAW from a plain TIFF or are in a RAW layout we don't sniff.
 */
import { invalidParameterError } from '../args.js';
import { TiffReader, type TiffIfd } from './tiff.js';

export type ImageFormat = 'jpeg' | 'png' | 'tiff' | 'webp' | 'heic' | 'raw';

/** Where a RAW keeps its EXIF: a TIFF structure at byte 0, Canon CR3 boxes, Fuji RAF's embedded JPEG, or only LibRaw knows. */
export type RawContainer = 'tiff' | 'cr3' | 'raf' | 'other';

export interface DetectedFormat {
  format: ImageFormat;
  rawContainer?: RawContainer;
}

/** Camera RAW name endings LibRaw reads; the issue's list first, then older formats it also knows. */
export const rawExtensions = new Set(['dng', 'cr2', 'cr3', 'nef', 'nrw', 'arw', 'srf', 'sr2', 'orf', 'rw2', 'raf', 'pef', 'rwl', 'srw', '3fr', 'fff', 'crw', 'mrw', 'erf', 'kdc', 'dcr', 'iiq', 'mef', 'mos', 'x3f']);

const heifBrands = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']);

/** TIFF tags and values that only sensor data carries. */
const DNG_VERSION = 50706;
const PHOTOMETRIC = 262;
const COMPRESSION = 259;
const SUB_IFDS = 330;
const CFA_OR_LINEAR_RAW = new Set([32803, 34892]);
/** Vendor compression codes of RAW strips (Nikon, Sony, Pentax, Panasonic, Kodak, Samsung). */
const RAW_COMPRESSIONS = new Set([32767, 32769, 32770, 32773, 34316, 34713, 65000, 65535, 32867, 32868]);

export function detectFormat(input: Buffer, fileName?: string): DetectedFormat {
  if (!Buffer.isBuffer(input)) throw invalidParameterError('input', 'a Buffer', input);
  if (input.length < 12) throw new Error(`unsupported or corrupt image: only ${input.length} bytes`);
  const extension = fileName ? /\.([0-9a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase() : undefined;
  const rawHint = extension !== undefined && rawExtensions.has(extension);
  const ascii = (from: number, to: number) => input.toString('latin1', from, to);

  if (input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff) return { format: 'jpeg' };
  if (input.readUInt32BE(0) === 0x89504e47 && input.readUInt32BE(4) === 0x0d0a1a0a) return { format: 'png' };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return { format: 'webp' };
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'crx ') return { format: 'raw', rawContainer: 'cr3' };
    if (heifBrands.has(brand)) return { format: 'heic' };
  }
  if (ascii(0, 15) === 'FUJIFILMCCD-RAW') return { format: 'raw', rawContainer: 'raf' };
  if (TiffReader.isTiff(input)) {
    const magic = ascii(0, 4);
    // Standard-magic TIFF holding sensor data, or a RAW-specific header (CR2, RW2/RWL, ORF).
    const rawHeader = ascii(8, 10) === 'CR' || magic === 'IIU\0' || magic === 'IIRO' || magic === 'IIRS' || magic === 'MMOR';
    if (rawHeader || rawHint || holdsSensorData(new TiffReader(input))) return { format: 'raw', rawContainer: 'tiff' };
    return { format: 'tiff' };
  }
  if (rawHint) return { format: 'raw', rawContainer: 'other' };
  const head = [...input.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  throw new Error(`unsupported image format: expected JPEG, PNG, TIFF, WebP, HEIF or camera RAW, got bytes ${head}${extension ? ` (name ends .${extension})` : ''}`);
}

function holdsSensorData(tiff: TiffReader): boolean {
  const sensor = (ifd: TiffIfd) => ifd.has(DNG_VERSION) || CFA_OR_LINEAR_RAW.has(tiff.number(ifd.get(PHOTOMETRIC)) ?? 0) || RAW_COMPRESSIONS.has(tiff.number(ifd.get(COMPRESSION)) ?? 0);
  return tiff.chain().some((ifd) => sensor(ifd) || tiff.children(ifd, SUB_IFDS).some(sensor));
}
