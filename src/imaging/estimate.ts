/**
 * estimate(image, context) → DevelopSettings: automatic white balance, exposure, tone and
 * colour, biased by a style (a profile) and the photography type, plus the settings that
 * follow directly from the edit options. It works on a linear-light preview of at most
 * 1024 px and predicts the rendered result with the renderer's own tone curve, so what it
 * aims for is what render produces. Geometry and sky detectors live elsewhere; estimate
 * only records what the options ask for.
 */
import { LUMA_B, LUMA_G, LUMA_R } from './colour.js';
import { invalidParameterError } from './args.js';
import { assertRgbImage } from './image16.js';
import type { EditRequest } from './edit-request.js';
import { developMatrix } from './tone/pixel-pass.js';
import { applyBias, clampSettings, defaultSettings, type DevelopSettings, type Style, type StyleBias } from './settings.js';
import { toneCurve } from './tone/curve.js';
import { linearPreview, transformLinear, type LinearImage } from './tone/preview.js';
import { estimateWhite } from './tone/white-balance.js';
import type { PhotoMetadata, RgbImage } from './types.js';

/**
 * An EditRequest's options, any left out off (its photographyType is read from the context);
 * hdrFrames counts the frames merged into the image when hdrMerge is set (2..9).
 */
export type EstimateOptions = Partial<EditRequest> & { hdrFrames?: number };

export interface EstimateContext {
  style?: Style;
  /** The API's photography_type, e.g. REAL_ESTATE; tunes the defaults. */
  photographyType?: string;
  options?: EstimateOptions;
  metadata?: PhotoMetadata;
  /** The image was decoded from a camera RAW (it then gets capture sharpening). */
  isRaw?: boolean;
}

/** Long edge of the analysis preview: 512 px keeps every statistic stable and the estimate cheap. */
const ANALYSIS_EDGE = 512;
/** Amounts set when an option asks for a tool without saying how much. */
export const WINDOW_PULL_DEFAULT = 60;
export const SMOOTH_SKIN_DEFAULT = 40;
export const SUBJECT_EMPHASIS_DEFAULT = 50;
const RAW_SHARPENING = 40;

/** What each photography type adds to the estimate, like a built-in style. */
export const PHOTOGRAPHY_TYPE_BIAS: Readonly<Record<string, Partial<StyleBias>>> = {
  NO_TYPE: {},
  OTHER: {},
  PORTRAITS: { contrast: -5, shadows: 5, clarity: -10, warmth: 3 },
  WEDDING: { exposure: 0.15, contrast: -5, highlights: -10, shadows: 10, warmth: 5 },
  REAL_ESTATE: { exposure: 0.3, highlights: -35, shadows: 30, whites: 10, clarity: 10, vibrance: 5 },
  LANDSCAPE_NATURE: { contrast: 5, highlights: -15, clarity: 10, vibrance: 15 },
  EVENTS: { shadows: 10, clarity: 5 },
  FAMILY_NEWBORN: { contrast: -5, shadows: 5, clarity: -10, warmth: 4 },
  BOUDOIR: { contrast: -5, clarity: -10, warmth: 4 },
  SPORTS: { shadows: 10, clarity: 10 },
  SCHOOL: { shadows: 10 },
};

/**
 * Where the estimate places the rendered image, in linear light: typical values of well
 * exposed photographs. The brightest-channel 99.5th percentile varies least between good
 * photos (most use the range), the geometric-mean luminance (the "key") more, the 1st
 * percentile of luminance (black) wildly, so black only has to stay inside a band.
 */
const TARGET = { high: 0.95, key: 0.11, lowMin: 0.0005, lowMax: 0.015 };
/** Weights of the targets (per squared stop), and the pull of contrast towards 0 (per slider unit²). */
const WEIGHT = { high: 1, key: 0.35, low: 0.3, contrast: 0.00002 };

