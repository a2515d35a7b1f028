import { assertBox, invalidParameterError } from '../args.js';
import { assertImage16, assertImageSize } from '../image16.js';
import { clamp } from '../math.js';
import type { Box, CropRect, Image16 } from '../types.js';
import { saliencyMap, type SaliencyMap } from './saliency.js';

/** The API's crop_aspect_ratio values: short side X long side. */
export type CropAspect = '2X3' | '4X5' | '5X7';

const LONG_OVER_SHORT: Record<CropAspect, number> = { '2X3': 3 / 2, '4X5': 5 / 4, '5X7': 7 / 5 };
const FULL: CropRect = { left: 0, top: 0, right: 1, bottom: 1 };

export interface AutoCropOptions {
  /** With mode 'aspect', required; with 'composition', optional (default: the photo's own ratio). */
  aspect?: CropAspect | null;
  mode: 'composition' | 'aspect';
}

export interface PortraitCropOptions {
  /** 'portrait': head and shoulders with headroom; 'headshot': the head, tight. */
  mode: 'portrait' | 'headshot';
  /** Default 4X5. Taller than wide, unless the faces form a wide group. */
  aspect?: CropAspect | null;
  /** The photo, for the composition crop used when there are no faces. */
  image?: Image16;
}

/** Linear sizes tried by the composition crop, as fractions of the largest window: conservative, never under 80 %. */
const COMPOSITION_SCALES = [1, 0.95, 0.9, 0.85, 0.8];
const POSITIONS = 21;
/** Windows holding within this fraction of the best's saliency are ties, settled towards the centre. */
const TIE = 0.02;
/** Weights of the composition score: subject on a thirds point, and saliency per area (empty borders trimmed). */
const THIRDS_WEIGHT = 0.15;
const DENSITY_WEIGHT = 0.25;
/** A composition crop must beat the uncropped frame by this much to be used. */
const MIN_GAIN = 0.02;

/**
 * An automatic crop of an image, as fractions of its frame (pass the geometry-corrected
 * image, so the fractions are those GeometrySettings.crop means).
 * - 'aspect': the largest window of the ratio (2:3, 4:5 or 5:7, turned to the photo's
 *   orientation), slid along the free axis to hold the most saliency; centred on ties.
 * - 'composition': windows of 80–100 % of the largest one (of the given ratio, else the
 *   photo's), scored by saliency kept, saliency per area (trimming empty borders) and the
 *   subject's distance from a rule-of-thirds point; the whole frame (or the largest
 *   window) unless a crop clearly wins.
 */
export function autoCrop(image: Image16, options: AutoCropOptions): CropRect {
  assertImage16(image);
  if (typeof options !== 'object' || options === null) throw invalidParameterError('options', 'an object with mode', options);
  if (options.mode !== 'composition' && options.mode !== 'aspect') throw invalidParameterError('options.mode', "'composition' or 'aspect'", options.mode);
  checkAspect(options.aspect);
  if (options.mode === 'aspect' && options.aspect == null) throw invalidParameterError('options.aspect', "'2X3', '4X5' or '5X7' with mode 'aspect'", options.aspect);
  const ratio = options.aspect ? orientedRatio(options.aspect, image.width >= image.height) : image.width / image.height;
  const field = new SaliencyField(saliencyMap(image));
  return options.mode === 'aspect' ? bestWindow(field, image.width / image.height, ratio) : compositionCrop(field, image.width / image.height, ratio);
}

/**
 * A face-aware crop, as fractions of a frame of the given size. Faces (boxes in pixels of
 * that frame) much smaller than the largest are background and ignored; the rest frame the
 * crop. 'portrait': a window about four face heights tall with the eye line on the upper
 * third; 'headshot': about 2.2 face heights with the eyes a little higher. Shrunk and slid
 * to fit the frame, never cutting the faces. No faces: the composition crop of
 * options.image if given, else the largest centred window of the aspect.
 */
