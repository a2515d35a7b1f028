/**
 * Post-editing of finished images: resize, watermark, colour space, metadata, format.
 * Works on encoded files (the exported JPEGs), with libvips doing all of it.
 */
import { createRequire } from 'node:module';
import sharp, { type Sharp } from './sharp.js';
import { assertIntegerInRange, invalidParameterError } from './args.js';

export interface PostOptions {
  /** Scale down so the long edge is at most this many pixels; never enlarges. */
  resizeLongEdge: number | null;
  format: 'JPEG' | 'PNG' | 'TIFF' | 'WEBP';
  /** JPEG and WEBP quality, 1..100. */
  quality: number;
  watermark: { text: string; position: 'bottom_right' | 'bottom_left' | 'top_right' | 'top_left' | 'center'; opacity: number } | null;
  /** Drop EXIF (camera, capture time, GPS); the colour profile always stays. */
  stripMetadata: boolean;
  colorSpace: 'sRGB' | 'DISPLAY_P3';
}

/** The watermark font ships with the project (npm dejavu-fonts-ttf), so no system font is needed. */
const FONT_FILE = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');

const GRAVITY: Record<NonNullable<PostOptions['watermark']>['position'], string> = {
  bottom_right: 'southeast',
  bottom_left: 'southwest',
  top_right: 'northeast',
  top_left: 'northwest',
  center: 'centre',
};

/** White text at the given opacity, sized to the image (about 4 % of its long edge), with a margin. */
async function watermarkLayer(text: string, opacity: number, longEdge: number): Promise<Buffer> {
  const height = Math.max(12, Math.round(longEdge * 0.04));
  const { data, info } = await sharp({ text: { text: escapeMarkup(text), font: 'DejaVu Sans Bold', fontfile: FONT_FILE, height, rgba: true } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += 4) {
    data[i] = 255;
    data[i + 1] = 255;
    data[i + 2] = 255;
    data[i + 3] = Math.round(data[i + 3]! * opacity);
  }
  const margin = Math.round(height * 0.6);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function encode(pipeline: Sharp, options: PostOptions): Sharp {
  switch (options.format) {
    case 'PNG':
      return pipeline.png({ compressionLevel: 6 });
    case 'TIFF':
      return pipeline.tiff({ compression: 'lzw' });
    case 'WEBP':
      return pipeline.webp({ quality: options.quality });
    default:
      return pipeline.jpeg({ quality: options.quality, mozjpeg: false });
  }
}

export async function postEdit(input: Buffer, options: PostOptions): Promise<Buffer> {
  if (options.resizeLongEdge !== null && !(Number.isInteger(options.resizeLongEdge) && options.resizeLongEdge >= 1)) {
    throw invalidParameterError('resizeLongEdge', 'a positive integer or null', options.resizeLongEdge);
  }
  assertIntegerInRange(options.quality, 'quality', 1, 100);
  const meta = await sharp(input).metadata();
  let width = meta.autoOrient?.width ?? meta.width!;
  let height = meta.autoOrient?.height ?? meta.height!;
  let pipeline = sharp(input).autoOrient();
  if (options.resizeLongEdge !== null && Math.max(width, height) > options.resizeLongEdge) {
    const scale = options.resizeLongEdge / Math.max(width, height);
    width = Math.max(1, Math.round(width * scale));
    height = Math.max(1, Math.round(height * scale));
    pipeline = pipeline.resize(width, height);
  }
  if (options.watermark) {
    // libvips composites after resizing: the layer is sized for the output.
    const layer = await watermarkLayer(options.watermark.text, options.watermark.opacity, Math.max(width, height));
    pipeline = pipeline.composite([{ input: layer, gravity: GRAVITY[options.watermark.position] }]);
  }
  pipeline = pipeline.withIccProfile(options.colorSpace === 'DISPLAY_P3' ? 'p3' : 'srgb');
  if (!options.stripMetadata) pipeline = pipeline.keepExif();
  return encode(pipeline, options).toBuffer();
}
