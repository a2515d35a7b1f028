/**
 * How skin-coloured a pixel is, from its chroma alone. Skin of every complexion falls in a
 * compact region of the YCbCr chroma plane (Chai & Ngan 1999: Cb 77..127, Cr 133..173),
 * because melanin and blood change mostly brightness and saturation, not hue. Sand, wood,
 * brick and many fruits fall there too: colour alone never says "skin", it only rules out.
 */
import type { RgbPlanes } from '../analysis-copy.js';

/** 0 outside [lo - soft, hi + soft], 1 inside [lo, hi], linear between. */
function plateau(v: number, lo: number, hi: number, soft: number): number {
  if (v <= lo - soft || v >= hi + soft) return 0;
  if (v < lo) return (v - (lo - soft)) / soft;
  if (v > hi) return (hi + soft - v) / soft;
  return 1;
}

/**
 * Skin likelihood 0..1 of one sRGB-encoded pixel (0..1 channels): a soft box in Cb/Cr,
 * gated by luma so near-black and clipped pixels, whose chroma is noise, never count.
 */
export function skinLikelihood(r: number, g: number, b: number): number {
  const cb = 128 - 37.797 * r - 74.203 * g + 112 * b;
  const cr = 128 + 112 * r - 93.786 * g - 18.214 * b;
  const y = 0.299 * r + 0.587 * g + 0.114 * b;
  return plateau(cb, 82, 124, 6) * plateau(cr, 136, 170, 5) * plateau(y, 0.16, 0.96, 0.08);
}

/** skinLikelihood of every pixel of planes. */
export function skinMap(planes: RgbPlanes): Float32Array {
  const { r, g, b } = planes;
  const out = new Float32Array(r.length);
  for (let i = 0; i < out.length; i++) out[i] = skinLikelihood(r[i]!, g[i]!, b[i]!);
  return out;
}