export function portraitCrop(size: { width: number; height: number }, faces: Box[], options: PortraitCropOptions): CropRect {
  assertImageSize(size, 'size');
  if (!Array.isArray(faces)) throw invalidParameterError('faces', 'an array of boxes', faces);
  for (const [i, f] of faces.entries()) assertBox(f, `faces[${i}]`);
  if (typeof options !== 'object' || options === null) throw invalidParameterError('options', 'an object with mode', options);
  if (options.mode !== 'portrait' && options.mode !== 'headshot') throw invalidParameterError('options.mode', "'portrait' or 'headshot'", options.mode);
  checkAspect(options.aspect);
  if (options.image !== undefined) assertImage16(options.image, 'options.image');
  const aspect = options.aspect ?? '4X5';
  const { width: W, height: H } = size;

  const inside = faces.map((f) => clipBox(f, W, H)).filter((f): f is Box => f !== null);
  if (inside.length === 0) {
    if (options.image) return autoCrop(options.image, { mode: 'composition', aspect });
    const ratio = orientedRatio(aspect, W >= H);
    return centredWindow(W / H, ratio);
  }
  const largest = Math.max(...inside.map((f) => f.height));
  const group = inside.filter((f) => f.height >= 0.5 * largest);
  const left = Math.min(...group.map((f) => f.x));
  const right = Math.max(...group.map((f) => f.x + f.width));
  const top = Math.min(...group.map((f) => f.y));
  const bottom = Math.max(...group.map((f) => f.y + f.height));
  const faceHeight = median(group.map((f) => f.height));
  const ratio = orientedRatio(aspect, right - left > 1.5 * (bottom - top));

  // Face boxes run from brow to chin: the eyes sit ~40 % down, the crown ~25 % above.
  const eyes = group.reduce((s, f) => s + f.y + 0.4 * f.height, 0) / group.length;
  const { heights, eyeLine } = options.mode === 'portrait' ? { heights: 4, eyeLine: 1 / 3 } : { heights: 2.2, eyeLine: 0.38 };
  let cropH = Math.max(heights * faceHeight, bottom - top + 2 * faceHeight);
  let cropW = Math.max(cropH * ratio, right - left + faceHeight);
  cropH = cropW / ratio;
  // Shrink to fit the frame, keeping the ratio, but never below what holds the faces.
  const fit = Math.min(1, W / cropW, H / cropH);
  cropW *= fit;
  cropH *= fit;
  const cx = (left + right) / 2;
  let x = clamp(cx - cropW / 2, 0, W - cropW);
  let y = clamp(eyes - eyeLine * cropH, 0, H - cropH);
  // Keep every face whole even when the thirds placement would cut one.
  x = clamp(x, right - cropW, left);
  y = clamp(y, bottom - cropH, top);
  x = clamp(x, 0, W - cropW);
  y = clamp(y, 0, H - cropH);
  return { left: x / W, top: y / H, right: (x + cropW) / W, bottom: (y + cropH) / H };
}

function checkAspect(aspect: CropAspect | null | undefined): void {
  if (aspect != null && !Object.hasOwn(LONG_OVER_SHORT, aspect)) throw invalidParameterError('options.aspect', "'2X3', '4X5', '5X7' or null", aspect);
}

/** Width over height of an aspect in the photo's orientation. */
function orientedRatio(aspect: CropAspect, landscape: boolean): number {
  const r = LONG_OVER_SHORT[aspect];
  return landscape ? r : 1 / r;
}

/** The largest window of a ratio (width/height, in pixels) in a frame of aspect frameRatio, as fractions. */
function windowSize(frameRatio: number, ratio: number): { w: number; h: number } {
  return ratio < frameRatio ? { w: ratio / frameRatio, h: 1 } : { w: 1, h: frameRatio / ratio };
}

function centredWindow(frameRatio: number, ratio: number): CropRect {
  const { w, h } = windowSize(frameRatio, ratio);
  return { left: (1 - w) / 2, top: (1 - h) / 2, right: (1 + w) / 2, bottom: (1 + h) / 2 };
}

/** The largest window of the ratio, placed where it holds the most saliency (the most central of near-ties, within TIE). */
function bestWindow(field: SaliencyField, frameRatio: number, ratio: number): CropRect {
  const { w, h } = windowSize(frameRatio, ratio);
  if (w >= 1 && h >= 1) return FULL;
  let best = { mass: -1, x: 0, y: 0 };
  const candidates: { mass: number; x: number; y: number }[] = [];
  const steps = 200;
  for (let k = 0; k <= steps; k++) {
    const x = ((1 - w) * k) / steps;
    const y = ((1 - h) * k) / steps;
    const c = { mass: field.mass(x, y, w, h), x, y };
    candidates.push(c);
    if (c.mass > best.mass) best = c;
  }
  const off = (c: { x: number; y: number }) => Math.abs(c.x - (1 - w) / 2) + Math.abs(c.y - (1 - h) / 2);
  for (const c of candidates) if (c.mass >= best.mass * (1 - TIE) && off(c) < off(best)) best = c;
  return { left: best.x, top: best.y, right: best.x + w, bottom: best.y + h };
}

