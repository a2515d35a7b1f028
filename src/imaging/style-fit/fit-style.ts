/**
 * Personal profiles: a Style (additive slider biases, warmth in mireds) made from a
 * photographer's own work, in two ways (docs/profiles.md):
 *
 *   - styleFromXmpSettings: the robust mean of their Lightroom settings' offsets from
 *     neutral — quick, but it also averages whatever each photo needed;
 *   - fitStyleFromExamples: from pairs of original and edited picture, the settings that
 *     reproduce each edit through our renderer, minus the automatic estimate of the
 *     original; their robust mean is the bias that makes estimate() edit like them.
 */
import { mired } from '../colour.js';
import { PHOTOGRAPHY_TYPE_BIAS, estimate } from '../estimate.js';
import { assertImage16, resizeImage16, sizeForLongEdge } from '../image16.js';
import { render } from '../render.js';
import { applyBias, defaultSettings, neutralStyle, validateSettings, type DevelopSettings, type Style, type StyleBias } from '../settings.js';
import { fitSettings, labImage, meanDeltaE00 } from './fit-settings.js';
import type { Image16 } from '../types.js';

/** The biased sliders, in Style's order. */
const BIAS_KEYS = Object.keys(neutralStyle()).filter((k) => k !== 'name') as (keyof StyleBias)[];

/** Long edge the examples are fitted at: a fit renders the picture a few dozen times. */
const FIT_EDGE = 320;
/** Relative difference of aspect ratio that still counts as the same framing (rounding of resized exports). */
const ASPECT_TOLERANCE = 0.02;

/**
 * Interquartile-style trimmed mean: a quarter of the values off each end, and at least
 * one from three values up, so a single extreme photo cannot pull a slider.
 */
function trimmedMean(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const trim = n >= 3 ? Math.max(1, Math.floor(n / 4)) : 0;
  const kept = sorted.slice(trim, n - trim);
  return kept.reduce((s, v) => s + v, 0) / kept.length;
}

/** What to add to `from` to reach `to`, as style biases (warmth: the drop of the light's mired value). */
function biasBetween(from: DevelopSettings, to: DevelopSettings): StyleBias {
  const bias = { warmth: mired(from.temperature) - mired(to.temperature) } as StyleBias;
  for (const key of BIAS_KEYS) if (key !== 'warmth') bias[key] = to[key] - from[key];
  return bias;
}

/** The robust mean of biases as a Style, rounded to what a slider can show. */
function meanStyle(name: string, biases: readonly StyleBias[]): Style {
  const style = neutralStyle(name);
  for (const key of BIAS_KEYS) {
    const digits = key === 'exposure' ? 100 : 10;
    style[key] = Math.round(trimmedMean(biases.map((b) => b[key])) * digits) / digits;
  }
  return style;
}

function assertName(name: unknown, path: string): asserts name is string {
  if (typeof name !== 'string' || name.trim() === '') throw new Error(`Expected a non-empty string for ${path} but received ${typeof name === 'string' ? '""' : String(name)}`);
}

/**
 * A Style from a photographer's own Lightroom settings (each read with fromXmp): per
 * slider, the trimmed mean of the offsets from neutral. Sidecars of JPEGs carry white
 * balance as an increment, so warmth and tint are averaged; those of RAWs carry the
 * absolute temperature, which mixes the scene's light with taste and cannot be separated
 * without each photo's as-shot white, so a RAW-sidecar style leaves warmth and tint at 0.
 */
export function styleFromXmpSettings(settings: DevelopSettings[], options: { isRaw: boolean; name: string }): Style {
  if (!Array.isArray(settings) || settings.length === 0) throw new Error(`Expected a non-empty array of DevelopSettings (one per sidecar) but received ${Array.isArray(settings) ? 'an empty array' : String(settings)}`);
  if (typeof options !== 'object' || options === null || typeof options.isRaw !== 'boolean') throw new Error(`Expected options {isRaw: boolean, name: string} but received ${String(options)}`);
  assertName(options.name, 'options.name');
  const neutral = defaultSettings();
  const biases = settings.map((s, i) => {
    let checked: DevelopSettings;
    try {
      checked = validateSettings(s);
    } catch (err) {
      throw new Error(`settings[${i}]: ${(err as Error).message}`);
    }
    const bias = biasBetween(neutral, checked);
    if (options.isRaw) {
      bias.warmth = 0;
      bias.tint = 0;
    }
    return bias;
  });
  return meanStyle(options.name, biases);
}

export interface ExamplePair {
  original: Image16;
  /** The photographer's edit of the original: same framing (no crop or rotation); any size. */
  edited: Image16;
}

