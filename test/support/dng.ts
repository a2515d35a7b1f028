/**
 * A minimal DNG 1.4 writer for tests and benchmarks: it turns an sRGB image into an
 * uncompressed Bayer-mosaic DNG that LibRaw (and so any DNG reader) decodes back to
 * about the same image.
 *
 *   const dng = writeDng({ image, bits: 14, cfa: 'RGGB', make: 'Seed', exposureBias: -2 });
 *
 * The scene is linearised, multiplied by 2^exposure, mixed into "camera RGB" by
 * cameraMatrix, multiplied by asShotNeutral (as a camera records a grey under that
 * light), scaled to [blackLevel, whiteLevel], clipped and mosaiced. ColorMatrix1
 * (XYZ -> camera, D65, from cameraMatrix and daylightNeutral) and AsShotNeutral carry that
 * back, so a decode with the as-shot white balance to sRGB returns the input (up to
 * demosaicing and clipping).
 */
import { srgb16ToLinearLut } from '../../src/imaging/colour.js';
import { multiply, type Mat3 } from '../../src/imaging/matrix.js';
import { emptyMetadata } from '../../src/imaging/metadata.js';
import { placeExif, TiffLayout, type TiffTag } from '../../src/imaging/raw/tiff-writer.js';
import type { Image16 } from '../../src/imaging/types.js';

export interface DngOptions {
  /** The scene, sRGB-encoded 16-bit. */
  image: Image16;
  /** Bits per raw sample; 12 and 14 are bit-packed (rows padded to whole bytes), 16 in words. Default 14. */
  bits?: 12 | 14 | 16;
  /** Colour filter layout of the top-left 2x2 block. Default 'RGGB'. */
  cfa?: 'RGGB' | 'BGGR';
  /** Default 2^(bits-5): 128 at 12 bits, 512 at 14. */
  blackLevel?: number;
  /** Default 2^bits - 1. */
  whiteLevel?: number;
  /** The camera-RGB reading of a grey in daylight (D65), which ColorMatrix1 encodes. Default [0.5, 1, 1/1.5]. */
  daylightNeutral?: [number, number, number];
  /** The camera-RGB reading of a grey under the light of this shot (a diagonal in camera RGB). Default daylightNeutral. */
  asShotNeutral?: [number, number, number];
  /** Row-major 3x3, camera RGB = M x linear sRGB, rows summing to 1. Default identity. */
  cameraMatrix?: number[];
  /** Scales the scene in linear light by 2^exposure before clipping (a bracket frame). Default 0. */
  exposure?: number;
  make?: string;
  model?: string;
  lens?: string;
  /** EXIF form, 'YYYY:MM:DD HH:MM:SS'. */
  captureTime?: string;
  /** Seconds. */
  exposureTime?: number;
  fNumber?: number;
  iso?: number;
  /** EV, recorded as ExposureBiasValue. */
  exposureBias?: number;
  focalLength?: number;
  gps?: { latitude: number; longitude: number; altitude?: number };
  /** TIFF Orientation 1..8 of IFD0. Default 1. */
  orientation?: number;
  /** Add an 8-bit RGB preview (256 px long edge) as IFD0, the raw going to a SubIFD, as cameras do. */
  preview?: boolean;
}

/** XYZ (D65) -> linear sRGB, IEC 61966-2-1. */
const xyzToSrgb: Mat3 = [3.2404542, -1.5371385, -0.4985314, -0.969266, 1.8760108, 0.041556, 0.0556434, -0.2040259, 1.0572252];