function compositionCrop(field: SaliencyField, frameRatio: number, ratio: number): CropRect {
  const base = bestWindow(field, frameRatio, ratio);
  const score = (x: number, y: number, w: number, h: number) => {
    const kept = field.mass(x, y, w, h);
    const [sx, sy] = field.subject(x, y, w, h);
    const u = (sx - x) / w;
    const v = (sy - y) / h;
    const d2 = Math.min(...[1 / 3, 2 / 3].flatMap((px) => [1 / 3, 2 / 3].map((py) => (u - px) ** 2 + (v - py) ** 2)));
    return kept + THIRDS_WEIGHT * Math.exp(-d2 / (2 * 0.1 ** 2)) + DENSITY_WEIGHT * Math.log(Math.max(kept, 1e-9) / (w * h));
  };
  const w0 = base.right - base.left;
  const h0 = base.bottom - base.top;
  const reference = score(base.left, base.top, w0, h0);
  let best = { value: reference + MIN_GAIN, crop: base };
  for (const s of COMPOSITION_SCALES) {
    const w = w0 * s;
    const h = h0 * s;
    for (let i = 0; i < POSITIONS; i++) {
      for (let j = 0; j < POSITIONS; j++) {
        const x = ((1 - w) * i) / (POSITIONS - 1);
        const y = ((1 - h) * j) / (POSITIONS - 1);
        const value = score(x, y, w, h);
        if (value > best.value) best = { value, crop: { left: x, top: y, right: x + w, bottom: y + h } };
      }
    }
  }
  return best.crop;
}

/** Sums of saliency over windows in O(1), from summed-area tables of the map and its subject-weighted moments. */
class SaliencyField {
  private readonly w: number;
  private readonly h: number;
  private readonly sum: Float64Array;
  private readonly peak: Float64Array;
  private readonly peakX: Float64Array;
  private readonly peakY: Float64Array;

  constructor(map: SaliencyMap) {
    this.w = map.width;
    this.h = map.height;
    const stride = this.w + 1;
    const size = stride * (this.h + 1);
    this.sum = new Float64Array(size);
    this.peak = new Float64Array(size);
    this.peakX = new Float64Array(size);
    this.peakY = new Float64Array(size);
    for (let y = 0; y < this.h; y++) {
      for (let x = 0; x < this.w; x++) {
        const s = map.data[y * this.w + x]!;
        // The subject is where saliency peaks: squared, the diffuse background fades out of its centroid.
        const p = s * s;
        const i = (y + 1) * stride + x + 1;
        const up = i - stride;
        this.sum[i] = s + this.sum[i - 1]! + this.sum[up]! - this.sum[up - 1]!;
        this.peak[i] = p + this.peak[i - 1]! + this.peak[up]! - this.peak[up - 1]!;
        this.peakX[i] = (p * (x + 0.5)) / this.w + this.peakX[i - 1]! + this.peakX[up]! - this.peakX[up - 1]!;
        this.peakY[i] = (p * (y + 0.5)) / this.h + this.peakY[i - 1]! + this.peakY[up]! - this.peakY[up - 1]!;
      }
    }
  }

  /** Fraction of all saliency inside the window (fractions of the frame). */
  mass(x: number, y: number, w: number, h: number): number {
    return this.window(this.sum, x, y, w, h);
  }

  /** The subject's centre inside the window, in fractions of the frame. */
  subject(x: number, y: number, w: number, h: number): [number, number] {
    const p = this.window(this.peak, x, y, w, h);
    if (p <= 0) return [x + w / 2, y + h / 2];
    return [this.window(this.peakX, x, y, w, h) / p, this.window(this.peakY, x, y, w, h) / p];
  }

  private window(table: Float64Array, x: number, y: number, w: number, h: number): number {
    const x0 = Math.round(x * this.w);
    const y0 = Math.round(y * this.h);
    const x1 = Math.max(x0, Math.round((x + w) * this.w));
    const y1 = Math.max(y0, Math.round((y + h) * this.h));
    const s = this.w + 1;
    return table[y1 * s + x1]! - table[y0 * s + x1]! - table[y1 * s + x0]! + table[y0 * s + x0]!;
  }
}

function clipBox(b: Box, W: number, H: number): Box | null {
  const x0 = clamp(b.x, 0, W);
  const y0 = clamp(b.y, 0, H);
  const x1 = clamp(b.x + b.width, 0, W);
  const y1 = clamp(b.y + b.height, 0, H);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