export interface PairDiagnostics {
  /** The automatic estimate of the original (no style). */
  estimate: DevelopSettings;
  /** The settings whose render best reproduces the edit. */
  fitted: DevelopSettings;
  /** fitted − estimate: this pair's vote for the style. */
  bias: StyleBias;
  /** Mean CIEDE2000 to the edit, at the fitting size, of the render of: the estimate, the fitted settings, the estimate with the fitted style. */
  deltaE: { estimate: number; fitted: number; style: number };
  /** Optimiser steps and renders spent on this pair. */
  iterations: number;
  renders: number;
  milliseconds: number;
}

export interface StyleFit {
  style: Style;
  perPair: PairDiagnostics[];
}

function assertPairs(pairs: unknown): asserts pairs is ExamplePair[] {
  if (!Array.isArray(pairs) || pairs.length === 0) throw new Error(`Expected a non-empty array of {original, edited} pairs but received ${Array.isArray(pairs) ? 'an empty array' : String(pairs)}`);
  pairs.forEach((pair: Partial<ExamplePair> | null, i) => {
    if (typeof pair !== 'object' || pair === null) throw new Error(`Expected an object {original, edited} for pairs[${i}] but received ${String(pair)}`);
    assertImage16(pair.original, `pairs[${i}].original`);
    assertImage16(pair.edited, `pairs[${i}].edited`);
    const ratio = pair.original.width / pair.original.height;
    const edited = pair.edited.width / pair.edited.height;
    if (Math.abs(edited / ratio - 1) > ASPECT_TOLERANCE) throw new Error(`Expected pairs[${i}].edited to have the original's aspect ratio ${ratio.toFixed(3)} (same framing, no crop) but it has ${edited.toFixed(3)}`);
  });
}

interface PairFit {
  /** The original at the fitting size, the edit there in CIELAB, and the estimate as rendered there. */
  original: Image16;
  goal: Float32Array;
  start: DevelopSettings;
  diagnostics: PairDiagnostics;
}

async function fitPair(pair: ExamplePair, photographyType: string | undefined): Promise<PairFit> {
  const started = performance.now();
  const size = sizeForLongEdge(pair.original.width, pair.original.height, FIT_EDGE);
  const original = await resizeImage16(pair.original, size.width, size.height);
  const goal = labImage(await resizeImage16(pair.edited, size.width, size.height));
  const plain = estimate(pair.original, photographyType === undefined ? {} : { photographyType });
  // Sharpening and noise reduction act at the pixel scale of the full picture; a
  // downscaled edit shows neither, so the small renders leave them out.
  const start = original === pair.original ? plain : { ...plain, sharpening: 0, noiseReduction: 0 };
  const fit = await fitSettings(original, goal, start);
  const fitted = { ...fit.settings, sharpening: plain.sharpening, noiseReduction: plain.noiseReduction };
  const deltaE = {
    estimate: meanDeltaE00(labImage(await render(original, start)), goal),
    fitted: meanDeltaE00(labImage(await render(original, fit.settings)), goal),
    style: Number.NaN,
  };
  const diagnostics = { estimate: plain, fitted, bias: biasBetween(plain, fitted), deltaE, iterations: fit.iterations, renders: fit.renders, milliseconds: Math.round(performance.now() - started) };
  return { original, goal, start, diagnostics };
}

/**
 * Fits a Style from pairs of original and photographer-edited pictures. For each pair, at
 * FIT_EDGE px: the settings that make render(original) closest to the edit (Levenberg–
 * Marquardt on CIELAB differences, from estimate(original)); the style is the trimmed
 * mean over pairs of fitted − estimate per slider. photographyType, when given, is the
 * one the estimate is made with, so the style adds to that type's own bias.
 */
export async function fitStyleFromExamples(pairs: ExamplePair[], options: { name?: string; photographyType?: string } = {}): Promise<StyleFit> {
  assertPairs(pairs);
  if (typeof options !== 'object' || options === null) throw new Error(`Expected options {name?, photographyType?} but received ${String(options)}`);
  if (options.name !== undefined) assertName(options.name, 'options.name');
  const { photographyType } = options;
  if (photographyType !== undefined && !Object.hasOwn(PHOTOGRAPHY_TYPE_BIAS, photographyType))
    throw new Error(`Expected options.photographyType to be one of ${Object.keys(PHOTOGRAPHY_TYPE_BIAS).join(', ')} but received "${String(photographyType)}"`);

  const fits: PairFit[] = [];
  for (const pair of pairs) fits.push(await fitPair(pair, photographyType));
  const style = meanStyle(
    options.name ?? 'Personal style',
    fits.map((f) => f.diagnostics.bias),
  );
  for (const { original, goal, start, diagnostics } of fits) diagnostics.deltaE.style = meanDeltaE00(labImage(await render(original, applyBias(start, style))), goal);
  return { style, perPair: fits.map((f) => f.diagnostics) };
}
