/**
 * Training the histogram light estimator on npm run train's draws (bench/autoedit/draws.ts):
 * the histograms of every draw (cached like the features), the fit of each leave-photos-out
 * fold, and the calibration that weighs it against the feature model's white, for
 * `npm run white-cv`. Measured, not shipped: the service does not use it (docs/imaging-engine.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { LIGHT_BINS, LIGHT_CHANNELS, LIGHT_SPEC, lightHistograms, type LightBlend, type LightEstimate } from './light.js';
import { outDir } from '../report.js';
import type { Photo } from './corpus.js';
import { inverseTargets, type Degradation } from './degrade.js';
import { drawsCacheKey, forEachDraw } from './draws.js';
import { fitLight, lightSample, predictSample, type LightFit, type LightPenalties, type LightSample } from './light-fit.js';

/**
 * Chosen by `npm run white-cv` (leave-photos-out over the smoothness of the filters and of the
 * bias, powers of ten); the sizes only pin the constant that a softmax ignores.
 */
export const LIGHT_PENALTIES: LightPenalties = { filterSmooth: 1e-4, filterSize: 1e-6, biasSmooth: 1e-4, biasSize: 1e-6 };

const CELLS = LIGHT_BINS * LIGHT_BINS;

export interface LightDraw {
  photo: number;
  degradation: Degradation;
  /** ln(r/g), ln(b/g) of the light to undo (inverseTargets). */
  truth: [number, number];
  histograms: Float64Array[];
  sample: LightSample;
}

/** The histograms of every training draw, cached in bench/out (keyed by the code that makes them). */
export async function lightDraws(photos: readonly Photo[], log: (text: string) => void): Promise<LightDraw[]> {
  const key = drawsCacheKey(photos, 'light', LIGHT_SPEC, fs.readFileSync(new URL('./light.js', import.meta.url), 'utf8'));
  const file = path.join(outDir, `autoedit-light-${key}`);
  let drawn: { photo: number; degradation: Degradation; histograms: Float64Array[] }[];
  if (fs.existsSync(`${file}.json`)) {
    const meta = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as { photo: number; degradation: Degradation }[];
    const buffer = fs.readFileSync(`${file}.bin`);
    const all = new Float64Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 8);
    log(`light histograms from ${path.relative(process.cwd(), file)}.bin`);
    drawn = meta.map((m, i) => ({ ...m, histograms: Array.from({ length: LIGHT_CHANNELS }, (_, c) => all.slice((i * LIGHT_CHANNELS + c) * CELLS, (i * LIGHT_CHANNELS + c + 1) * CELLS)) }));
  } else {
    drawn = [];
    await forEachDraw(
      photos,
      (photo, degradation, preview) => drawn.push({ photo, degradation, histograms: lightHistograms(preview) }),
      (photo) => log(`${photo.file}: light histograms`),
    );
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(`${file}.json`, JSON.stringify(drawn.map((d) => ({ photo: d.photo, degradation: d.degradation }))));
    const all = new Float64Array(drawn.length * LIGHT_CHANNELS * CELLS);
    for (const [i, d] of drawn.entries()) for (const [c, h] of d.histograms.entries()) all.set(h, (i * LIGHT_CHANNELS + c) * CELLS);
    fs.writeFileSync(`${file}.bin`, Buffer.from(all.buffer));
  }
  return drawn.map((d) => {
    const t = inverseTargets(d.degradation);
    return { photo: d.photo, degradation: d.degradation, truth: [t.illuminantU, t.illuminantV], histograms: d.histograms, sample: lightSample(d.histograms, t.illuminantU, t.illuminantV) };
  });
}

/** Out-of-fold estimates of every draw, and each fold's fit (warm-started from `starts`, which it updates). */
export function crossValidateLight(draws: readonly LightDraw[], folds: readonly number[][], penalties: LightPenalties, starts: Map<number, Float64Array>, log: (text: string) => void): { estimates: LightEstimate[]; fits: LightFit[] } {
  const estimates: LightEstimate[] = new Array(draws.length);
  const fits: LightFit[] = [];
  for (const [fi, fold] of folds.entries()) {
    const fit = fitLight(
      draws.filter((d) => !fold.includes(d.photo)).map((d) => d.sample),
      penalties,
      starts.get(fi),
    );
    starts.set(fi, fit.x);
    fits.push(fit);
    log(`  light, fold ${fi + 1}: ${fit.iterations} iterations, ${fit.evaluations} evaluations, objective ${fit.value.toFixed(4)}`);
    for (const [r, d] of draws.entries()) if (fold.includes(d.photo)) estimates[r] = predictSample(d.sample, fit.x);
  }
  return { estimates, fits };
}

/** a, b of variance = a + b·measure, by least squares of the squared errors over the given rows. */
function varianceLine(rows: readonly number[], measure: (r: number) => number, error: (r: number) => number): [number, number] {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (const r of rows) {
    const x = measure(r);
    const y = error(r) ** 2;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const b = Math.max(0, (n * sxy - sx * sy) / Math.max(1e-300, n * sxx - sx * sx));
  return [Math.max(1e-6, (sy - b * sx) / n), b];
}

/** What the blend of the feature model's white and the light estimate learns from the given rows' out-of-fold errors. */
export function calibrateBlend(rows: readonly number[], draws: readonly LightDraw[], features: { mean: [number, number]; spread: [number, number] }[], light: readonly LightEstimate[]): LightBlend {
  const axes = [0, 1] as const;
  return {
    features: axes.map((k) =>
      varianceLine(
        rows,
        (r) => features[r]!.spread[k] ** 2,
        (r) => features[r]!.mean[k] - draws[r]!.truth[k],
      ),
    ),
    light: axes.map((k) =>
      varianceLine(
        rows,
        (r) => light[r]!.covariance[k === 0 ? 0 : 2],
        (r) => light[r]!.mean[k] - draws[r]!.truth[k],
      ),
    ),
  };
}
