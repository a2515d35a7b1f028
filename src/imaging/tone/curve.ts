/**
 * The global tone curve: contrast, whites and blacks as one function of linear light,
 * baked with the sRGB encoding into a lookup table. Estimate evaluates the same function
 * to predict where percentiles land, so the two cannot disagree.
 */
import { linearToSrgb } from '../colour.js';

/** 18 % grey, the pivot of contrast. */
export const MID_GREY = 0.18;
const PIVOT = Math.log2(MID_GREY);

export interface ToneSliders {
  contrast: number;
  whites: number;
  blacks: number;
}

/** Log-space slope at the pivot for a contrast slider value: 1.5× at +100, 1/1.5 at −100. */
export function contrastSlope(contrast: number): number {
  return 1.5 ** (contrast / 100);
}

/**
 * Linear light in, linear light out (not clipped). Contrast is a straight line of slope γ
 * through 18 % grey in log-log, the scene-referred contrast of grading tools: black stays
 * black and, for γ > 1, the brightest tones pass white and clip as on film (highlights
 * and whites bring them back). For γ < 1 the part above grey is a parabola that still
 * reaches white at 1.0, so lowering contrast does not grey the whites. Whites add up to
 * ±0.5 EV rising towards the top; blacks set a linear black point (negative) or lift
 * black (positive).
 */
export function toneCurve(v: number, sliders: ToneSliders): number {
  if (v <= 0) return sliders.blacks > 0 ? blackLift(sliders.blacks) : 0;
  const gamma = contrastSlope(sliders.contrast);
  const l = Math.log2(v);
  let out: number;
  if (l <= PIVOT || gamma >= 1) out = PIVOT + gamma * (l - PIVOT);
  else if (l < 0) {
    const t = l - PIVOT;
    out = PIVOT + gamma * t + ((gamma - 1) / PIVOT) * t * t;
  } else out = (2 - gamma) * l;
  if (sliders.whites !== 0 && l > PIVOT) {
    const w = l < 0 ? ((l - PIVOT) / -PIVOT) ** 2 : 1;
    out += 0.5 * (sliders.whites / 100) * w;
  }
  let y = 2 ** out;
  if (sliders.blacks < 0) {
    const beta = 0.02 * (-sliders.blacks / 100);
    y = Math.max(0, (y - beta) / (1 - beta));
  } else if (sliders.blacks > 0) {
    const beta = blackLift(sliders.blacks);
    y = beta + (1 - beta) * y;
  }
  return y;
}

function blackLift(blacks: number): number {
  return 0.01 * (blacks / 100);
}

/** The table has TONE_LUT_SIZE + 1 entries, read without interpolation. */
export const TONE_LUT_SIZE = 65535;

/**
 * Tone curve + sRGB encoding as a table over s = sqrt(v / vmax): square-root spacing
 * gives the deep shadows fine steps, so 16-bit input survives the default settings to
 * within a code value without interpolating. vmax is where the curve reaches white;
 * beyond it output is white.
 */
export interface ToneLut {
  /** Encoded output 0..1. */
  table: Float32Array;
  /** Index = round(sqrt(v) * scale), at most TONE_LUT_SIZE. */
  scale: number;
}

/** The last table built: fitting and previews render one photo many times with the same tone sliders. */
let lastLut: { key: string; lut: ToneLut } | null = null;

export function buildToneLut(sliders: ToneSliders): ToneLut {
  const key = `${sliders.contrast}|${sliders.whites}|${sliders.blacks}`;
  if (lastLut?.key === key) return lastLut.lut;
  let vmax = 1;
  while (toneCurve(vmax, sliders) < 1 && vmax < 4096) vmax *= 2;
  const n = TONE_LUT_SIZE;
  const table = new Float32Array(n + 1);
  for (let i = 0; i <= n; i++) {
    const s = i / n;
    table[i] = linearToSrgb(Math.min(1, Math.max(0, toneCurve(s * s * vmax, sliders))));
  }
  const lut = { table, scale: n / Math.sqrt(vmax) };
  lastLut = { key, lut };
  return lut;
}
