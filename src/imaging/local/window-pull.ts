import { ANALYSIS_EDGE, analysisCopy, type AnalysisCopy } from '../analysis-copy.js';
import { assertNumberInRange, invalidParameterError } from '../args.js';
import { encodedToLinearAll, linearToSrgb16, luminance as luma, srgb16ToLinearLut } from '../colour.js';
import { boxMean } from '../filters/box.js';
import { type GuidedCoefficients, guidedFilterCoefficients } from '../filters/guided.js';
import { applyGuidedCoefficients, guidedRegion } from '../filters/guided-apply.js';
import { assertImage16 } from '../image16.js';
import { smoothstep } from '../math.js';
import type { Box, Image16 } from '../types.js';
import { shoulder } from './highlights.js';
import { labelComponents } from './regions.js';
import { shareableCopy } from '../bands.js';

/** Where the blown-out windows are: a soft mask at the image's size and a box per window. */
export interface WindowMaskResult {
  /** 0..1 per pixel, row-major, width × height. */
  mask: Float32Array;
  width: number;
  height: number;
  windows: Box[];
}

/** Encoded levels counted as blown: any channel this close to white, or luma this high. */
const CLIPPED_CHANNEL = 0.95;
const CLIPPED_LUMA = 0.9;
/** A window is the bright region (encoded luma from here up) around blown pixels, which must be at least MIN_BLOWN of it. */
const BRIGHT_LUMA = 0.75;
const MIN_BLOWN = 0.2;
/** A window's share of the frame, its fill of its bounding box (rectangular-ish), and how much darker its surroundings are (encoded luma). */
const MIN_AREA = 0.001;
const MAX_AREA = 0.5;
const MIN_FILL = 0.5;
const MIN_RING_DROP = 0.15;
/** A bright region along the top edge wider than this share of the frame is an outdoor sky, not a window. */
const MAX_TOP_EDGE_WIDTH = 0.4;

/** Bounded, rectangular-ish bright regions of the analysis copy with blown cores: 1 inside, per pixel, and their boxes there. */
function blownWindows(copy: AnalysisCopy): { inside: Uint8Array; boxes: Box[] } {
  const { width, height, rgb } = copy;
  const n = width * height;
  const lumas = new Float32Array(n);
  const bright = new Float32Array(n);
  const blown = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = rgb[i * 3]!,
      g = rgb[i * 3 + 1]!,
      b = rgb[i * 3 + 2]!;
    lumas[i] = luma(r, g, b);
    blown[i] = Math.max(r, g, b) >= CLIPPED_CHANNEL || lumas[i]! >= CLIPPED_LUMA ? 1 : 0;
    bright[i] = lumas[i]! >= BRIGHT_LUMA || blown[i] ? 1 : 0;
  }
  // Closing (dilate, then erode) joins panes across thin glazing bars.
  const dilated = boxMean(bright, width, height, 2);
  for (let i = 0; i < n; i++) dilated[i] = dilated[i]! > 0 ? 1 : 0;
  const eroded = boxMean(dilated, width, height, 2);
  const closed = new Uint8Array(n);
  for (let i = 0; i < n; i++) closed[i] = eroded[i]! > 0.999 ? 1 : 0;
  const { labels, count } = labelComponents(closed, width);
  const area = new Int32Array(count);
  const blownArea = new Int32Array(count);
  const sum = new Float64Array(count);
  const minX = new Int32Array(count).fill(width),
    maxX = new Int32Array(count).fill(-1);
  const minY = new Int32Array(count).fill(height),
    maxY = new Int32Array(count).fill(-1);
  for (let i = 0; i < n; i++) {
    const k = labels[i]!;
    if (k < 0) continue;
    const x = i % width,
      y = Math.floor(i / width);
    area[k]!++;
    blownArea[k]! += blown[i]!;
    sum[k]! += lumas[i]!;
    if (x < minX[k]!) minX[k] = x;
    if (x > maxX[k]!) maxX[k] = x;
    if (y < minY[k]!) minY[k] = y;
    if (y > maxY[k]!) maxY[k] = y;
  }
  const accepted = new Uint8Array(count);
  const boxes: Box[] = [];
  for (let k = 0; k < count; k++) {
    const w = maxX[k]! - minX[k]! + 1,
      h = maxY[k]! - minY[k]! + 1;
    if (area[k]! < MIN_AREA * n || area[k]! > MAX_AREA * n || area[k]! < MIN_FILL * w * h || blownArea[k]! < MIN_BLOWN * area[k]!) continue;
    if (minY[k] === 0 && w > MAX_TOP_EDGE_WIDTH * width) continue;
    // The ring: what lies around the region within a quarter of its size, inside the frame.
    const margin = Math.max(2, Math.round(0.25 * Math.min(w, h)));
    let ring = 0,
      ringCount = 0;
    for (let y = Math.max(0, minY[k]! - margin); y <= Math.min(height - 1, maxY[k]! + margin); y++) {
      for (let x = Math.max(0, minX[k]! - margin); x <= Math.min(width - 1, maxX[k]! + margin); x++) {
        if (labels[y * width + x] === k) continue;
        ring += lumas[y * width + x]!;
        ringCount++;
      }
    }
    if (ringCount === 0 || ring / ringCount > sum[k]! / area[k]! - MIN_RING_DROP) continue;
    accepted[k] = 1;
    boxes.push({ x: minX[k]!, y: minY[k]!, width: w, height: h });
  }
  const inside = new Uint8Array(n);
  for (let i = 0; i < n; i++) inside[i] = labels[i]! >= 0 && accepted[labels[i]!] ? 1 : 0;
  return { inside, boxes };
}