export function writeDng(options: DngOptions): Buffer {
  const { image } = options;
  const bits = options.bits ?? 14;
  const black = options.blackLevel ?? 2 ** (bits - 5);
  const white = options.whiteLevel ?? 2 ** bits - 1;
  const daylight = options.daylightNeutral ?? [0.5, 1, 1 / 1.5];
  const neutral = options.asShotNeutral ?? daylight;
  const mix = options.cameraMatrix ?? [1, 0, 0, 0, 1, 0, 0, 0, 1];
  if (![12, 14, 16].includes(bits)) throw new Error(`writeDng: bits must be 12, 14 or 16, got ${bits}`);
  if (image.width < 2 || image.height < 2 || image.data.length !== image.width * image.height * 3) throw new Error('writeDng: image must be RGB, at least 2x2');

  const raw = mosaic(options, bits, black, white, neutral, mix);
  const colorMatrix = multiply(mix.map((v, i) => v * daylight[Math.floor(i / 3)]!) as Mat3, xyzToSrgb);
  const preview = options.preview ? previewOf(image) : null;

  const rawIfd: TiffTag[] = [
    { tag: 254, type: 'LONG', values: [0] },
    { tag: 256, type: 'LONG', values: [image.width] },
    { tag: 257, type: 'LONG', values: [image.height] },
    { tag: 258, type: 'SHORT', values: [bits] },
    { tag: 259, type: 'SHORT', values: [1] },
    { tag: 262, type: 'SHORT', values: [32803] },
    { tag: 277, type: 'SHORT', values: [1] },
    { tag: 278, type: 'LONG', values: [image.height] },
    { tag: 279, type: 'LONG', values: [raw.length] },
    { tag: 284, type: 'SHORT', values: [1] },
    { tag: 33421, type: 'SHORT', values: [2, 2] },
    { tag: 33422, type: 'BYTE', values: options.cfa === 'BGGR' ? [2, 1, 1, 0] : [0, 1, 1, 2] },
    { tag: 50710, type: 'BYTE', values: [0, 1, 2] },
    { tag: 50711, type: 'SHORT', values: [1] },
    { tag: 50713, type: 'SHORT', values: [1, 1] },
    { tag: 50714, type: 'LONG', values: [black] },
    { tag: 50717, type: 'LONG', values: [white] },
  ];
  const model = options.model ?? 'Synthetic DNG';
  const make = options.make ?? 'Seed';
  const mainIfd: TiffTag[] = [
    { tag: 274, type: 'SHORT', values: [options.orientation ?? 1] },
    { tag: 50706, type: 'BYTE', values: [1, 4, 0, 0] },
    { tag: 50707, type: 'BYTE', values: [1, 1, 0, 0] },
    { tag: 50708, type: 'ASCII', values: `${make} ${model}` },
    { tag: 50721, type: 'SRATIONAL', values: colorMatrix },
    { tag: 50728, type: 'RATIONAL', values: neutral },
    { tag: 50778, type: 'SHORT', values: [21] },
  ];
  const stamp = options.captureTime ? /^(\d{4}):(\d{2}):(\d{2}) (.*)$/.exec(options.captureTime) : null;
  const metadata = {
    ...emptyMetadata(),
    make,
    model,
    lens: options.lens ?? null,
    captureTime: stamp ? `${stamp[1]}-${stamp[2]}-${stamp[3]}T${stamp[4]}` : null,
    exposureTime: options.exposureTime ?? null,
    fNumber: options.fNumber ?? null,
    iso: options.iso ?? null,
    exposureBias: options.exposureBias ?? null,
    focalLength: options.focalLength ?? null,
    gps: options.gps ? { altitude: null, ...options.gps } : null,
  };

  // Children before the directories pointing to them, so every offset is known when written.
  const layout = new TiffLayout();
  rawIfd.push({ tag: 273, type: 'LONG', values: [layout.place(raw)] });
  const previewOffset = preview ? layout.place(preview.data) : 0;
  // Make, Model, EXIF and GPS directories as the JPEG encoder writes them; the DNG keeps its own Orientation.
  mainIfd.push(...placeExif(layout, metadata, { width: image.width, height: image.height }).filter((t) => t.tag !== 274));

  let ifd0: TiffTag[];
  if (preview) {
    ifd0 = [
      { tag: 254, type: 'LONG', values: [1] },
      { tag: 256, type: 'LONG', values: [preview.width] },
      { tag: 257, type: 'LONG', values: [preview.height] },
      { tag: 258, type: 'SHORT', values: [8, 8, 8] },
      { tag: 259, type: 'SHORT', values: [1] },
      { tag: 262, type: 'SHORT', values: [2] },
      { tag: 273, type: 'LONG', values: [previewOffset] },
      { tag: 277, type: 'SHORT', values: [3] },
      { tag: 278, type: 'LONG', values: [preview.height] },
      { tag: 279, type: 'LONG', values: [preview.data.length] },
      { tag: 284, type: 'SHORT', values: [1] },
      { tag: 330, type: 'LONG', values: [layout.placeIfd(rawIfd)] },
      ...mainIfd,
    ];
  } else {
    ifd0 = [...rawIfd, ...mainIfd];
  }
  return layout.finish(layout.placeIfd(ifd0));
}

/** The raw CFA plane, packed MSB-first at 12/14 bits (TIFF's bit order), little-endian words at 16. */
function mosaic(o: DngOptions, bits: number, black: number, white: number, neutral: number[], mix: number[]): Buffer {
  const { width, height, data } = o.image;
  const toLinear = srgb16ToLinearLut();
  const gain = 2 ** (o.exposure ?? 0) * (white - black);
  // Which colour each site of the 2x2 block records, as in the CFAPattern tag.
  const layout = o.cfa === 'BGGR' ? [2, 1, 1, 0] : [0, 1, 1, 2];
  const rowBytes = Math.ceil((width * bits) / 8);
  const out = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    let acc = 0;
    let accBits = 0;
    let pos = y * rowBytes;
    for (let x = 0; x < width; x++) {
      const c = layout[(y & 1) * 2 + (x & 1)]!;
      const p = (y * width + x) * 3;
      const lin = mix[c * 3]! * toLinear[data[p]!]! + mix[c * 3 + 1]! * toLinear[data[p + 1]!]! + mix[c * 3 + 2]! * toLinear[data[p + 2]!]!;
      const v = Math.min(white, Math.max(black, Math.round(black + lin * neutral[c]! * gain)));
      if (bits === 16) {
        out.writeUInt16LE(v, pos);
        pos += 2;
        continue;
      }
      acc = (acc << bits) | v;
      accBits += bits;
      while (accBits >= 8) {
        accBits -= 8;
        out[pos++] = (acc >>> accBits) & 0xff;
      }
      acc &= (1 << accBits) - 1;
    }
    if (accBits > 0) out[pos] = (acc << (8 - accBits)) & 0xff;
  }
  return out;
}

function previewOf(image: Image16): { width: number; height: number; data: Buffer } {
  const scale = 256 / Math.max(image.width, image.height);
  const width = Math.max(1, Math.round(image.width * Math.min(1, scale)));
  const height = Math.max(1, Math.round(image.height * Math.min(1, scale)));
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.floor((y * image.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor((x * image.width) / width));
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = image.data[(sy * image.width + sx) * 3 + c]! >> 8;
    }
  }
  return { width, height, data };
}
