/**
 * `npm run train`: fits the learned automatic edit (src/imaging/autoedit) by
 * self-supervision. Every fitting photo (the split is the issue's, bench/autoedit/corpus.ts)
 * is cropped and degraded at random in linear light, many times with a fixed seed; the features of
 * each degraded photo are paired with the targets of the rendering that undoes it. Ridge
 * regression per target, λ chosen by leave-photos-out cross-validation, then bagged over
 * bootstrap samples of the photos, blended per target with boosted trees by the weight
 * (0, ½ or 1) that cross-validation prefers. Writes src/imaging/autoedit/weights.json, and the
 * cross-validated predictions (with their bag spread) to bench/out/autoedit-cv.json for
 * tuning the guards. Held-out photos are never read.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FEATURE_SPEC, photoFeatures } from '../src/imaging/autoedit/features.js';
import { TARGETS, WEIGHTS_VERSION, evaluateTrees, type AutoEditWeights, type RidgeModel, type TreeEnsemble } from '../src/imaging/autoedit/model.js';
import { seededRandom } from '../src/imaging/random.js';
import { fittingPhotos } from './autoedit/training-photos.js';
import { inverseTargets, type Degradation } from './autoedit/degrade.js';
import { DRAWS_PER_PHOTO, drawsCacheKey, EDGE, forEachDraw } from './autoedit/draws.js';
import { cvCases, loadFolds, renderCv, saveFolds, summarise } from './autoedit/cv-render.js';
import { applyLinear, fitTarget, normalEquations } from './autoedit/ridge.js';
import { BOOST, boost } from './autoedit/trees.js';
import { outDir, projectRoot } from './report.js';
import { FOLDS, TRAINING_SEED, photoFolds, standardise } from './autoedit/samples.js';

const BAGS = 8;
const LAMBDAS = [1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1, 3, 10, 30, 100];
/** Weights of the trees against the ridge bag tried per target. */
const TREE_WEIGHTS = [0, 0.5, 1];

interface Sample {
  photo: number;
  degradation: Degradation;
  features: Float64Array;
  targets: Float64Array;
}

