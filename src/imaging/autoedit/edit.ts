/**
 * The learned automatic edit of one photo: features of its preview, the model's
 * prediction, the guards, and the develop settings they amount to.
 */
import type { LinearImage } from '../tone/preview.js';
import { photoFeatures } from './features.js';
import { GUARDS, confidence, dominance, guardedTargets, plausibleWhite, type Confidence } from './guards.js';
import { TARGETS, autoEditWeights, predict, type AutoEditWeights, type Prediction, type TargetVector } from './model.js';
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

/** The model's prediction for a preview, and the targets its guards leave of it. */
export interface LearnedTargets {
  prediction: Prediction;
  targets: TargetVector;
  confidence: Confidence;
  dominance: number;
}

export function learnedTargets(preview: LinearImage, options: LearnedEditOptions = {}): LearnedTargets {
  const weights = options.weights ?? autoEditWeights();
  const prediction = predict(photoFeatures(preview), weights);
  const vector = (values: readonly number[]) => Object.fromEntries(TARGETS.map((t, k) => [t, values[k]!])) as TargetVector;
  const guards = weights.guards ?? GUARDS;
  const c = confidence(prediction, { rmse: vector(weights.cvRmse), typicalSpread: vector(weights.typicalSpread) }, guards);
  const share = dominance(preview);
  return { prediction, targets: guardedTargets(prediction, c, share, options.isRaw ?? false, guards), confidence: c, dominance: share };
}

/** Targets as develop settings, the white moved onto the range of plausible lights. */
export function toneColourOf(targets: TargetVector): ToneColour {
  const settings = settingsFromTargets(targets);
  return { ...settings, ...plausibleWhite(settings.temperature, settings.tint) };
}

export function learnedEdit(preview: LinearImage, options: LearnedEditOptions = {}): LearnedEdit {
  const learned = learnedTargets(preview, options);
  return { ...toneColourOf(learned.targets), confidence: learned.confidence, dominance: learned.dominance };
}
