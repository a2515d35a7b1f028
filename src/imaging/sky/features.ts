import type { AnalysisCopy } from '../analysis-copy.js';
import { LUMA_B, LUMA_G, LUMA_R } from '../colour.js';
import { boxMean } from '../filters/box.js';
import { smoothstep } from '../math.js';

/** Families of sky colour: what a region is mostly made of decides how much support it needs. */
export const SkyHue = { none: 0, blue: 1, neutral: 2, warm: 3 } as const;

/** Per-pixel cues for sky segmentation, at analysis size. */
export interface SkyFeatures {
  /** Rec. 709 luma of the encoded values, 0..1. */
  luma: Float32Array;
  /** How plausible the colour alone is for sky, 0..1 (blue, white/grey, sunset hues; not green). */
  prior: Float32Array;
  /** Which family of sky colour a pixel belongs to, one of the SkyHue values. */
  hue: Uint8Array;
  /** Local gradient energy: colour change per pixel, averaged over 3×3, on a lightly smoothed copy. */
  texture: Float32Array;
}

/** Saturation below which hue is unreliable and a pixel counts as grey/white. */
const NEUTRAL_SATURATION = 0.12;

/** Plausibility of a hue (degrees) for a saturated sky pixel of luma y. */
function hueScore(hue: number, y: number): number {
  if (hue >= 185 && hue <= 255) return 1;
  if (hue > 160 && hue < 185) return 0.3 + (0.7 * (hue - 160)) / 25;
  if (hue > 255 && hue <= 290) return 1 - (0.4 * (hue - 255)) / 35;
  // Warm hues only as bright sunset light: walls and skin share them.
  const bright = smoothstep(0.25, 0.45, y);
  if (hue > 290 || hue <= 45) return 0.5 * bright;
  if (hue <= 70) return 0.3 * bright * (1 - (hue - 45) / 25);
  return 0;
}

function hueFamily(hue: number, sat: number, y: number): number {
  if (sat < NEUTRAL_SATURATION) return y > 0.15 ? SkyHue.neutral : SkyHue.none;
  if (hue >= 160 && hue <= 290) return SkyHue.blue;
  if (hue > 290 || hue < 70) return SkyHue.warm;
  return SkyHue.none;
}

/** Hue in degrees of an RGB triple with the given max and chroma (> 0). */
function hueOf(r: number, g: number, b: number, max: number, chroma: number): number {
  let hue: number;
  if (max === r) hue = (60 * (g - b)) / chroma;
  else if (max === g) hue = 60 * ((b - r) / chroma + 2);
  else hue = 60 * ((r - g) / chroma + 4);
  return hue < 0 ? hue + 360 : hue;
}

/** Saturation at which the prior starts to weigh the hue, and at which it weighs the hue alone. */
const HUE_FROM = 0.06;
const HUE_ONLY = 0.2;

/** Colour plausibility of an sRGB-encoded pixel (0..1 per channel) of the given luma, hue and saturation. */
function colourPrior(y: number, hue: number, sat: number): number {
  // Grey and white skies (overcast, haze) are plausible when bright, less so when dim.
  const neutral = smoothstep(0.2, 0.5, y);
  const coloured = hueScore(hue, y) * smoothstep(0.03, 0.1, y);
  // Weighed in whole at either end of the saturation blend, not skipped: the branch would cost more than the term.
  const w = smoothstep(HUE_FROM, HUE_ONLY, sat);
  return neutral * (1 - w) + coloured * w;
}

export function skyFeatures(copy: AnalysisCopy): SkyFeatures {
  const { width, height, rgb } = copy;
  const n = width * height;
  const luma = new Float32Array(n);
  const prior = new Float32Array(n);
  const hue = new Uint8Array(n);
  const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)] as const;
  const [pr, pg, pb] = planes;
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = rgb[j]!,
      g = rgb[j + 1]!,
      b = rgb[j + 2]!;
    pr[i] = r;
    pg[i] = g;
    pb[i] = b;
    const max = r > g ? (r > b ? r : b) : g > b ? g : b;
    const chroma = max - (r < g ? (r < b ? r : b) : g < b ? g : b);
    const y = LUMA_R * r + LUMA_G * g + LUMA_B * b;
    const sat = max > 0 ? chroma / max : 0;
    // Neither the prior nor the family reads the hue of a pixel this grey.
    const h = chroma > 1e-4 && sat > HUE_FROM ? hueOf(r, g, b, max, chroma) : 0;
    luma[i] = y;
    prior[i] = colourPrior(y, h, sat);
    hue[i] = hueFamily(h, sat, y);
  }
  // Two 3×3 box passes approximate a Gaussian of sigma ~1: JPEG noise and grain stay below the texture thresholds.
  const [sr, sg, sb] = planes.map((plane) => boxMean(boxMean(plane, width, height, 1, plane), width, height, 1, plane)) as [Float32Array, Float32Array, Float32Array];
  const gradient = new Float32Array(n);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const up = (y > 0 ? y - 1 : 0) * width;
    const down = (y < height - 1 ? y + 1 : y) * width;
    for (let x = 0; x < width; x++) {
      const left = row + (x > 0 ? x - 1 : 0);
      const right = row + (x < width - 1 ? x + 1 : x);
      // The strongest of the three channels' changes: the root of the largest squared change, one root per pixel.
      let dx = (sr[right]! - sr[left]!) / 2;
      let dy = (sr[down + x]! - sr[up + x]!) / 2;
      let energy = dx * dx + dy * dy;
      dx = (sg[right]! - sg[left]!) / 2;
      dy = (sg[down + x]! - sg[up + x]!) / 2;
      const eg = dx * dx + dy * dy;
      if (eg > energy) energy = eg;
      dx = (sb[right]! - sb[left]!) / 2;
      dy = (sb[down + x]! - sb[up + x]!) / 2;
      const eb = dx * dx + dy * dy;
      gradient[row + x] = Math.sqrt(eb > energy ? eb : energy);
    }
  }
  return { luma, prior, hue, texture: boxMean(gradient, width, height, 1, gradient) };
}
