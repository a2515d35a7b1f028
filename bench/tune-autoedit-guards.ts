/**
 * `npm run tune-guards` (after `npm run train`): tunes the guard constants of the
 * automatic edit on the fitting photos only (with `-- --extra-photos`, the extra ones too, as
 * npm run train was given), by rendering. Each fitting photo is
 * estimated by the bag of the cross-validation fold that left it out (as if unseen),
 * undegraded and degraded; constants are searched one at a time (coordinate descent), the
 * confidence's noise scale and spread tolerance for each part of the estimate (white,
 * exposure, contrast, saturation, black) apart, since each part's errors on unseen photos
 * are its own. The objective follows the issue's targets: the mean ΔE00 to the original of
 * the degraded cases, plus a penalty per output further from the original than its input,
 * subject to doing no harm (mean and worst ΔE00 of the undegraded photos within the issue's
 * limits, a steep penalty beyond them). Weighing undegraded cases as much as degraded ones
 * would favour an edit that barely moves anything. With `-- --within MEAN,WORST,EXCEPTIONS`
 * the limits are hard instead (no harm mean and worst ΔE00, outputs worse than their input)
 * and only the degraded cases' mean ΔE00 is minimised (from outside them, the distance to them first): to hold a new model to what the
 * shipped one does rather than to the issue's targets. Prints the best constants for guards.ts.
 */
import os from 'node:os';
import { GUARDS, PARTS, type GuardConstants } from '../src/imaging/autoedit/guards.js';
import { cvCases, loadFolds, renderCv, summarise, type CaseResult } from './autoedit/cv-render.js';
import { fittingPhotos } from './autoedit/training-photos.js';

const PER_PART_GRID = {
  noiseScale: [0, 0.2, 0.4, 0.6, 1],
  spreadTolerance: [0.7, 1, 1.4, 2, 4],
};
const GRID = {
  dominanceStart: [0.25, 0.5, 1],
  dominanceFloor: [0, 0.4, 0.7],
};
const EXCEPTION_PENALTY = 0.1;
/** The do-no-harm limits on undegraded photos (mean, worst ΔE00), and the cost of each ΔE00 beyond them. */
const HARM_LIMITS = { mean: 3, worst: 6 };
const HARM_PENALTY = 10;
/** Objective of a setting outside the --within limits, plus how far outside. */
const INFEASIBLE = 1000;

const within = process.argv.includes('--within') ? process.argv[process.argv.indexOf('--within') + 1]!.split(',').map(Number) : undefined;

const objective = (results: CaseResult[]) => {
  const s = summarise(results);
  if (within) {
    const [harmMean, harmWorst, exceptions] = within as [number, number, number];
    // Beyond the limits, the distance to them: a search that starts outside walks back in.
    const beyond = Math.max(0, s.harmMean - harmMean) + Math.max(0, s.harmWorst - harmWorst) + Math.max(0, s.exceptions - exceptions);
    return { value: beyond > 0 ? INFEASIBLE + beyond : s.oursMean, summary: s };
  }
  const overLimits = Math.max(0, s.harmMean - HARM_LIMITS.mean) + Math.max(0, s.harmWorst - HARM_LIMITS.worst);
  return { value: s.oursMean + EXCEPTION_PENALTY * s.exceptions + HARM_PENALTY * overLimits, summary: s };
};

const folds = loadFolds();
const cases = await cvCases(fittingPhotos({ extra: process.argv.includes('--extra-photos') }));
let best: GuardConstants = structuredClone(GUARDS);
let bestValue = objective(await renderCv(folds, cases, best)).value;
const consider = async (label: string, trial: GuardConstants) => {
  const { value: v, summary: s } = objective(await renderCv(folds, cases, trial));
  process.stdout.write(
    `${label}: objective ${v.toFixed(3)} | degraded ${s.degradedMean.toFixed(2)} → ${s.oursMean.toFixed(2)}, canonical ${s.canonicalOurs.toFixed(2)}, exceptions ${s.exceptions}, no harm ${s.harmMean.toFixed(2)} / worst ${s.harmWorst.toFixed(2)} (load ${os.loadavg()[0]!.toFixed(1)})\n`,
  );
  if (v < bestValue) {
    bestValue = v;
    best = trial;
  }
};
for (const part of PARTS)
  for (const key of Object.keys(PER_PART_GRID) as (keyof typeof PER_PART_GRID)[])
    for (const value of PER_PART_GRID[key]) {
      if (value === best[key][part]) continue;
      await consider(`${part} ${key}=${value}`, { ...best, [key]: { ...best[key], [part]: value } });
    }
for (const key of Object.keys(GRID) as (keyof typeof GRID)[])
  for (const value of GRID[key]) {
    if (value === best[key]) continue;
    await consider(`${key}=${value}`, { ...best, [key]: value, ...(key === 'dominanceStart' ? { dominanceFull: Math.min(1.01, value + 0.35) } : {}) });
  }
const s = summarise(await renderCv(folds, cases, best));
process.stdout.write(
  `best ${JSON.stringify(best)}: objective ${bestValue.toFixed(3)}; degraded ${s.degradedMean.toFixed(2)} → ${s.oursMean.toFixed(2)}, canonical ${s.canonicalDegraded.toFixed(2)} → ${s.canonicalOurs.toFixed(2)}, exceptions ${s.exceptions}, no harm ${s.harmMean.toFixed(2)} / worst ${s.harmWorst.toFixed(2)}\n`,
);
