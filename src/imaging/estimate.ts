/**
 * estimate(image, context) → DevelopSettings: automatic white balance, exposure, tone and
 * colour, biased by a style (a profile) and the photography type, plus the settings that
 * follow directly from the edit options. White balance, exposure, contrast, blacks and
 * saturation come from the learned model (autoedit/, trained by `npm run train`) on a
 * linear-light preview of at most 256 px; highlights and shadows follow from where that
 * exposure puts the preview's levels. Geometry and sky detectors live elsewhere; estimate
 * only records what the options ask for.
 */
import { LUMA_B, LUMA_G, LUMA_R } from './colour.js';
import { invalidParameterError } from './args.js';
import { assertRgbImage } from './image16.js';
import type { EditRequest } from './edit-request.js';
import { developMatrix } from './tone/pixel-pass.js';
import { applyBias, clampSettings, defaultSettings, type DevelopSettings, type Style, type StyleBias } from './settings.js';
import { transformLinear, type LinearImage } from './tone/preview.js';
import { featurePreview } from './autoedit/features.js';
import { learnedEdit } from './autoedit/edit.js';
import type { Confidence } from './autoedit/guards.js';
import type { AutoEditWeights } from './autoedit/model.js';
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
  /** featurePreview(image) when already made (the imaging threads make it in bands); it is changed. */
  preview?: LinearImage;
}

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

function assertOptions(options: EstimateOptions): void {
  const crops = [options.crop, options.portraitCrop, options.headshotCrop].filter(Boolean).length;
  if (crops > 1) throw new Error('Expected at most one of options.crop, options.portraitCrop and options.headshotCrop');
  if (options.straighten && options.perspectiveCorrection) throw new Error('Expected at most one of options.straighten and options.perspectiveCorrection');
  if (options.skyReplacement && !Number.isInteger(options.skyTemplateId)) throw invalidParameterError('options.skyTemplateId', 'an integer with options.skyReplacement', options.skyTemplateId);
  if (options.hdrMerge && !(Number.isInteger(options.hdrFrames) && options.hdrFrames! >= 2 && options.hdrFrames! <= 9)) throw invalidParameterError('options.hdrFrames', 'an integer between 2 and 9 with options.hdrMerge', options.hdrFrames);
  if (options.cropAspectRatio != null && !['2X3', '4X5', '5X7'].includes(options.cropAspectRatio)) throw invalidParameterError('options.cropAspectRatio', 'one of 2X3, 4X5, 5X7', options.cropAspectRatio);
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
  // The differences are whole numbers up to twice the largest sample: their median is read from a histogram, not a sort.
  const counts = new Uint32Array(2 * 255 * unit + 1);
  let n = 0;
  for (let k = 0; k < rows; k++) {
    const y = Math.floor(((k + 0.5) * height) / rows);
    for (let x = 1; x + 1 < width; x += 2) {
      const i = (y * width + x) * 3 + 1;
      counts[Math.abs(2 * data[i]! - data[i - 3]! - data[i + 3]!)]!++;
      n++;
    }
  }
  if (n === 0) return 0;
  // The (n >> 1)-th smallest difference, counting from 0.
  let median = 0;
  for (let seen = counts[0]!; seen <= n >> 1; seen += counts[++median]!);
  // For white noise, the second difference has sigma·sqrt(6); median |N(0,1)| ≈ 0.6745.
  return median / 0.6745 / Math.sqrt(6) / unit;
}

/** Noise reduction for a noise level (8-bit sigma) and ISO when known. */
function noiseReductionFor(sigma: number, iso: number | null): number {
  const byIso = iso ? (Math.log2(iso / 100) - 2) * 12 : 0;
  const byMeasure = (sigma - 1.2) * 15;
  return Math.round(Math.min(60, Math.max(0, byIso, byMeasure)));
}

/** An estimate and how sure of it the learned model is (autoedit/guards.ts). */
export interface DetailedEstimate {
  settings: DevelopSettings;
  confidence: Confidence;
}

