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
import { learnedTargets, toneColourOf } from '../src/imaging/autoedit/edit.js';
import { featurePreview } from '../src/imaging/autoedit/features.js';
import { GUARDS, PARTS, type GuardConstants, type Part } from '../src/imaging/autoedit/guards.js';
import type { Target } from '../src/imaging/autoedit/model.js';
import { estimateDetailed } from '../src/imaging/estimate.js';
import { cvCases, loadFolds, renderCv, summarise, type CvEstimate } from './autoedit/cv-render.js';
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
function estimateReplacing(replace: Partial<Record<Part, Replace>>): CvEstimate {
  return (c, image, weights) => {
    const settings = estimateDetailed(image, {}, weights).settings;
    const { prediction, targets } = learnedTargets(featurePreview(image), { weights });
    const truth = inverseTargets(c.degradation);
    for (const [part, how] of Object.entries(replace) as [Part, Replace][]) for (const t of TARGETS_OF[part]) targets[t] = how === 'truth' ? truth[t] : prediction.mean[t];
    const tc = toneColourOf(targets);
    // Rounded as estimate() rounds them.
    return { ...settings, temperature: tc.temperature, tint: tc.tint, exposure: Math.round(tc.exposure * 100) / 100, contrast: Math.round(tc.contrast), blacks: Math.round(tc.blacks), saturation: Math.round(tc.saturation) };
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
