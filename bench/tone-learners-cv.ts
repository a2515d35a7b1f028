/**
 * `node dist/bench/tone-learners-cv.js [SAMPLES]` (after `npm run train`, which caches its
 * draws in bench/out/autoedit-samples-*.json): leave-photos-out cross-validated RMSE of the
 * tone targets (exposure, logContrast, logSaturation, blackLift) for the ridge, boosted trees
 * of other depths and lengths, and finer blends of the two, on the training run's own folds
 * (fitting photos only; held-out photos are never among the draws). Also prints, per
 * learner, the slope of the true target on the prediction: above 1 the learner shrinks its
 * corrections (under-corrects), below 1 it exaggerates them — to tell whether
 * under-correction comes from the learner or from the guards.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TARGETS, evaluateTrees } from '../src/imaging/autoedit/model.js';
import { seededRandom } from '../src/imaging/random.js';
import { applyLinear, fitTarget, normalEquations } from './autoedit/ridge.js';
import { BOOST, boost, type BoostOptions } from './autoedit/trees.js';
import { TRAINING_SEED, photoFolds, standardise } from './autoedit/samples.js';
import { outDir } from './report.js';

const TONE = ['exposure', 'logContrast', 'logSaturation', 'blackLift'] as const;
const LEARNERS: Record<string, BoostOptions> = {
  trees: BOOST,
  deeper: { ...BOOST, depth: 4, rounds: 400, shrinkage: 0.05 },
  slower: { ...BOOST, rounds: 600, shrinkage: 0.05 },
};
const BLENDS = [0.25, 0.5, 0.75];
const LAMBDAS = [0.03, 0.1, 0.3, 1, 3];

const cached = fs.readdirSync(outDir).filter((f) => f.startsWith('autoedit-samples-'));
const file = process.argv[2] ?? path.join(outDir, cached[0] ?? 'autoedit-samples-missing.json');
const samples = JSON.parse(fs.readFileSync(file, 'utf8')) as { photo: number; features: number[]; targets: number[] }[];
const photos = Math.max(...samples.map((s) => s.photo)) + 1;
const { x } = standardise(samples.map((s) => s.features));
const y = samples.map((s) => Float64Array.from(s.targets));
// The training run's own folds, scaling and tree seed.
const { order, folds } = photoFolds(photos);
const rowsOf = (set: readonly number[]) => samples.flatMap((s, r) => (set.includes(s.photo) ? [r] : []));
const columns = TONE.map((t) => TARGETS.indexOf(t));

const truth: number[][] = [];
const predictions: Record<string, number[][]> = { ridge: [], ...Object.fromEntries(Object.keys(LEARNERS).map((n) => [n, []])) };
for (const fold of folds) {
  const train = rowsOf(order.filter((p) => !fold.includes(p)));
  const test = rowsOf(fold);
  const normal = normalEquations(x, y, train);
  // Every λ of the grid, the best picked over all folds as npm run train picks it.
  const ridge = columns.map((k) => LAMBDAS.map((lambda) => fitTarget(normal, k, lambda)));
  const ensembles = Object.fromEntries(Object.entries(LEARNERS).map(([n, o]) => [n, columns.map((k) => boost(x, y, k, train, o, seededRandom(TRAINING_SEED + 3)))]));
  for (const r of test) {
    truth.push(columns.map((k) => y[r]![k]!));
    predictions.ridge!.push(ridge.flatMap((byLambda) => byLambda.map((c) => applyLinear(c, x[r]!))));
    for (const n of Object.keys(LEARNERS)) predictions[n]!.push(ensembles[n]!.map((e) => evaluateTrees(e, x[r]!)));
  }
}

const rmse = (p: readonly number[], j: number) => Math.sqrt(p.reduce((s, v, i) => s + (v - truth[i]![j]!) ** 2, 0) / p.length);
/** Least-squares slope of the truth on the prediction. */
function slope(p: readonly number[], j: number): number {
  const t = truth.map((v) => v[j]!);
  const mp = p.reduce((a, b) => a + b, 0) / p.length;
  const mt = t.reduce((a, b) => a + b, 0) / t.length;
  return p.reduce((s, v, i) => s + (v - mp) * (t[i]! - mt), 0) / p.reduce((s, v) => s + (v - mp) ** 2, 0);
}
console.log(`${samples.length} draws of ${photos} photos from ${path.relative(process.cwd(), file)}, load ${os.loadavg()[0]!.toFixed(2)}`);
for (const [j, name] of TONE.entries()) {
  const byLambda = LAMBDAS.map((_, l) => predictions.ridge!.map((v) => v[j * LAMBDAS.length + l]!));
  const best = byLambda.reduce((a, b) => (rmse(b, j) < rmse(a, j) ? b : a));
  const line = [`${name}: rms ${Math.sqrt(truth.reduce((s, v) => s + v[j]! ** 2, 0) / truth.length).toFixed(4)}`, `ridge ${rmse(best, j).toFixed(4)} (slope ${slope(best, j).toFixed(2)})`];
  for (const n of Object.keys(LEARNERS)) {
    const trees = predictions[n]!.map((v) => v[j]!);
    line.push(`${n} ${rmse(trees, j).toFixed(4)} (slope ${slope(trees, j).toFixed(2)})`);
    for (const w of BLENDS)
      line.push(
        `${1 - w} ridge + ${w} ${n} ${rmse(
          best.map((v, i) => (1 - w) * v + w * trees[i]!),
          j,
        ).toFixed(4)}`,
      );
  }
  console.log(line.join(', '));
}