/**
 * The bounds of all windows with a margin (an eighth of the frame's short side) beyond
 * which their soft mask has fallen to 0: the only part full-size work needs to touch.
 */
function around(windows: Box[], width: number, height: number): Box {
  const margin = Math.ceil(Math.min(width, height) / 8);
  const x = Math.max(0, Math.min(...windows.map((w) => w.x)) - margin);
  const y = Math.max(0, Math.min(...windows.map((w) => w.y)) - margin);
  const right = Math.min(width, Math.max(...windows.map((w) => w.x + w.width)) + margin);
  const bottom = Math.min(height, Math.max(...windows.map((w) => w.y + w.height)) + margin);
  return { x, y, width: right - x, height: bottom - y };
}

/**
 * What the windows of an image are, found on its analysis copy: their boxes at full size, the
 * guided filter that makes their mask, the part of the frame it covers, their 0/1 map at
 * analysis size (p), and the guided filter of the base layer single-frame recovery lowers.
 */
export interface FoundWindows {
  windows: Box[];
  coefficients: GuidedCoefficients | null;
  /** The windows' bounds with their mask's margin (around): the mask is 0 beyond. */
  region: Box;
  p: Float32Array;
  /** Null when not asked for, or when no window was found. */
  base: GuidedCoefficients | null;
}

/** At most this many windows: each covers MIN_AREA of the frame at least. */
export const MAX_WINDOWS = Math.floor(1 / MIN_AREA);

/**
 * The windows of a width × height image from its analysis copy; with `base`, also the base
 * layer compressWindowHighlights lowers (what recovery without a dark frame needs).
 */
export function findWindows(copy: AnalysisCopy, width: number, height: number, base: boolean): FoundWindows {
  const { inside, boxes } = blownWindows(copy);
  // One pixel of dilation takes in the glow around the frame before the guided filter snaps the edge to the full-size image.
  const p = boxMean(new Float32Array(inside), copy.width, copy.height, 1);
  for (let i = 0; i < p.length; i++) p[i] = p[i]! > 0 ? 1 : 0;
  if (boxes.length === 0) return { windows: [], coefficients: null, region: { x: 0, y: 0, width: 0, height: 0 }, p, base: null };
  const coefficients = guidedFilterCoefficients(copy.rgb, p, copy.width, copy.height, 3, 1e-3);
  const sx = width / copy.width,
    sy = height / copy.height;
  const windows = boxes.map((b) => {
    const x = Math.floor(b.x * sx),
      y = Math.floor(b.y * sy);
    return { x, y, width: Math.min(width, Math.ceil((b.x + b.width) * sx)) - x, height: Math.min(height, Math.ceil((b.y + b.height) * sy)) - y };
  });
  const baseLayer = base ? baseLayerOf(copy) : null;
  return { windows, coefficients, region: around(windows, width, height), p, base: baseLayer };
}

