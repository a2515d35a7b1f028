/**
 * Guards on the learned estimate, each a reason to correct less than the model says:
 * - confidence, per part of the estimate: a correction small against the model's error on
 *   unseen photos (cross-validated RMSE) is as likely noise as need, so it is shrunk towards
 *   none by p² / (p² + (noiseScale·RMSE)²) — this is what leaves good photos alone; and when
 *   the bagged models disagree (spread well above its typical value) the answer depends on
 *   which photos the model saw, so it is shrunk too;
 * - a scene dominated by one saturated colour keeps its colour: its white balance
 *   correction is shrunk, since such a scene and a strong cast look alike;
 * - RAW: the decoded image is already balanced for the camera's as-shot white, a prior
 *   as strong as the model, so the correction is halved;
 * - the white must be a plausible light: near the Planckian locus (bounded tint) and
 *   within the range of real lights.
 * The constants were tuned on cross-validated renders of the fitting photos
 * (bench/tune-autoedit-guards.ts, which can give each part its own), never on held-out
 * photos — except the dominance guard,
 * which that objective preferred off (8.09 against 8.22 with it): it is kept, acting only
 * from half the picture in one saturated hue, because a flower or a sky wrongly
 * neutralised is the failure users notice, and the fitting photos hold few such scenes.
 */
import { LUMA_B, LUMA_G, LUMA_R, mired } from '../colour.js';
import { clamp } from '../math.js';
import type { LinearImage } from '../tone/preview.js';
import type { Prediction, Target, TargetVector } from './model.js';

/** The parts of an estimate that are shrunk as one. */
export const PARTS = ['white', 'exposure', 'contrast', 'saturation', 'black'] as const;
export type Part = (typeof PARTS)[number];

export interface GuardConstants {
  /** Per part, the multiple of the cross-validated RMSE below which a correction counts as noise. */
  noiseScale: Record<Part, number>;
  /** Per part, the spread at which confidence is ½, as a multiple of the typical spread. */
  spreadTolerance: Record<Part, number>;
  /** Dominance (share of the picture in one saturated hue) where the white correction starts to shrink, and where it reaches its floor. */
  dominanceStart: number;
  dominanceFull: number;
  /** What is left of the white correction at full dominance. */
  dominanceFloor: number;
  /** Weight of the as-shot white of a RAW against the model's (0..1). */
  rawPrior: number;
}

const everyPart = (value: number) => Object.fromEntries(PARTS.map((part) => [part, value])) as Record<Part, number>;

/** The same confidence constants for every part (per-part ones tuned for the 178-photo weights: docs/imaging-engine.md). */
export const GUARDS: GuardConstants = { noiseScale: everyPart(0.4), spreadTolerance: everyPart(1), dominanceStart: 0.5, dominanceFull: 0.85, dominanceFloor: 0.4, rawPrior: 0.5 };

/** Plausible lights: 2200..12000 K, tint within ±30. */
export const WHITE_LIMITS = { minKelvin: 2200, maxKelvin: 12000, maxTint: 30 };

/** Hue sectors and the saturation above which a pixel counts as saturated. */
const HUE_SECTORS = 12;
const SATURATED = 0.4;
const DARK = 0.004;

/**
 * Share of the picture's pixels that are saturated and of one hue (the most common one),
 * hue taken in log-chromaticity.
 */
export function dominance(preview: LinearImage): number {
  const d = preview.data;
  const counts = new Float64Array(HUE_SECTORS);
  let total = 0;
  for (let i = 0; i < d.length; i += 3) {
    const r = Math.max(0, d[i]!);
    const g = Math.max(0, d[i + 1]!);
    const b = Math.max(0, d[i + 2]!);
    if (LUMA_R * r + LUMA_G * g + LUMA_B * b < DARK) continue;
    total++;
    const mx = Math.max(r, g, b);
    if (1 - Math.sqrt(Math.min(r, g, b) / mx) < SATURATED) continue;
    const hue = Math.atan2(Math.log((b + 1e-4) / (g + 1e-4)), Math.log((r + 1e-4) / (g + 1e-4)));
    counts[Math.min(HUE_SECTORS - 1, Math.floor(((hue + Math.PI) / (2 * Math.PI)) * HUE_SECTORS))] += 1;
  }
  return total > 0 ? Math.max(...counts) / total : 0;
}

export type Confidence = Record<Part, number>;

/** What the model knows of its own errors, from cross-validation (weights.json). */
export interface ModelErrors {
  rmse: TargetVector;
  typicalSpread: TargetVector;
}

function confidenceOf(part: Part, value: number, spread: number, rmse: number, typical: number, constants: GuardConstants): number {
  const ratio = spread / Math.max(1e-9, typical * constants.spreadTolerance[part]);
  const noise = (constants.noiseScale[part] * rmse) ** 2;
  return (value * value) / (value * value + noise + 1e-12) / (1 + ratio * ratio);
}

/** Confidence of each part of the estimate (0..1): signal against the model's error, and the bag's agreement. */
export function confidence(prediction: Prediction, errors: ModelErrors, constants: GuardConstants = GUARDS): Confidence {
  const { mean, spread } = prediction;
  const of = (part: Part, t: Target) => confidenceOf(part, mean[t], spread[t], errors.rmse[t], errors.typicalSpread[t], constants);
  const pair = (v: TargetVector) => Math.hypot(v.illuminantU, v.illuminantV);
  return {
    white: confidenceOf('white', pair(mean), pair(spread), pair(errors.rmse), pair(errors.typicalSpread), constants),
    exposure: of('exposure', 'exposure'),
    contrast: of('contrast', 'logContrast'),
    saturation: of('saturation', 'logSaturation'),
    black: of('black', 'blackLift'),
  };
}

/** The prediction shrunk by its confidence, the scene's dominance and the RAW prior. */
export function guardedTargets(prediction: Prediction, c: Confidence, sceneDominance: number, isRaw: boolean, constants: GuardConstants = GUARDS): TargetVector {
  const t = prediction.mean;
  const dominant = clamp((sceneDominance - constants.dominanceStart) / (constants.dominanceFull - constants.dominanceStart), 0, 1);
  const white = c.white * (1 - dominant * (1 - constants.dominanceFloor)) * (isRaw ? 1 - constants.rawPrior : 1);
  return {
    illuminantU: white * t.illuminantU,
    illuminantV: white * t.illuminantV,
    exposure: c.exposure * t.exposure,
    logContrast: c.contrast * t.logContrast,
    logSaturation: c.saturation * t.logSaturation,
    blackLift: c.black * t.blackLift,
  };
}

/** A white balance moved onto the range of plausible lights. */
export function plausibleWhite(temperature: number, tint: number): { temperature: number; tint: number } {
  const m = clamp(mired(temperature), mired(WHITE_LIMITS.maxKelvin), mired(WHITE_LIMITS.minKelvin));
  return { temperature: 1e6 / m, tint: clamp(tint, -WHITE_LIMITS.maxTint, WHITE_LIMITS.maxTint) };
}
