/**
 * Verifies the automatic edit by rendering, on photos the model did not see: for every
 * fitting photo, the bag trained without its fold estimates each degraded copy, the
 * renderer applies the estimate, and the result is compared with the original by mean
 * CIEDE2000. Used by `npm run train` (report) and the guard tuning.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GuardConstants } from '../../src/imaging/autoedit/guards.js';
import type { AutoEditWeights } from '../../src/imaging/autoedit/model.js';
import { seededRandom } from '../../src/imaging/random.js';
import { estimateDetailed } from '../../src/imaging/estimate.js';
import { render } from '../../src/imaging/render.js';
import type { DevelopSettings } from '../../src/imaging/settings.js';
import type { Image16, RgbImage } from '../../src/imaging/types.js';
import { meanCiede2000 } from '../metrics/ciede2000.js';
import { outDir } from '../report.js';
import { type Photo, loadPhoto } from './corpus.js';
import { CANONICAL, NO_DEGRADATION, degrade, randomDegradation, to8, type Degradation } from './degrade.js';

/** The bag of each cross-validation fold and the photos it left out. */
export interface Fold {
  photos: string[];
  weights: AutoEditWeights;
}

export const FOLDS_FILE = path.join(outDir, 'autoedit-folds.json');

export function saveFolds(folds: Fold[]): void {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(FOLDS_FILE, JSON.stringify(folds));
}

export function loadFolds(): Fold[] {
  return JSON.parse(fs.readFileSync(FOLDS_FILE, 'utf8')) as Fold[];
}

export interface Case {
  photo: string;
  /** 'none', 'canonical' or 'random N'. */
  kind: string;
  degradation: Degradation;
  original: Image16;
  degraded: Image16;
}

/** Long edge of the cross-validation renders. */
const EDGE = 256;
const RANDOM_PER_PHOTO = 1;

/** The undegraded photo, the canonical degradation and a few random ones (fixed seed), per fitting photo. */
export async function cvCases(photos: readonly Photo[]): Promise<Case[]> {
  const rnd = seededRandom(4242);
  const cases: Case[] = [];
  for (const photo of photos) {
    const original = await loadPhoto(photo, EDGE);
    const kinds: [string, Degradation][] = [
      ['none', NO_DEGRADATION],
      ['canonical', CANONICAL],
    ];
    for (let i = 0; i < RANDOM_PER_PHOTO; i++) kinds.push([`random ${i + 1}`, randomDegradation(rnd, 0)]);
    for (const [kind, d] of kinds) cases.push({ photo: photo.file, kind, degradation: d, original, degraded: degrade(original, d) });
  }
  return cases;
}

export interface CaseResult {
  photo: string;
  kind: string;
  degraded: number;
  ours: number;
}

/** How a case's settings are estimated from the weights of the fold that left its photo out. */
export type CvEstimate = (c: Case, degraded8: RgbImage, weights: AutoEditWeights) => DevelopSettings;

export async function renderCv(folds: Fold[], cases: Case[], guards?: GuardConstants, estimateWith: CvEstimate = (_, image, weights) => estimateDetailed(image, {}, weights).settings): Promise<CaseResult[]> {
  const out: CaseResult[] = [];
  for (const c of cases) {
    const fold = folds.find((f) => f.photos.includes(c.photo));
    if (!fold) throw new Error(`no fold left out ${c.photo}`);
    const rendered = await render(c.degraded, estimateWith(c, to8(c.degraded), guards ? { ...fold.weights, guards } : fold.weights));
    out.push({ photo: c.photo, kind: c.kind, degraded: meanCiede2000(c.original, c.degraded), ours: meanCiede2000(c.original, rendered) });
  }
  return out;
}

export interface CvSummary {
  degradedMean: number;
  oursMean: number;
  canonicalOurs: number;
  canonicalDegraded: number;
  exceptions: number;
  harmMean: number;
  harmWorst: number;
}

export function summarise(results: CaseResult[]): CvSummary {
  const deg = results.filter((r) => r.kind !== 'none');
  const can = results.filter((r) => r.kind === 'canonical');
  const none = results.filter((r) => r.kind === 'none');
  const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / Math.max(1, xs.length);
  return {
    degradedMean: mean(deg.map((r) => r.degraded)),
    oursMean: mean(deg.map((r) => r.ours)),
    canonicalOurs: mean(can.map((r) => r.ours)),
    canonicalDegraded: mean(can.map((r) => r.degraded)),
    exceptions: deg.filter((r) => r.ours > r.degraded).length,
    harmMean: mean(none.map((r) => r.ours)),
    harmWorst: Math.max(...none.map((r) => r.ours)),
  };
}
