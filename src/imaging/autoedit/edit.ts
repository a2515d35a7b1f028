/**
 * The learned automatic edit of one photo: features of its preview, the model's
 * prediction, the guards, and the develop settings they amount to. When the weights hold a
 * second stage, it reads the preview as the first stage's guarded correction leaves it and
 * adds what it finds left to undo (a corrected photo lies nearer the good photos the model
 * learned from, so the second stage extrapolates less than the first).
 */
import type { LinearImage } from '../tone/preview.js';
import { correctedPreview } from './correct.js';
import { photoFeatures } from './features.js';
import { GUARDS, confidence, dominance, guardedTargets, plausibleWhite, type Confidence, type GuardConstants } from './guards.js';
import { TARGETS, autoEditWeights, predict, type AutoEditWeights, type Prediction, type StageModel, type TargetVector } from './model.js';
import { settingsFromTargets, type ToneColour } from './targets.js';

export interface LearnedEdit extends ToneColour {
  /** The first stage's confidence per part. */
  confidence: Confidence;
  /** Share of the picture in one saturated hue (guards.ts). */
  dominance: number;
}

export interface LearnedEditOptions {
  isRaw?: boolean;
  weights?: AutoEditWeights;
}

const vector = (values: readonly number[]) => Object.fromEntries(TARGETS.map((t, k) => [t, values[k]!])) as TargetVector;

/** A stage's prediction shrunk by its guards. */
export function guardedStage(prediction: Prediction, stage: StageModel, sceneDominance: number, isRaw: boolean, guards: GuardConstants): { targets: TargetVector; confidence: Confidence } {
  const c = confidence(prediction, { rmse: vector(stage.cvRmse), typicalSpread: vector(stage.typicalSpread) }, guards);
  return { targets: guardedTargets(prediction, c, sceneDominance, isRaw, guards), confidence: c };
}

/** Targets as develop settings, the white moved onto plausible lights. */
export function toneColourOf(targets: TargetVector): ToneColour {
  const settings = settingsFromTargets(targets);
  return { ...settings, ...plausibleWhite(settings.temperature, settings.tint) };
}

/** What the second stage reads: the features of the preview as the first stage's correction leaves it, and that correction. */
export function residualFeatures(preview: LinearImage, first: TargetVector): Float64Array {
  return Float64Array.from([...photoFeatures(correctedPreview(preview, toneColourOf(first))), ...TARGETS.map((t) => first[t])]);
}

export function learnedEdit(preview: LinearImage, options: LearnedEditOptions = {}): LearnedEdit {
  const weights = options.weights ?? autoEditWeights();
  const guards = weights.guards ?? GUARDS;
  const isRaw = options.isRaw ?? false;
  const share = dominance(preview);
  const first = guardedStage(predict(photoFeatures(preview), weights), weights, share, isRaw, guards);
  let targets = first.targets;
  if (weights.residual) {
    const second = guardedStage(predict(residualFeatures(preview, first.targets), weights.residual), weights.residual, share, isRaw, guards);
    targets = vector(TARGETS.map((t) => first.targets[t] + second.targets[t]));
  }
  return { ...toneColourOf(targets), confidence: first.confidence, dominance: share };
}
