import type { Image16 } from '../types.js';
import type { Plane } from './luma.js';

/** Keeps a pixel's weight positive where a frame is flat or grey, as Mertens et al.'s 1e-12 does. */
const EPSILON = 1e-12;

/**
 * Added to the saturation term: Mertens et al.'s product is 0 for grey pixels whatever their
 * contrast and exposure, so near-grey scenes (white walls, overcast skies) would be averaged
 * across all frames, clipped ones included. Measured on the synthetic grey test scene: MEF-SSIM
 * 0.873 without, 0.926 with; on the photo brackets 0.978 either way.
 */
const SATURATION_FLOOR = 0.02;

/** Mertens et al.'s spread of the well-exposedness curve around mid-grey, on 0..1 values. */
const EXPOSEDNESS_SIGMA = 0.2;

let exposednessLut: Float32Array | null = null;

/** Entries of the well-exposedness table over luma 0..1: small enough to stay in L1. */
const LUT_SIZE = 1024;
const LUT_MAX = LUT_SIZE - 1;

/** exp(-(v - 0.5)^2 / 2 sigma^2) over LUT_SIZE steps of luma, so the per-pixel term is one lookup. */
function exposedness(): Float32Array {
  if (exposednessLut) return exposednessLut;
  const lut = new Float32Array(LUT_SIZE);
  for (let i = 0; i < lut.length; i++) {
    const d = (i + 0.5) / lut.length - 0.5;
    lut[i] = Math.exp(-(d * d) / (2 * EXPOSEDNESS_SIGMA * EXPOSEDNESS_SIGMA));
  }
  exposednessLut = lut;
  return lut;
}

/**
 * Mertens, Kautz & Van Reeth's quality weight of each pixel of a frame: contrast (absolute
 * Laplacian of its luma) x saturation (spread of R, G, B, plus a floor) x well-exposedness,
 * each to the power 1 as in the paper, plus a tiny constant so that where no frame stands out
 * they are averaged. Well-exposedness is the closeness of the pixel's luma to mid-grey (as
 * enfuse has it), not the paper's product over R, G and B: the product marks a saturated colour
 * as badly exposed in the frame that shows it best and takes its colour from a paler frame; on
 * four JPEG brackets of the fitting side MEF-SSIM rose on all (mean 0.9836 → 0.9867) and spurious
 * chroma fell on three. Higher powers of contrast or a wider exposure curve score higher on
 * MEF-SSIM but pick sensor noise from the dark frames.
 */
export function qualityWeights(frame: Image16, luma: Plane, out: Float32Array): void {
  const { width, height, data } = frame;
  const grey = luma.data;
  const lut = exposedness();
  // Constants multiplied, not divided: a division per pixel costs as much as the rest of the loop.
  const third = 1 / 3;
  const k = 1 / 65535;
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const down = Math.min(height - 1, y + 1) * width;
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const i = row + x;
      const g = grey[i]!;
      const left = grey[x > 0 ? i - 1 : i]!;
      const right = grey[x < width - 1 ? i + 1 : i]!;
      const contrast = Math.abs(left + right + grey[up + x]! + grey[down + x]! - 4 * g);
      const j = i * 3;
      const r = data[j]!;
      const gr = data[j + 1]!;
      const b = data[j + 2]!;
      const mean = (r + gr + b) * third;
      const saturation = Math.sqrt(((r - mean) * (r - mean) + (gr - mean) * (gr - mean) + (b - mean) * (b - mean)) * third) * k;
      out[i] = contrast * (saturation + SATURATION_FLOOR) * lut[Math.min(LUT_MAX, (g * LUT_SIZE) | 0)]! + EPSILON;
    }
  }
}
