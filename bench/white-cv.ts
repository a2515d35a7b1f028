/**
 * `npm run white-cv` (after `npm run train`, whose cross-validated predictions it reads):
 * the light of the learned automatic edit on npm run train's own draws and leave-photos-out
 * folds (bench/autoedit/samples.ts), three ways: the shipped white (ridge bag and trees on
 * the 150 features), the histogram light estimator (src/imaging/autoedit/light.ts, fitted
 * here fold by fold with the penalties of bench/autoedit/light-train.ts; `-- --search` searches
 * them again by the same cross-validation) and a blend of the two weighted by their confidences,
 * each fold's blend calibrated on the other folds' errors. Prints RMSE of ln r/g and ln b/g, the median angular
 * error of the light and the median ln-chroma distance, overall and on the undegraded draws.
 * Fitting photos only (bench/autoedit/training-photos.ts); held-out photos are never read.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LIGHT_CHANNELS, blendedWhite, lightScores, moments, softmax, type LightEstimate } from './autoedit/light.js';
import { TARGETS } from '../src/imaging/autoedit/model.js';
import { fitLight, gradientError, predictSample, type LightPenalties } from './autoedit/light-fit.js';
import { LIGHT_PENALTIES, calibrateBlend, crossValidateLight, lightDraws } from './autoedit/light-train.js';
import { photoFolds } from './autoedit/samples.js';
import { fittingPhotos } from './autoedit/training-photos.js';
import { outDir } from './report.js';

const started = Date.now();
const log = (text: string) => process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0)} s, load ${os.loadavg()[0]!.toFixed(2)}] ${text}\n`);

const photos = fittingPhotos({ extra: false });
const drawn = await lightDraws(photos, log);
const truth = drawn.map((d) => d.truth);
const U = TARGETS.indexOf('illuminantU');
const V = TARGETS.indexOf('illuminantV');
const { order, folds } = photoFolds(photos.length);
const rowsOf = (photoSet: readonly number[]) => photoSet.flatMap((p) => drawn.flatMap((d, r) => (d.photo === p ? [r] : [])));

const probe = gradientError(
  drawn.slice(0, 20).map((d) => d.sample),
  { filterSmooth: 1e-3, filterSize: 1e-4, biasSmooth: 1e-3, biasSize: 1e-4 },
  Float64Array.from({ length: (LIGHT_CHANNELS + 1) * 1024 }, (_, k) => Math.sin(k)),
  [3, 700, 1500, 2100, 2900],
);
log(`gradient check: worst relative error ${probe.toExponential(2)}`);

const starts = new Map<number, Float64Array>();
const crossValidate = (p: LightPenalties): LightEstimate[] => crossValidateLight(drawn, folds, p, starts, log).estimates;

const rmse = (est: readonly (readonly number[])[], axis: 0 | 1) => Math.sqrt(est.reduce((s, e, r) => s + (e[axis]! - truth[r]![axis]) ** 2, 0) / est.length);
const score = (est: readonly (readonly number[])[]) => rmse(est, 0) ** 2 + rmse(est, 1) ** 2;
const both = (estimates: readonly LightEstimate[]) => {
  const means = estimates.map((e) => e.mean);
  return `${rmse(means, 0).toFixed(4)} / ${rmse(means, 1).toFixed(4)}`;
};

// Penalties: the smoothness of the filters, then of the bias, over a log grid by the cross-validated squared error; the sizes fixed small (they pin the constant a softmax ignores).
const search = process.argv.includes('--search');
let best: LightPenalties = LIGHT_PENALTIES;
let bestEstimates = crossValidate(best);
let bestScore = score(bestEstimates.map((e) => e.mean));
log(`penalties ${JSON.stringify(best)}: CV RMSE ${both(bestEstimates)}`);
for (const key of search ? (['filterSmooth', 'biasSmooth'] as const) : [])
  for (const factor of [10, 0.1]) {
    for (;;) {
      const p = { ...best, [key]: best[key] * factor };
      const e = crossValidate(p);
      const s = score(e.map((x) => x.mean));
      log(`penalties ${JSON.stringify(p)}: CV RMSE ${both(e)}`);
      if (s >= bestScore) break;
      [best, bestEstimates, bestScore] = [p, e, s];
    }
  }

// The runtime's direct convolution must give what the fit's Fourier products give.
const check = fitLight(
  drawn.slice(0, 200).map((d) => d.sample),
  best,
  undefined,
  20,
);
let worstMismatch = 0;
for (const r of [0, 50, 199]) {
  const a = predictSample(drawn[r]!.sample, check.x).mean;
  const b = moments(softmax(lightScores(drawn[r]!.histograms, check.weights))).mean;
  worstMismatch = Math.max(worstMismatch, Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));
}
log(`runtime against fit: largest difference ${worstMismatch.toExponential(2)} (rounded weights)`);

// The shipped white's out-of-fold predictions, in npm run train's order (fold by fold, photo by photo).
const shippedCv = JSON.parse(fs.readFileSync(path.join(outDir, 'autoedit-cv.json'), 'utf8')) as { targets: number[]; mean: number[]; spread: number[] }[];
const cvOrder = folds.flatMap((fold) => rowsOf(fold));
if (shippedCv.length !== drawn.length) throw new Error('autoedit-cv.json is not from these draws: run npm run train');
const shipped: [number, number][] = new Array(drawn.length);
const shippedSpread: [number, number][] = new Array(drawn.length);
for (const [i, r] of cvOrder.entries()) {
  const c = shippedCv[i]!;
  if (Math.abs(c.targets[U]! - truth[r]![0]) > 1e-9 || Math.abs(c.targets[V]! - truth[r]![1]) > 1e-9) throw new Error('autoedit-cv.json does not match the draws: run npm run train');
  shipped[r] = [c.mean[U]!, c.mean[V]!];
  shippedSpread[r] = [c.spread[U]!, c.spread[V]!];
}

// The blend of each fold weighed by what the other folds' out-of-fold errors say of each estimator's doubt.
const ours = bestEstimates.map((e) => e.mean);
const features = shipped.map((mean, r) => ({ mean, spread: shippedSpread[r]! }));
const blend: [number, number][] = new Array(drawn.length);
for (const fold of folds) {
  const calibration = calibrateBlend(rowsOf(order.filter((q) => !fold.includes(q))), drawn, features, bestEstimates);
  for (const r of rowsOf(fold)) blend[r] = blendedWhite(features[r]!, bestEstimates[r]!, calibration).mean;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
/** Angle in degrees between the lights as linear RGB (e^u, 1, e^v). */
const angle = (a: readonly number[], b: readonly number[]) => {
  const x = [Math.exp(a[0]!), 1, Math.exp(a[1]!)];
  const y = [Math.exp(b[0]!), 1, Math.exp(b[1]!)];
  const c = (x[0]! * y[0]! + x[1]! * y[1]! + x[2]! * y[2]!) / (Math.hypot(...x) * Math.hypot(...y));
  return (Math.acos(Math.min(1, c)) * 180) / Math.PI;
};
const undegraded = drawn.flatMap((d, r) => (d.degradation.kelvin === 6500 && d.degradation.tint === 0 && d.degradation.saturation === 1 ? [r] : []));
const neutral = drawn.flatMap((d, r) => (Object.values(d.degradation).join() === '0,6500,0,1,1,1,0' ? [r] : []));
const row = (name: string, est: readonly (readonly number[])[]) => {
  const all = est.map((_, r) => r);
  const on = (rows: number[]) => rows.map((r) => est[r]!);
  const meanOf = (rows: number[], axis: 0 | 1) => rows.reduce((s, r) => s + est[r]![axis]!, 0) / rows.length;
  return `| ${name} | ${rmse(est, 0).toFixed(4)} | ${rmse(est, 1).toFixed(4)} | ${median(all.map((r) => angle(est[r]!, truth[r]!))).toFixed(2)}° | ${median(all.map((r) => Math.hypot(est[r]![0]! - truth[r]![0], est[r]![1]! - truth[r]![1]))).toFixed(4)} | ${Math.sqrt(on(undegraded).reduce((s, e, i) => s + (e[0]! - truth[undegraded[i]!]![0]) ** 2 + (e[1]! - truth[undegraded[i]!]![1]) ** 2, 0) / undegraded.length).toFixed(4)} | ${meanOf(neutral, 0).toFixed(3)}, ${meanOf(neutral, 1).toFixed(3)} |`;
};
log(`chosen penalties ${JSON.stringify(best)}`);
process.stdout.write(
  [
    `\nLight of ${drawn.length} draws of ${photos.length} fitting photos, ${folds.length}-fold leave-photos-out (npm run train's folds):\n`,
    '| estimator | RMSE ln r/g | RMSE ln b/g | median angular error | median ln-chroma error | RMSE, white undegraded | mean estimate, undegraded draws |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    row('shipped (ridge bag + trees)', shipped),
    row('histogram (FFCC-style)', ours),
    row('blend by confidence', blend),
    `\n${undegraded.length} draws with the white undegraded, ${neutral.length} wholly undegraded.\n`,
  ].join('\n'),
);