/** Finds blown-out windows: near-clipped, bright regions, rectangular-ish and darker around. */
export async function windowMask(image: Image16): Promise<WindowMaskResult> {
  assertImage16(image, 'image');
  const { width, height } = image;
  const { windows, coefficients, region } = findWindows(await analysisCopy(image, ANALYSIS_EDGE), width, height, false);
  const mask = coefficients ? await applyGuidedCoefficients(coefficients, image, region) : new Float32Array(width * height);
  return { mask, width, height, windows };
}

/** The guided filter of the copy's linear luminance by its colour: the edge-preserving base layer of compressWindowHighlights. */
function baseLayerOf(copy: AnalysisCopy): GuidedCoefficients {
  return guidedFilterCoefficients(copy.rgb, linearLuma(copy), copy.width, copy.height, 4, 1e-2);
}

/** Linear luminance of an analysis copy. */
function linearLuma(copy: AnalysisCopy): Float32Array {
  const n = copy.width * copy.height;
  const linear = encodedToLinearAll(copy.rgb.subarray(0, n * 3));
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = luma(linear[i * 3]!, linear[i * 3 + 1]!, linear[i * 3 + 2]!);
  return out;
}

/** p-quantile (0..1) of values where keep is set. */
function quantile(values: Float32Array, keep: (i: number) => boolean, p: number): number | null {
  const picked: number[] = [];
  for (let i = 0; i < values.length; i++) if (keep(i)) picked.push(values[i]!);
  if (picked.length === 0) return null;
  picked.sort((a, b) => a - b);
  return picked[Math.min(picked.length - 1, Math.floor(p * picked.length))]!;
}

/**
 * The gain that brings the dark frame's window view up to look natural in the normal
 * frame: at most the exposure ratio between the frames (measured where both are well
 * exposed, outside the windows), and no more than puts the view's 90th percentile at
 * 0.75 linear, so the view is bright but not blown again. Never below 1.
 */
function viewGain(normal: AnalysisCopy, dark: AnalysisCopy, inside: Float32Array): number {
  const ln = linearLuma(normal);
  const ld = linearLuma(dark);
  const ratios = new Float32Array(ln.length);
  for (let i = 0; i < ln.length; i++) ratios[i] = ld[i]! > 0.005 ? ln[i]! / ld[i]! : 0;
  const exposureRatio = quantile(ratios, (i) => inside[i]! < 0.01 && ratios[i]! > 0 && ln[i]! < 0.75, 0.5);
  const viewTop = quantile(ld, (i) => inside[i]! > 0.5, 0.9);
  const fit = viewTop !== null && viewTop > 0 ? 0.75 / viewTop : Infinity;
  return Math.max(1, Math.min(exposureRatio ?? fit, fit));
}

/**
 * Recovers blown-out windows of an interior, strength 0..100.
 *
 * With darkFrame (a darker bracket of the same scene, same size, aligned): the windows'
 * content comes from it, brought up by viewGain and rolled off below white, and is
 * blended in by the window mask × strength.
 *
 * Without: highlights inside the windows are compressed locally (base lowered up to
 * 20 %, local contrast raised) to show what detail the near-clipped tones still hold.
 * Pixels clipped to white hold none; they only turn a very light grey.
 *
 * Outside the window mask pixels are returned unchanged.
 */
export async function windowPull(image: Image16, strength: number, options: { darkFrame?: Image16 } = {}): Promise<Image16> {
  const pulled = await pullWindows(image, strength, options);
  return pulled === image ? { width: image.width, height: image.height, data: shareableCopy(image) } : pulled;
}

