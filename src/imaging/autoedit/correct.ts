/**
 * A feature preview as the renderer would leave it after a tone-and-colour correction, in
 * linear light: white balance and exposure (the develop matrix), the tone curve per channel
 * (contrast, black point), saturation about luminance. The second stage of the learned edit
 * reads its features from this, so training and the service must call the same function;
 * it approximates the renderer (which saturates encoded values) and need not match it.
 */
import { LUMA_B, LUMA_G, LUMA_R } from '../colour.js';
import { toneCurve } from '../tone/curve.js';
import { developMatrix } from '../tone/pixel-pass.js';
import type { LinearImage } from '../tone/preview.js';
import type { ToneColour } from './targets.js';

/** Linear light the tone curve is tabulated over, in steps of log2. */
const TABLE_STOPS = 16;
const TABLE_STEPS = 2048;

export function correctedPreview(preview: LinearImage, settings: ToneColour): LinearImage {
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = developMatrix(settings) as [number, number, number, number, number, number, number, number, number];
  // The curve on a log2 grid from 2^-16 to 1 (and a little past, where contrast clips).
  const table = new Float32Array(TABLE_STEPS + 1);
  const sliders = { contrast: settings.contrast, whites: 0, blacks: settings.blacks };
  for (let i = 0; i <= TABLE_STEPS; i++) table[i] = toneCurve(2 ** (-TABLE_STOPS + ((TABLE_STOPS + 1) * i) / TABLE_STEPS), sliders);
  const curve = (v: number) => {
    if (v <= 0) return table[0]!;
    const f = ((Math.log2(v) + TABLE_STOPS) / (TABLE_STOPS + 1)) * TABLE_STEPS;
    if (f >= TABLE_STEPS) return table[TABLE_STEPS]!;
    if (f <= 0) return table[0]!;
    const i = Math.floor(f);
    return table[i]! + (f - i) * (table[i + 1]! - table[i]!);
  };
  const saturation = 1 + settings.saturation / 100;
  const src = preview.data;
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i += 3) {
    const r = src[i]!;
    const g = src[i + 1]!;
    const b = src[i + 2]!;
    const cr = Math.min(1, curve(m0 * r + m1 * g + m2 * b));
    const cg = Math.min(1, curve(m3 * r + m4 * g + m5 * b));
    const cb = Math.min(1, curve(m6 * r + m7 * g + m8 * b));
    const y = LUMA_R * cr + LUMA_G * cg + LUMA_B * cb;
    out[i] = y + saturation * (cr - y);
    out[i + 1] = y + saturation * (cg - y);
    out[i + 2] = y + saturation * (cb - y);
  }
  return { width: preview.width, height: preview.height, data: out };
}
