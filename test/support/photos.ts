import sharp from '../../src/imaging/sharp.js';
import { linearToSrgb, srgbToLinear } from '../../src/imaging/colour.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';

/**
 * A small outdoor-like photo: a blue sky gradient over a textured ground, with a building
 * of vertical edges and windows in the middle, so every editing option has something to do.
 */
export function testScene(width = 480, height = 320, seed = 1): Image16 {
  const rnd = seededRandom(seed);
  const data = new Uint16Array(width * height * 3);
  const horizon = Math.round(height * 0.45);
  const left = Math.round(width * 0.3);
  const right = Math.round(width * 0.7);
  const roof = Math.round(height * 0.2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r: number;
      let g: number;
      let b: number;
      const noise = (rnd() - 0.5) * 12;
      if (x >= left && x < right && y >= roof) {
        const window = (x - left) % 40 > 12 && (x - left) % 40 < 28 && (y - roof) % 50 > 15 && (y - roof) % 50 < 38;
        [r, g, b] = window ? [60, 70, 90] : [180, 150, 120];
      } else if (y < horizon) {
        const t = y / horizon;
        [r, g, b] = [90 + 80 * t, 140 + 70 * t, 220 + 20 * t];
      } else {
        [r, g, b] = [70 + 30 * Math.sin(x / 7), 110 + 20 * Math.sin(y / 5), 50];
      }
      const i = (y * width + x) * 3;
      data[i] = Math.max(0, Math.min(255, r + noise)) * 257;
      data[i + 1] = Math.max(0, Math.min(255, g + noise)) * 257;
      data[i + 2] = Math.max(0, Math.min(255, b + noise)) * 257;
    }
  }
  return { width, height, data };
}

/** The image as an 8-bit JPEG, with optional EXIF (sharp's IFD0/IFD2 record form). */
export async function jpegOf(image: Image16, exif?: Record<string, Record<string, string>>): Promise<Buffer> {
  const eight = Buffer.alloc(image.data.length);
  for (let i = 0; i < eight.length; i++) eight[i] = Math.round(image.data[i]! / 257);
  let pipeline = sharp(eight, { raw: { width: image.width, height: image.height, channels: 3 } }).jpeg({ quality: 92 });
  if (exif) pipeline = pipeline.withExif(exif);
  return pipeline.toBuffer();
}

/** The same scene darkened or brightened by ev stops in linear light and clipped: a bracket frame. */
export function exposed(image: Image16, ev: number): Image16 {
  const gain = 2 ** ev;
  const data = new Uint16Array(image.data.length);
  for (let i = 0; i < data.length; i++) {
    const out = Math.min(1, srgbToLinear(image.data[i]! / 65535) * gain);
    data[i] = Math.round(linearToSrgb(out) * 65535);
  }
  return { width: image.width, height: image.height, data };
}
