/**
 * Oracle decomposition of the automatic edit's error on the fitting photos (after `npm run
 * train`): the cross-validated renders of tune-guards, with one part of the estimate (white,
 * exposure, contrast, saturation, black) replaced by the truth that undoes the degradation,
 * with the guards as shipped and with every guard off, and with one part left unshrunk by
 * its guard. How far the degraded cases' ΔE00 falls says which part costs the most, and
 * whether the model's error or the guards' shrinkage is to blame. Held-out photos are never
 * read. `npm run autoedit-oracle`
 */
import os from 'node:os';
import { featurePreview, photoFeatures } from '../src/imaging/autoedit/features.js';
import { GUARDS, PARTS, confidence, dominance, guardedTargets, plausibleWhite, type GuardConstants, type Part } from '../src/imaging/autoedit/guards.js';
import { TARGETS, predict, type AutoEditWeights, type Target, type TargetVector } from '../src/imaging/autoedit/model.js';
import { settingsFromTargets } from '../src/imaging/autoedit/targets.js';
import { estimateDetailed } from '../src/imaging/estimate.js';
import type { RgbImage } from '../src/imaging/types.js';
import { cvCases, loadFolds, renderCv, summarise, type Case } from './autoedit/cv-render.js';
import { inverseTargets } from './autoedit/degrade.js';
import { fittingPhotos } from './autoedit/training-photos.js';

const TARGETS_OF: Record<Part, Target[]> = {
  white: ['illuminantU', 'illuminantV'],
  exposure: ['exposure'],
  contrast: ['logContrast'],
  saturation: ['logSaturation'],
  black: ['blackLift'],
};

/** Every guard off: full confidence, no dominance shrink. */
const NO_GUARDS: GuardConstants = {
  ...GUARDS,
  noiseScale: Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>,
  spreadTolerance: Object.fromEntries(PARTS.map((p) => [p, 1e9])) as Record<Part, number>,
  dominanceStart: 2,
  dominanceFull: 3,
};

type Replace = 'truth' | 'raw';

/** The estimate's settings with the given parts' targets replaced by the truth or by the unguarded prediction. */
function estimateReplacing(replace: Partial<Record<Part, Replace>>) {
  return (c: Case, image: RgbImage, weights: AutoEditWeights) => {
    const settings = estimateDetailed(image, {}, weights).settings;
    const preview = featurePreview(image);
    const prediction = predict(photoFeatures(preview), weights);
    const vector = (values: readonly number[]) => Object.fromEntries(TARGETS.map((t, k) => [t, values[k]!])) as TargetVector;
    const guards = weights.guards ?? GUARDS;
    const conf = confidence(prediction, { rmse: vector(weights.cvRmse), typicalSpread: vector(weights.typicalSpread) }, guards);
    const targets = guardedTargets(prediction, conf, dominance(preview), false, guards);
    const truth = inverseTargets(c.degradation);
    for (const [part, how] of Object.entries(replace) as [Part, Replace][]) for (const t of TARGETS_OF[part]) targets[t] = how === 'truth' ? truth[t] : prediction.mean[t];
    const tc = settingsFromTargets(targets);
    const white = plausibleWhite(tc.temperature, tc.tint);
    return { ...settings, ...white, exposure: Math.round(tc.exposure * 100) / 100, contrast: Math.round(tc.contrast), blacks: Math.round(tc.blacks), saturation: Math.round(tc.saturation) };
  };
}

const folds = loadFolds();
const cases = await cvCases(fittingPhotos({ extra: false }));
const rows: [string, GuardConstants, Partial<Record<Part, Replace>>][] = [
  ['guards on', GUARDS, {}],
  ...PARTS.map((p): [string, GuardConstants, Partial<Record<Part, Replace>>] => [`guards on, ${p} unshrunk`, GUARDS, { [p]: 'raw' }]),
  ...PARTS.map((p): [string, GuardConstants, Partial<Record<Part, Replace>>] => [`guards on, ${p} true`, GUARDS, { [p]: 'truth' }]),
  ['guards off', NO_GUARDS, {}],
  ...PARTS.map((p): [string, GuardConstants, Partial<Record<Part, Replace>>] => [`guards off, ${p} true`, NO_GUARDS, { [p]: 'truth' }]),
  ['every part true', GUARDS, Object.fromEntries(PARTS.map((p) => [p, 'truth'])) as Record<Part, Replace>],
];
process.stdout.write('| estimate | degraded cases | canonical | worse than input | no harm mean / worst |\n| --- | --- | --- | --- | --- |\n');
let input = '';
for (const [label, guards, replace] of rows) {
  const s = summarise(await renderCv(folds, cases, guards, estimateReplacing(replace)));
  input = `degraded input ${s.degradedMean.toFixed(2)}, canonical ${s.canonicalDegraded.toFixed(2)}`;
  process.stdout.write(`| ${label} | ${s.oursMean.toFixed(2)} | ${s.canonicalOurs.toFixed(2)} | ${s.exceptions} | ${s.harmMean.toFixed(2)} / ${s.harmWorst.toFixed(2)} |\n`);
}
process.stdout.write(`(${input}; load ${os.loadavg()[0]!.toFixed(1)})\n`);