const started = Date.now();
const log = (text: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0)} s, load ${os.loadavg()[0]!.toFixed(2)}] ${text}\n`);

const extraPhotos = process.argv.includes('--extra-photos');
const photos = fittingPhotos({ extra: extraPhotos });
/** Degrading and measuring is most of the run: the samples are kept for reruns that change only the fit. */
const cacheKey = drawsCacheKey(photos, 'crops', FEATURE_SPEC);
const cacheFile = path.join(outDir, `autoedit-samples-${cacheKey}.json`);
const samples: Sample[] = fs.existsSync(cacheFile) ? (JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as Sample[]).map((s) => ({ ...s, features: Float64Array.from(s.features), targets: Float64Array.from(s.targets) })) : await drawSamples();
if (!fs.existsSync(cacheFile)) {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(cacheFile, JSON.stringify(samples.map((s) => ({ ...s, features: Array.from(s.features), targets: Array.from(s.targets) }))));
} else log(`samples from ${path.relative(process.cwd(), cacheFile)}`);

async function drawSamples(): Promise<Sample[]> {
  const out: Sample[] = [];
  await forEachDraw(
    photos,
    (photo, degradation, preview) => {
      const t = inverseTargets(degradation);
      out.push({ photo, degradation, features: photoFeatures(preview), targets: Float64Array.from(TARGETS, (k) => t[k]) });
    },
    (photo) => log(`${photo.file}: ${DRAWS_PER_PHOTO} draws`),
  );
  return out;
}

const { mean: featureMean, scale: featureScale, x } = standardise(samples.map((s) => s.features));
const y = samples.map((s) => s.targets);
const rowsOf = (photoSet: readonly number[]) => photoSet.flatMap((p) => samples.flatMap((s, r) => (s.photo === p ? [r] : [])));

/** Bootstrap samples of photos (with replacement), the same for every fit of a run. */
function bootstrap(photoSet: readonly number[], bags: number, r: () => number): number[][] {
  return Array.from({ length: bags }, () => Array.from({ length: photoSet.length }, () => photoSet[Math.floor(r() * photoSet.length)]!));
}

const { order, folds } = photoFolds(photos.length);

// λ per target by leave-photos-out cross-validation (one ridge per fold, no bagging).
const cvError = TARGETS.map(() => new Array<number>(LAMBDAS.length).fill(0));
for (const fold of folds) {
  const train = rowsOf(order.filter((p) => !fold.includes(p)));
  const test = rowsOf(fold);
  const normal = normalEquations(x, y, train);
  for (const [k] of TARGETS.entries())
    for (const [li, lambda] of LAMBDAS.entries()) {
      const c = fitTarget(normal, k, lambda);
      for (const r of test) cvError[k]![li] += (applyLinear(c, x[r]!) - y[r]![k]!) ** 2 / samples.length;
    }
}
const lambda = TARGETS.map((_, k) => LAMBDAS[cvError[k]!.indexOf(Math.min(...cvError[k]!))]!);
const targetStd = TARGETS.map((_, k) => Math.sqrt(y.reduce((s, v) => s + (v[k]! - y.reduce((a, w) => a + w[k]!, 0) / y.length) ** 2, 0) / y.length));
for (const [k, name] of TARGETS.entries()) log(`${name}: λ ${lambda[k]}, CV RMSE ${Math.sqrt(Math.min(...cvError[k]!)).toFixed(4)} (target sd ${targetStd[k]!.toFixed(4)})`);

// Trees per target and fold, and the blend weight with the least cross-validated error.
const treeRnd = () => seededRandom(TRAINING_SEED + 3);
const foldTrees = folds.map((fold) => {
  const train = rowsOf(order.filter((p) => !fold.includes(p)));
  return TARGETS.map((_, k) => boost(x, y, k, train, BOOST, treeRnd()));
});
const blendError = TARGETS.map(() => new Array<number>(TREE_WEIGHTS.length).fill(0));
for (const [fi, fold] of folds.entries()) {
  const normal = normalEquations(x, y, rowsOf(order.filter((p) => !fold.includes(p))));
  for (const [k] of TARGETS.entries()) {
    const c = fitTarget(normal, k, lambda[k]!);
    for (const r of rowsOf(fold)) {
      const ridge = applyLinear(c, x[r]!);
      const trees = evaluateTrees(foldTrees[fi]![k]!, x[r]!);
      for (const [wi, w] of TREE_WEIGHTS.entries()) blendError[k]![wi] += ((1 - w) * ridge + w * trees - y[r]![k]!) ** 2 / samples.length;
    }
  }
}
const treeWeight = TARGETS.map((_, k) => TREE_WEIGHTS[blendError[k]!.indexOf(Math.min(...blendError[k]!))]!);
for (const [k, name] of TARGETS.entries())
  log(`${name}: CV RMSE ridge ${Math.sqrt(blendError[k]![0]!).toFixed(4)}, ½ ridge + ½ trees ${Math.sqrt(blendError[k]![1]!).toFixed(4)}, trees ${Math.sqrt(blendError[k]![2]!).toFixed(4)} → tree weight ${treeWeight[k]}`);
const treesFor = (ensembles: TreeEnsemble[]) => ({ weight: treeWeight, ensembles: ensembles.map((e, k) => (treeWeight[k]! > 0 ? e : null)) });
/** Ridge bag mean blended with the trees, as model.ts predicts. */
const blend = (k: number, ridgeMean: number, ensembles: TreeEnsemble[], row: Float64Array) => (treeWeight[k]! > 0 ? (1 - treeWeight[k]!) * ridgeMean + treeWeight[k]! * evaluateTrees(ensembles[k]!, row) : ridgeMean);

/** Bagged ridge models on the given photos. */
function fitBag(photoSet: readonly number[], r: () => number): RidgeModel[] {
  return bootstrap(photoSet, BAGS, r).map((sample) => {
    const normal = normalEquations(x, y, rowsOf(sample));
    return { coefficients: TARGETS.map((_, k) => fitTarget(normal, k, lambda[k]!)) };
  });
}

// Cross-validated predictions of the bagged model, as the service would make them on unseen photos.
const bagRnd = seededRandom(TRAINING_SEED + 2);
const foldBags: RidgeModel[][] = [];
const cv: { photo: string; degradation: Degradation; targets: number[]; mean: number[]; spread: number[] }[] = [];
for (const [fi, fold] of folds.entries()) {
  const models = fitBag(
    order.filter((p) => !fold.includes(p)),
    bagRnd,
  );
  foldBags.push(models);
  for (const r of rowsOf(fold)) {
    const values = models.map((m) => m.coefficients.map((c) => applyLinear(c, x[r]!)));
    const ridgeMean = TARGETS.map((_, k) => values.reduce((s, v) => s + v[k]!, 0) / values.length);
    const spread = TARGETS.map((_, k) => Math.sqrt(values.reduce((s, v) => s + (v[k]! - ridgeMean[k]!) ** 2, 0) / values.length));
    const mean = TARGETS.map((_, k) => blend(k, ridgeMean[k]!, foldTrees[fi]!, x[r]!));
    cv.push({ photo: photos[samples[r]!.photo]!.file, degradation: samples[r]!.degradation, targets: Array.from(y[r]!), mean, spread });
  }
}
const bagRmse = TARGETS.map((_, k) => Math.sqrt(cv.reduce((s, c) => s + (c.mean[k]! - c.targets[k]!) ** 2, 0) / cv.length));
log(`bagged CV RMSE: ${TARGETS.map((t, k) => `${t} ${bagRmse[k]!.toFixed(4)}`).join(', ')}`);

const typicalSpread = TARGETS.map((_, k) => {
  const spreads = cv.map((c) => c.spread[k]!).sort((a, b) => a - b);
  return spreads[spreads.length >> 1]!;
});
const round = (v: number) => Number(v.toPrecision(4));
const models = fitBag(order, bagRnd).map((m) => ({ coefficients: m.coefficients.map((c) => c.map(round)) }));
const roundTrees = (e: TreeEnsemble): TreeEnsemble => ({ ...e, base: round(e.base), thresholds: e.thresholds.map(round), leaves: e.leaves.map(round) });
const allTrees = TARGETS.map((_, k) =>
  roundTrees(
    boost(
      x,
      y,
      k,
      order.flatMap((p) => rowsOf([p])),
      BOOST,
      treeRnd(),
    ),
  ),
);
const weightsWith = (bag: RidgeModel[], ensembles: TreeEnsemble[]): AutoEditWeights => ({
  version: WEIGHTS_VERSION,
  featureSpec: FEATURE_SPEC,
  targets: TARGETS,
  featureMean: featureMean.map(round),
  featureScale: featureScale.map(round),
  lambda,
  typicalSpread: typicalSpread.map(round),
  cvRmse: bagRmse.map(round),
  models: bag,
  trees: treesFor(ensembles),
  training: {},
});
saveFolds(folds.map((fold, k) => ({ photos: fold.map((p) => photos[p]!.file), weights: weightsWith(foldBags[k]!, foldTrees[k]!.map(roundTrees)) })));
const weights: AutoEditWeights = {
  ...weightsWith(models, allTrees),
  training: {
    command: extraPhotos ? 'npm run train -- --extra-photos' : 'npm run train',
    seed: TRAINING_SEED,
    photos: photos.length,
    drawsPerPhoto: DRAWS_PER_PHOTO,
    edge: EDGE,
    bags: BAGS,
    folds: FOLDS,
    trees: BOOST,
    featureSpecSha1: createHash('sha1').update(FEATURE_SPEC).digest('hex').slice(0, 12),
  },
};
const file = path.join(projectRoot, 'src', 'imaging', 'autoedit', 'weights.json');
fs.writeFileSync(file, `${JSON.stringify(weights)}\n`);
fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'autoedit-cv.json'), JSON.stringify(cv));
const rendered = await renderCv(loadFolds(), await cvCases(photos));
const own = new Set(fittingPhotos({ extra: false }).map((p) => p.file));
for (const [label, results] of [
  ['all fitting photos', rendered],
  ['corpus and test photos', rendered.filter((r) => own.has(r.photo))],
] as const) {
  const summary = summarise(results);
  log(
    `rendered, cross-validated, ${label} (mean ΔE00 to the original): degraded ${summary.degradedMean.toFixed(2)} → ours ${summary.oursMean.toFixed(2)}; canonical ${summary.canonicalDegraded.toFixed(2)} → ${summary.canonicalOurs.toFixed(2)}; worse than degraded ${summary.exceptions}; undegraded mean ${summary.harmMean.toFixed(2)} worst ${summary.harmWorst.toFixed(2)}`,
  );
}
log(`wrote ${path.relative(process.cwd(), file)} (${(fs.statSync(file).size / 1024).toFixed(1)} KiB) from ${samples.length} draws of ${photos.length} photos`);