function assertOptions(options: EstimateOptions): void {
  const crops = [options.crop, options.portraitCrop, options.headshotCrop].filter(Boolean).length;
  if (crops > 1) throw new Error('Expected at most one of options.crop, options.portraitCrop and options.headshotCrop');
  if (options.straighten && options.perspectiveCorrection) throw new Error('Expected at most one of options.straighten and options.perspectiveCorrection');
  if (options.skyReplacement && !Number.isInteger(options.skyTemplateId)) throw invalidParameterError('options.skyTemplateId', 'an integer with options.skyReplacement', options.skyTemplateId);
  if (options.hdrMerge && !(Number.isInteger(options.hdrFrames) && options.hdrFrames! >= 2 && options.hdrFrames! <= 9)) throw invalidParameterError('options.hdrFrames', 'an integer between 2 and 9 with options.hdrMerge', options.hdrFrames);
  if (options.cropAspectRatio != null && !['2X3', '4X5', '5X7'].includes(options.cropAspectRatio)) throw invalidParameterError('options.cropAspectRatio', 'one of 2X3, 4X5, 5X7', options.cropAspectRatio);
}

/** Value below which the given fraction of the samples lies (samples are sorted in place). */
function percentile(sorted: Float32Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))]!;
}

interface ToneStats {
  high: number;
  key: number;
  low: number;
  /** Sorted brightest-channel values, to count what would clip. */
  peaks: Float32Array;
  /** Sorted luminances. */
  lumas: Float32Array;
  /** Mean saturation (max − min) / max of the encoded image. */
  saturation: number;
}

function toneStats(preview: LinearImage): ToneStats {
  const d = preview.data;
  const n = d.length / 3;
  const lumas = new Float32Array(n);
  const peaks = new Float32Array(n);
  let logSum = 0;
  let sat = 0;
  for (let p = 0; p < n; p++) {
    const r = Math.max(0, d[p * 3]!);
    const g = Math.max(0, d[p * 3 + 1]!);
    const b = Math.max(0, d[p * 3 + 2]!);
    const y = LUMA_R * r + LUMA_G * g + LUMA_B * b;
    const mx = Math.max(r, g, b);
    lumas[p] = y;
    peaks[p] = mx;
    logSum += Math.log2(y + 1e-4);
    // sqrt stands in for the display encoding: saturation as the eye sees it.
    if (mx > 0.005) sat += (Math.sqrt(mx) - Math.sqrt(Math.min(r, g, b))) / Math.sqrt(mx);
  }
  lumas.sort();
  peaks.sort();
  return { high: percentile(peaks, 0.995), key: 2 ** (logSum / n), low: percentile(lumas, 0.01), peaks, lumas, saturation: sat / n };
}

/** Exposure and contrast that best place the percentiles on their targets, by grid search over the renderer's curve. */
function fitExposureContrast(stats: ToneStats): { exposure: number; contrast: number } {
  const lh = Math.log2(TARGET.high);
  const lk = Math.log2(TARGET.key);
  let best = { exposure: 0, contrast: 0, cost: Infinity };
  for (let contrast = -40; contrast <= 100; contrast += 4) {
    const sliders = { contrast, whites: 0, blacks: 0 };
    for (let exposure = -3; exposure <= 4; exposure += 0.05) {
      const gain = 2 ** exposure;
      const h = Math.log2(toneCurve(stats.high * gain, sliders) + 1e-6) - lh;
      const k = Math.log2(toneCurve(stats.key * gain, sliders) + 1e-6) - lk;
      const low = toneCurve(stats.low * gain, sliders);
      const l = low > TARGET.lowMax ? Math.log2(low / TARGET.lowMax) : low < TARGET.lowMin ? Math.log2((low + 1e-6) / TARGET.lowMin) : 0;
      // Overshooting white clips; undershooting only leaves range unused: weigh them apart.
      const cost = WEIGHT.high * h * h * (h > 0 ? 4 : 1) + WEIGHT.key * k * k + WEIGHT.low * l * l + WEIGHT.contrast * contrast * contrast;
      if (cost < best.cost) best = { exposure, contrast, cost };
    }
  }
  return { exposure: Math.round(best.exposure * 100) / 100, contrast: best.contrast };
}

/** Fraction of sorted samples above a value. */
function fractionAbove(sorted: Float32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! > value) hi = mid;
    else lo = mid + 1;
  }
  return (sorted.length - lo) / sorted.length;
}

/**
 * Luminance noise of the full image in 8-bit units: the median absolute second difference
 * along rows, on a sparse sample of rows, scaled to a Gaussian sigma. Texture raises it a
 * little; flat regions dominate the median.
 */
