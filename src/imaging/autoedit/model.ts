/**
 * The learned model of the automatic edit: ridge regressions from standardised photo
 * features to the parameters that undo a degradation, bagged over bootstrap samples of
 * the training photos, blended per target with boosted regression trees where
 * cross-validation found the blend better (the trees catch interactions such as exposure
 * with contrast). The spread of the ridge bag says how much the answer depends on which
 * photos the model saw, the basis of the confidence.
 * Weights come from `npm run train` (bench/train-autoedit.ts) as a versioned JSON file.
 */
import weightsFile from './weights.json' with { type: 'json' };
import { FEATURE_SPEC } from './features.js';
import type { GuardConstants } from './guards.js';

/** What the model predicts, in the order of the weights' rows (see targets.ts). */
export const TARGETS = ['illuminantU', 'illuminantV', 'exposure', 'logContrast', 'logSaturation', 'blackLift'] as const;
export type Target = (typeof TARGETS)[number];
export type TargetVector = Record<Target, number>;

export const WEIGHTS_VERSION = 2;

export interface RidgeModel {
  /** Per target: intercept then one coefficient per standardised feature. */
  coefficients: number[][];
}

export interface AutoEditWeights {
  version: typeof WEIGHTS_VERSION;
  featureSpec: string;
  targets: readonly string[];
  featureMean: number[];
  featureScale: number[];
  /** Ridge λ per target, chosen by leave-photos-out cross-validation. */
  lambda: number[];
  /** Per target, the median spread of the bag on photos it did not see (cross-validation): the scale of the confidence. */
  typicalSpread: number[];
  /** Per target, the bag's cross-validated RMSE: the noise level of a correction. */
  cvRmse: number[];
  models: RidgeModel[];
  /**
   * Boosted trees, one ensemble per target or null, and per target the weight of the trees
   * against the bag's mean (chosen by cross-validation).
   */
  trees: { weight: number[]; ensembles: (TreeEnsemble | null)[] };
  /** Guard constants other than the built-in ones (cross-validation while tuning them). */
  guards?: GuardConstants;
  /** How the weights were made: photos, draws, seed, cross-validated errors. */
  training: Record<string, unknown>;
}

export interface Prediction {
  mean: TargetVector;
  /** Standard deviation across the bagged ridge models. */
  spread: TargetVector;
}

/**
 * Boosted regression trees of one depth, complete: per tree, its inner nodes in breadth-first
 * order (a value below the node's threshold goes to the first child) and its 2^depth leaves.
 */
export interface TreeEnsemble {
  depth: number;
  base: number;
  features: number[];
  thresholds: number[];
  leaves: number[];
}

export function evaluateTrees(e: TreeEnsemble, x: Float64Array): number {
  const inner = (1 << e.depth) - 1;
  const trees = e.leaves.length / (inner + 1);
  let s = e.base;
  for (let t = 0; t < trees; t++) {
    let n = 0;
    for (let level = 0; level < e.depth; level++) {
      const i = t * inner + n;
      n = 2 * n + (x[e.features[i]!]! < e.thresholds[i]! ? 1 : 2);
    }
    s += e.leaves[t * (inner + 1) + n - inner]!;
  }
  return s;
}

let checked: AutoEditWeights | null = null;

/** The committed weights, checked once against this build's features and targets. */
export function autoEditWeights(): AutoEditWeights {
  if (checked) return checked;
  const w = weightsFile as unknown as AutoEditWeights;
  if (w.version !== WEIGHTS_VERSION) throw new Error(`Expected autoedit weights version ${WEIGHTS_VERSION} but received ${String(w.version)}`);
  if (w.featureSpec !== FEATURE_SPEC) throw new Error(`autoedit weights were trained on features "${w.featureSpec}", this build computes "${FEATURE_SPEC}": run npm run train`);
  if (w.targets.join() !== TARGETS.join()) throw new Error(`autoedit weights predict ${w.targets.join()}, expected ${TARGETS.join()}`);
  checked = w;
  return w;
}

/** Standardises features in place with the training means and scales. */
export function standardise(features: Float64Array, mean: readonly number[], scale: readonly number[]): Float64Array {
  for (let i = 0; i < features.length; i++) features[i] = (features[i]! - mean[i]!) / scale[i]!;
  return features;
}

function evaluate(model: RidgeModel, x: Float64Array, t: number): number {
  const c = model.coefficients[t]!;
  let s = c[0]!;
  for (let i = 0; i < x.length; i++) s += c[i + 1]! * x[i]!;
  return s;
}

export function predict(features: Float64Array, weights: AutoEditWeights = autoEditWeights()): Prediction {
  if (features.length !== weights.featureMean.length) throw new Error(`Expected ${weights.featureMean.length} features but received ${features.length}`);
  const x = standardise(Float64Array.from(features), weights.featureMean, weights.featureScale);
  const mean = {} as TargetVector;
  const spread = {} as TargetVector;
  for (const [t, name] of TARGETS.entries()) {
    const values = weights.models.map((m) => evaluate(m, x, t));
    const mu = values.reduce((s, v) => s + v, 0) / values.length;
    const w = weights.trees.weight[t]!;
    const trees = weights.trees.ensembles[t];
    mean[name] = trees && w > 0 ? (1 - w) * mu + w * evaluateTrees(trees, x) : mu;
    spread[name] = Math.sqrt(values.reduce((s, v) => s + (v - mu) ** 2, 0) / values.length);
  }
  return { mean, spread };
}
