/**
 * The learned automatic edit of one photo: features of its preview, the model's
 * prediction, the guards, and the develop settings they amount to.
 */
import type { LinearImage } from '../tone/preview.js';
import { photoFeatures } from './features.js';
import { GUARDS, confidence, dominance, guardedTargets, plausibleWhite, type Confidence } from './guards.js';
import { TARGETS, autoEditWeights, predict, type AutoEditWeights, type TargetVector } from './model.js';
import { settingsFromTargets, type ToneColour } from './targets.js';

export interface LearnedEdit extends ToneColour {
  confidence: Confidence;
  /** Share of the picture in one saturated hue (guards.ts). */
  dominance: number;
}

export interface LearnedEditOptions {
  isRaw?: boolean;
  weights?: AutoEditWeights;
}

export function learnedEdit(preview: LinearImage, options: LearnedEditOptions = {}): LearnedEdit {
  const weights = options.weights ?? autoEditWeights();
  const prediction = predict(photoFeatures(preview), weights);
  const vector = (values: readonly number[]) => Object.fromEntries(TARGETS.map((t, k) => [t, values[k]!])) as TargetVector;
  const guards = weights.guards ?? GUARDS;
  const c = confidence(prediction, { rmse: vector(weights.cvRmse), typicalSpread: vector(weights.typicalSpread) }, guards);
  const share = dominance(preview);
  const settings = settingsFromTargets(guardedTargets(prediction, c, share, options.isRaw ?? false, guards));
  const white = plausibleWhite(settings.temperature, settings.tint);
  return { ...settings, ...white, confidence: c, dominance: share };
}