function noiseSigma(image: RgbImage): number {
  const { width, height, data } = image;
  const unit = data instanceof Uint8Array ? 1 : 257;
  const rows = Math.min(height, 64);
  const perRow = Math.max(0, Math.floor((width - 2) / 2));
  const diffs = new Float32Array(rows * perRow);
  let n = 0;
  for (let k = 0; k < rows; k++) {
    const y = Math.floor(((k + 0.5) * height) / rows);
    for (let x = 1; x + 1 < width; x += 2) {
      const i = (y * width + x) * 3 + 1;
      diffs[n++] = Math.abs(2 * data[i]! - data[i - 3]! - data[i + 3]!);
    }
  }
  if (n === 0) return 0;
  const sorted = diffs.subarray(0, n).sort();
  // For white noise, the second difference has sigma·sqrt(6); median |N(0,1)| ≈ 0.6745.
  return sorted[n >> 1]! / 0.6745 / Math.sqrt(6) / unit;
}

/** Noise reduction for a noise level (8-bit sigma) and ISO when known. */
function noiseReductionFor(sigma: number, iso: number | null): number {
  const byIso = iso ? (Math.log2(iso / 100) - 2) * 12 : 0;
  const byMeasure = (sigma - 1.2) * 15;
  return Math.round(Math.min(60, Math.max(0, byIso, byMeasure)));
}

export function estimate(image: RgbImage, context: EstimateContext = {}): DevelopSettings {
  assertRgbImage(image);
  const options = context.options ?? {};
  assertOptions(options);
  const typeBias = context.photographyType === undefined ? {} : PHOTOGRAPHY_TYPE_BIAS[context.photographyType];
  if (typeBias === undefined) throw invalidParameterError('photographyType', `one of ${Object.keys(PHOTOGRAPHY_TYPE_BIAS).join(', ')}`, context.photographyType);

  const settings = defaultSettings();
  const preview = linearPreview(image, ANALYSIS_EDGE);
  const white = estimateWhite(preview);
  settings.temperature = white.temperature;
  settings.tint = white.tint;
  transformLinear(preview, developMatrix({ ...settings, exposure: 0 }));

  const stats = toneStats(preview);
  const { exposure, contrast } = fitExposureContrast(stats);
  settings.exposure = exposure;
  settings.contrast = contrast;
  const gain = 2 ** exposure;
  const sliders = { contrast, whites: 0, blacks: 0 };
  // Highlights: recover what the exposure pushes past white that was not clipped already.
  const newlyClipped = fractionAbove(stats.peaks, 1 / gain) - fractionAbove(stats.peaks, 0.97);
  if (newlyClipped > 0.002) settings.highlights = -Math.min(60, Math.round(newlyClipped * 1500));
  // Shadows: lift when a large part of the picture would still render very dark.
  const darkShare = 1 - fractionAbove(stats.lumas, 0.012 / gain);
  if (darkShare > 0.2) settings.shadows = Math.min(50, Math.round((darkShare - 0.2) * 120));
  settings.vibrance = Math.round(Math.min(20, Math.max(0, (0.3 - stats.saturation) * 80)));
  const rendered = toneCurve(stats.low * gain, sliders);
  if (rendered > 0.02) settings.blacks = -Math.min(40, Math.round((rendered - 0.02) * 800));

  const sigma = noiseSigma(image);
  settings.noiseReduction = noiseReductionFor(sigma, context.metadata?.iso ?? null);
  // Raw converters sharpen what the camera did not (Lightroom's RAW default is 40); a JPEG
  // comes sharpened by the camera. Noisy images are not sharpened: it would sharpen the noise.
  settings.sharpening = context.isRaw && settings.noiseReduction <= 20 ? RAW_SHARPENING : 0;

  applyOptions(settings, options);
  let out = applyBias(settings, typeBias);
  if (context.style) out = applyBias(out, context.style);
  return clampSettings(out);
}

function applyOptions(settings: DevelopSettings, options: EstimateOptions): void {
  if (options.skyReplacement) settings.sky = { templateId: options.skyTemplateId!, strength: 1 };
  if (options.hdrMerge) settings.hdr = { frames: options.hdrFrames! };
  if (options.windowPull) settings.windowPull = WINDOW_PULL_DEFAULT;
  if (options.smoothSkin) settings.smoothSkin = SMOOTH_SKIN_DEFAULT;
  if (options.subjectMask) settings.subjectEmphasis = SUBJECT_EMPHASIS_DEFAULT;
}
