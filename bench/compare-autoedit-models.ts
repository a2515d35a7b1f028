/**
 * Compares model families for the automatic edit by the same 5-fold leave-photos-out
 * cross-validation as `npm run train`, on the samples it cached (path given): ridge,
 * boosted trees, boosted trees fitted to the ridge's residuals, and the mean of ridge and trees. Prints the CV RMSE per
 * target. Fitting photos only.
 */
import fs from 'node:fs';
import os from 'node:os';
import { TARGETS, evaluateTrees } from '../src/imaging/autoedit/model.js';
import { seededRandom } from '../src/imaging/random.js';
import { applyLinear, fitTarget, normalEquations } from './autoedit/ridge.js';
import { BOOST, boost } from './autoedit/trees.js';
import { TRAINING_SEED, photoFolds, standardise } from './autoedit/samples.js';

const LAMBDAS = [0.01, 0.1, 0.3, 1, 3, 10];
const raw = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as { photo: number; features: number[]; targets: number[] }[];
const photoCount = Math.max(...raw.map((s) => s.photo)) + 1;
const { x } = standardise(raw.map((s) => s.features));
const y = raw.map((s) => Float64Array.from(s.targets));
const { order, folds } = photoFolds(photoCount);
const rowsOf = (set: readonly number[]) => raw.flatMap((s, r) => (set.includes(s.photo) ? [r] : []));
const options = { ...BOOST, ...(process.argv[3] ? (JSON.parse(process.argv[3]) as object) : {}) };
const started = Date.now();
for (const [k, name] of TARGETS.entries()) {
  const err = { ridge: 0, trees: 0, hybrid: 0, average: 0 };
  const sd = Math.sqrt(y.reduce((s, v) => s + v[k]! ** 2, 0) / y.length - (y.reduce((s, v) => s + v[k]!, 0) / y.length) ** 2);
  for (const fold of folds) {
    const train = rowsOf(order.filter((p) => !fold.includes(p)));
    const test = rowsOf(fold);
    const normal = normalEquations(x, y, train);
    // λ by an inner split would be purer; the outer folds pick it here as train does.
    let best = { e: Number.POSITIVE_INFINITY, c: [] as number[] };
    for (const lambda of LAMBDAS) {
      const c = fitTarget(normal, k, lambda);
      const e = test.reduce((s, r) => s + (applyLinear(c, x[r]!) - y[r]![k]!) ** 2, 0);
      if (e < best.e) best = { e, c };
    }
    err.ridge += best.e;
    const trees = boost(x, y, k, train, options, seededRandom(TRAINING_SEED + 3));
    err.trees += test.reduce((s, r) => s + (evaluateTrees(trees, x[r]!) - y[r]![k]!) ** 2, 0);
    err.average += test.reduce((s, r) => s + ((evaluateTrees(trees, x[r]!) + applyLinear(best.c, x[r]!)) / 2 - y[r]![k]!) ** 2, 0);
    const residual = y.map((v, r) => Float64Array.of(v[k]! - applyLinear(best.c, x[r]!)));
    const onResidual = boost(x, residual, 0, train, options, seededRandom(TRAINING_SEED + 3));
    err.hybrid += test.reduce((s, r) => s + (applyLinear(best.c, x[r]!) + evaluateTrees(onResidual, x[r]!) - y[r]![k]!) ** 2, 0);
  }
  const rmse = (e: number) => Math.sqrt(e / raw.length).toFixed(4);
  process.stdout.write(
    `${name}: sd ${sd.toFixed(4)} | ridge ${rmse(err.ridge)} | trees ${rmse(err.trees)} | ridge+trees ${rmse(err.hybrid)} | average ${rmse(err.average)} (${((Date.now() - started) / 1000).toFixed(0)} s, load ${os.loadavg()[0]!.toFixed(1)})\n`,
  );
}
