/**
 * The model's targets and the develop settings they stand for. A target vector describes
 * what the renderer must do to a photo, in units where a degradation is simple:
 * - illuminantU/V: ln(r/g), ln(b/g) of the light as it appears in the image (0, 0: neutral);
 * - exposure: the renderer's EV once that light is balanced (luminance kept);
 * - logContrast: ln of the photo's log-space contrast relative to a good rendering (< 0: flat);
 * - logSaturation: ln of its saturation relative to a good rendering (< 0: muted);
 * - blackLift: linear light added to black (> 0: milky blacks).
 * A photo that needs nothing has every target 0.
 */
import { whiteFromIlluminant } from '../colour.js';
import { clamp } from '../math.js';
import { toneCurve } from '../tone/curve.js';
import type { TargetVector } from './model.js';

/** The settings a target vector maps to. */
export interface ToneColour {
  temperature: number;
  tint: number;
  exposure: number;
  contrast: number;
  blacks: number;
  saturation: number;
}

/** A black point of blacks = −100 removes 2 % (tone/curve.ts). */
const BLACK_POINT_AT_MINUS_100 = 0.02;

/** Contrast slider whose slope (1.5^(contrast/100)) undoes a log-contrast of e^logContrast. */
export function contrastFor(logContrast: number): number {
  return clamp((-100 * logContrast) / Math.log(1.5), -100, 100);
}

export function settingsFromTargets(t: TargetVector): ToneColour {
  const white = whiteFromIlluminant([Math.exp(t.illuminantU), 1, Math.exp(t.illuminantV)]);
  const contrast = contrastFor(t.logContrast);
  // The lifted black, once exposed and through the curve, is where the black point goes.
  const lifted = toneCurve(Math.max(0, t.blackLift) * 2 ** t.exposure, { contrast, whites: 0, blacks: 0 });
  return {
    temperature: white.temperature,
    tint: white.tint,
    exposure: clamp(t.exposure, -5, 5),
    contrast,
    blacks: clamp((-100 * lifted) / BLACK_POINT_AT_MINUS_100, -100, 0),
    saturation: clamp(100 * (Math.exp(-t.logSaturation) - 1), -100, 100),
  };
}
