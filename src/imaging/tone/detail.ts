/**
 * Luminance noise reduction: a sharp blur blended back where it differs little from the
 * original, so edges and texture stay. It runs on the decoded image, before tone curves
 * stretch the noise, as raw converters denoise scene data.
 */
import { image16FromSharp, sharpFromImage16 } from '../image16.js';
import type { Image16 } from '../types.js';

/** A denoised copy; amount 0..100 (0 returns the input itself). */
export async function reduceNoise(image: Image16, amount: number): Promise<Image16> {
  if (amount <= 0) return image;
  const { width, height, data } = image;
  const sigma = 0.6 + (1.4 * amount) / 100;
  const out = (await image16FromSharp(sharpFromImage16(image).blur(sigma))).data;
  // Differences below the threshold are taken for noise; larger ones for edges and texture.
  const threshold = 300 + (2200 * amount) / 100;
  const inv = 1 / (threshold * threshold);
  const strength = Math.min(1, 0.3 + amount / 100);
  for (let i = 0; i < data.length; i += 3) {
    const r = data[i]!;
    const g = data[i + 1]!;
    const b = data[i + 2]!;
    const sr = out[i]!;
    const sg = out[i + 1]!;
    const sb = out[i + 2]!;
    const d = (r - sr + 2 * (g - sg) + (b - sb)) * 0.25;
    const w = strength * Math.exp(-d * d * inv);
    out[i] = r + w * (sr - r) + 0.5;
    out[i + 1] = g + w * (sg - g) + 0.5;
    out[i + 2] = b + w * (sb - b) + 0.5;
  }
  return { width, height, data: out };
}
