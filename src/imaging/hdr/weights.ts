import { arena, reserve, toolKernels } from '../kernels.js';
import type { Image16 } from '../types.js';
import type { Plane } from './luma.js';
import { CHUNK_ROWS } from './pyramid.js';

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
 * MEF-SSIM but pick sensor noise from the dark frames. qualityRows in the WebAssembly kernels,
 * CHUNK_ROWS rows at a time.
 */
export function qualityWeights(frame: Image16, luma: Plane, out: Float32Array): void {
  const { width, height, data } = frame;
  const k = toolKernels();
  // Each chunk's luma rows reach one row beyond it either side.
  const l = arena({ lut: 4 * LUT_SIZE, rgb: 6 * CHUNK_ROWS * width, luma: 4 * (CHUNK_ROWS + 2) * width, out: 4 * CHUNK_ROWS * width });
  reserve(k, l.end);
  new Float32Array(k.memory.buffer, l.lut, LUT_SIZE).set(exposedness());
  for (let y0 = 0; y0 < height; y0 += CHUNK_ROWS) {
    const y1 = Math.min(height, y0 + CHUNK_ROWS);
    const lumaRow0 = Math.max(0, y0 - 1);
    const lumaRow1 = Math.min(height, y1 + 1);
    new Uint16Array(k.memory.buffer, l.rgb, 3 * (y1 - y0) * width).set(data.subarray(3 * y0 * width, 3 * y1 * width));
    new Float32Array(k.memory.buffer, l.luma, (lumaRow1 - lumaRow0) * width).set(luma.data.subarray(lumaRow0 * width, lumaRow1 * width));
    k.qualityRows(l.rgb, l.luma, width, height, lumaRow0, y0, y1, l.lut, LUT_SIZE, SATURATION_FLOOR, EPSILON, l.out);
    out.set(new Float32Array(k.memory.buffer, l.out, (y1 - y0) * width), y0 * width);
  }
}
