/**
 * Local detail after tone and colour: luminance noise reduction (a sharp blur blended back
 * where it differs little from the original, so edges are kept) and luminance-only
 * sharpening (an unsharp mask of radius ≈ 1 px, done in one streaming pass so it costs
 * far less than libvips' Lab sharpen at 16 bits).
 */
import sharp from 'sharp';
import type { Image16 } from '../types.js';

/** Reduces luminance noise in place; amount 0..100. */
export async function reduceNoise(image: Image16, amount: number): Promise<void> {
  if (amount <= 0) return;
  const { width, height, data } = image;
  const sigma = 0.6 + (1.4 * amount) / 100;
  const blurred = await sharp(data, { raw: { width, height, channels: 3 } }).blur(sigma).toColourspace('rgb16').raw({ depth: 'ushort' }).toBuffer();
  const smooth = new Uint16Array(blurred.buffer, blurred.byteOffset, blurred.length / 2);
  // Differences below the threshold are taken for noise; larger ones for edges and texture.
  const threshold = 300 + (2200 * amount) / 100;
  const inv = 1 / (threshold * threshold);
  const strength = Math.min(1, 0.3 + amount / 100);
  for (let i = 0; i < data.length; i += 3) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    const sr = smooth[i]!;
    const sg = smooth[i + 1]!;
    const sb = smooth[i + 2]!;
    const d = (r - sr + 2 * (g - sg) + (b - sb)) * 0.25;
    const w = strength * Math.exp(-d * d * inv);
    data[i] = r + w * (sr - r) + 0.5;
    data[i + 1] = g + w * (sg - g) + 0.5;
    data[i + 2] = b + w * (sb - b) + 0.5;
  }
}

function lumaRow(data: Uint16Array, width: number, y: number, out: Float32Array): void {
  let i = y * width * 3;
  for (let x = 0; x < width; x++, i += 3) out[x] = 0.25 * data[i]! + 0.5 * data[i + 1]! + 0.25 * data[i + 2]!;
}

/** Sharpens in place: adds amount × (luma − binomial 3×3 blur of luma) to every channel; amount 0..150. */
export function sharpen(image: Image16, amount: number): void {
  if (amount <= 0) return;
  const { width, height, data } = image;
  const k = (1.5 * amount) / 100;
  // Rows y−1, y, y+1 of the ORIGINAL luma, kept while row y is overwritten.
  let above = new Float32Array(width);
  let here = new Float32Array(width);
  let below = new Float32Array(width);
  lumaRow(data, width, 0, here);
  above.set(here);
  for (let y = 0; y < height; y++) {
    if (y + 1 < height) lumaRow(data, width, y + 1, below);
    else below.set(here);
    let i = y * width * 3;
    for (let x = 0; x < width; x++, i += 3) {
      const xl = x > 0 ? x - 1 : 0;
      const xr = x + 1 < width ? x + 1 : x;
      const blur = (above[xl]! + 2 * above[x]! + above[xr]! + 2 * (here[xl]! + 2 * here[x]! + here[xr]!) + below[xl]! + 2 * below[x]! + below[xr]!) * 0.0625;
      const delta = k * (here[x]! - blur);
      const r = data[i]! + delta;
      const g = data[i + 1]! + delta;
      const b = data[i + 2]! + delta;
      data[i] = r < 0 ? 0 : r > 65535 ? 65535 : r + 0.5;
      data[i + 1] = g < 0 ? 0 : g > 65535 ? 65535 : g + 0.5;
      data[i + 2] = b < 0 ? 0 : b > 65535 ? 65535 : b + 0.5;
    }
    const spare = above;
    above = here;
    here = below;
    below = spare;
  }
}
