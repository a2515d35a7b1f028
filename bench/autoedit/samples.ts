/**
 * What `npm run train` and the scripts that compare learners on its cached draws share: the
 * seed, the features standardised over the draws, and the leave-photos-out folds. One copy, so
 * that a comparison runs on exactly the folds and scaling the training run used.
 */
import { seededRandom } from '../../src/imaging/random.js';

export const TRAINING_SEED = 20261125;
export const FOLDS = 5;

/** Each feature shifted to zero mean and divided by its spread over the draws (1 where it is constant). */
export function standardise(features: readonly ArrayLike<number>[]): { mean: number[]; scale: number[]; x: Float64Array[] } {
  const f = features[0]!.length;
  const n = features.length;
  const mean = new Array<number>(f).fill(0);
  const scale = new Array<number>(f).fill(0);
  for (const s of features) for (let i = 0; i < f; i++) mean[i] += s[i]! / n;
  for (const s of features) for (let i = 0; i < f; i++) scale[i] += (s[i]! - mean[i]!) ** 2 / n;
  for (let i = 0; i < f; i++) scale[i] = Math.sqrt(scale[i]!) || 1;
  return { mean, scale, x: features.map((s) => Float64Array.from(s, (v, i) => (v - mean[i]!) / scale[i]!)) };
}

/** Photos 0…count−1 shuffled once by the training seed (`order`), then dealt round-robin into folds. */
export function photoFolds(count: number): { order: number[]; folds: number[][] } {
  const order = Array.from({ length: count }, (_, i) => i);
  const rnd = seededRandom(TRAINING_SEED + 1);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return { order, folds: Array.from({ length: FOLDS }, (_, k) => order.filter((_, i) => i % FOLDS === k)) };
}