export function estimate(image: RgbImage, context: EstimateContext = {}): DevelopSettings {
  return estimateDetailed(image, context).settings;
}

/** weights: another model than the committed one (cross-validation in training). */
export function estimateDetailed(image: RgbImage, context: EstimateContext = {}, weights?: AutoEditWeights): DetailedEstimate {
  assertRgbImage(image);
  const options = context.options ?? {};
  assertOptions(options);
  const typeBias = context.photographyType === undefined ? {} : PHOTOGRAPHY_TYPE_BIAS[context.photographyType];
  if (typeBias === undefined) throw invalidParameterError('photographyType', `one of ${Object.keys(PHOTOGRAPHY_TYPE_BIAS).join(', ')}`, context.photographyType);

  const settings = defaultSettings();
  const preview = context.preview ?? featurePreview(image);
  const learned = learnedEdit(preview, { isRaw: context.isRaw ?? false, ...(weights ? { weights } : {}) });
  settings.temperature = learned.temperature;
  settings.tint = learned.tint;
  settings.exposure = Math.round(learned.exposure * 100) / 100;
  settings.contrast = Math.round(learned.contrast);
  settings.blacks = Math.round(learned.blacks);
  settings.saturation = Math.round(learned.saturation);
  transformLinear(preview, developMatrix(settings));
  const gain = 2 ** settings.exposure;
  const levels = previewLevels(preview, 0.97 * gain);
  // Highlights: recover what the exposure pushes past white that was not clipped already.
  const newlyClipped = levels.clipped - levels.clippedBefore;
  if (newlyClipped > 0.002) settings.highlights = -Math.min(60, Math.round(newlyClipped * 1500));
  // Shadows: lift when a large part of the picture would still render very dark.
  const darkShare = levels.dark;
  if (darkShare > 0.2) settings.shadows = Math.min(50, Math.round((darkShare - 0.2) * 120));

  const sigma = noiseSigma(image);
  settings.noiseReduction = noiseReductionFor(sigma, context.metadata?.iso ?? null);
  // Raw converters sharpen what the camera did not (Lightroom's RAW default is 40); a JPEG
  // comes sharpened by the camera. Noisy images are not sharpened: it would sharpen the noise.
  settings.sharpening = context.isRaw && settings.noiseReduction <= 20 ? RAW_SHARPENING : 0;

  applyOptions(settings, options);
  let out = applyBias(settings, typeBias);
  if (context.style) out = applyBias(out, context.style);
  return { settings: clampSettings(out), confidence: learned.confidence };
}

/**
 * Shares of a linear preview (exposed as rendered) whose brightest channel passes 0.97
 * (clips), passed `before` (was clipped before the exposure), and whose luminance stays
 * under 0.012 (renders very dark).
 */
function previewLevels(preview: LinearImage, before: number): { clipped: number; clippedBefore: number; dark: number } {
  const d = preview.data;
  const n = d.length / 3;
  let clipped = 0;
  let clippedBefore = 0;
  let dark = 0;
  for (let i = 0; i < d.length; i += 3) {
    const r = Math.max(0, d[i]!);
    const g = Math.max(0, d[i + 1]!);
    const b = Math.max(0, d[i + 2]!);
    const peak = Math.max(r, g, b);
    if (peak > 0.97) clipped++;
    if (peak > before) clippedBefore++;
    if (LUMA_R * r + LUMA_G * g + LUMA_B * b < 0.012) dark++;
  }
  return { clipped: clipped / n, clippedBefore: clippedBefore / n, dark: dark / n };
}

function applyOptions(settings: DevelopSettings, options: EstimateOptions): void {
  if (options.skyReplacement) settings.sky = { templateId: options.skyTemplateId!, strength: 1 };
  if (options.hdrMerge) settings.hdr = { frames: options.hdrFrames! };
  if (options.windowPull) settings.windowPull = WINDOW_PULL_DEFAULT;
  if (options.smoothSkin) settings.smoothSkin = SMOOTH_SKIN_DEFAULT;
  if (options.subjectMask) settings.subjectEmphasis = SUBJECT_EMPHASIS_DEFAULT;
}