/**
 * windowPull for a pipeline that reads the result again: the image itself when no window
 * was found (or strength is 0). `analysis` is the image's analysis copy (analysisCopy at
 * ANALYSIS_EDGE) when the caller has it, `found` its windows (findWindows, with the base
 * layer unless there is a dark frame). With inPlace the windows are pulled in the image's
 * own pixels (a pipeline's intermediate image, which nothing else reads): no full-size copy.
 */
export async function pullWindows(image: Image16, strength: number, options: { darkFrame?: Image16; analysis?: AnalysisCopy; found?: FoundWindows; inPlace?: boolean } = {}): Promise<Image16> {
  assertImage16(image, 'image');
  assertNumberInRange(strength, 'strength', 0, 100);
  if (options === null || typeof options !== 'object') throw invalidParameterError('options', 'an object', options);
  const { darkFrame } = options;
  if (darkFrame !== undefined) {
    assertImage16(darkFrame, 'options.darkFrame');
    if (darkFrame.width !== image.width || darkFrame.height !== image.height) {
      throw invalidParameterError('options.darkFrame', `an Image16 of ${image.width} × ${image.height} (aligned to the image)`, `${darkFrame.width} × ${darkFrame.height}`);
    }
  }
  if (strength === 0) return image;
  const { width, height } = image;
  const copy = options.analysis ?? (await analysisCopy(image, ANALYSIS_EDGE));
  const { windows, coefficients, region, p, base } = options.found ?? findWindows(copy, width, height, !darkFrame);
  if (windows.length === 0 || !coefficients) return image;
  // The mask over the windows' region alone, row-major at its width: 0 beyond it.
  const mask = await guidedRegion(coefficients, image, region);
  const data = options.inPlace ? image.data : shareableCopy(image);
  const s = strength / 100;
  if (darkFrame) {
    const gain = viewGain(copy, await analysisCopy(darkFrame, ANALYSIS_EDGE), p);
    const lin = srgb16ToLinearLut();
    for (let y = 0; y < region.height; y++) {
      for (let x = 0; x < region.width; x++) {
        const w = mask[y * region.width + x]! * s;
        if (w === 0) continue;
        const i = (region.y + y) * width + region.x + x;
        for (let c = 0; c < 3; c++) {
          const original = lin[data[i * 3 + c]!]!;
          const view = shoulder(gain * lin[darkFrame.data[i * 3 + c]!]!);
          data[i * 3 + c] = linearToSrgb16(original + w * (view - original));
        }
      }
    }
    return { width, height, data };
  }
  await compressWindowHighlights(image, data, mask, region, base ?? baseLayerOf(copy), s);
  return { width, height, data };
}

/**
 * Single-frame recovery in place: luminance splits into a base (edge-preserving: a
 * guided filter of linear luminance, so window bars make no halos) and detail (the ratio
 * to it); in the windows the base comes down by up to 20 % · s and the detail is raised
 * to the power 1 + s, chroma kept.
 */
async function compressWindowHighlights(image: Image16, data: Uint16Array, mask: Float32Array, region: Box, baseLayer: GuidedCoefficients, s: number): Promise<void> {
  const base = await guidedRegion(baseLayer, image, region);
  const lin = srgb16ToLinearLut();
  const { width } = image;
  // mask and base are the region's, row-major at its width.
  for (let y = 0; y < region.height; y++) {
    for (let x = 0, j = y * region.width, i = (region.y + y) * width + region.x; x < region.width; x++, i++, j++) {
      const w = mask[j]!;
      if (w === 0) continue;
      const b = Math.max(1e-4, base[j]!);
      const r = lin[data[i * 3]!]!,
        g = lin[data[i * 3 + 1]!]!,
        bl = lin[data[i * 3 + 2]!]!;
      const l = luma(r, g, bl);
      if (l <= 0) continue;
      const lowered = b * (1 - 0.2 * s * smoothstep(0.4, 1, b));
      const ratio = Math.min(1, lowered * (l / b) ** (1 + s)) / l;
      const k = 1 + w * (ratio - 1);
      data[i * 3] = linearToSrgb16(r * k);
      data[i * 3 + 1] = linearToSrgb16(g * k);
      data[i * 3 + 2] = linearToSrgb16(bl * k);
    }
  }
}
