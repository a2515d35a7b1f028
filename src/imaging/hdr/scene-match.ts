import { srgbToLinear } from '../colour.js';
import { boxMean } from '../filters/box.js';
import type { Image16 } from '../types.js';
import { blockMean, lumaOf, type Plane } from './luma.js';
import { sizeForLongEdge, resizeImage16 } from '../image16.js';

/**
 * Long edge of the luma thumbnail bracket grouping compares photos by. Large enough that a
 * step to another spot (parallax of a few per cent of the width) breaks the structure match,
 * small enough that comparing two photos (every shift within 20 % of the long edge at half size)
 * takes about 20 ms.
 */
export const THUMBNAIL_LONG_EDGE = 160;

/**
 * Largest hand-held shift between the frames of a bracket the match searches, as a share of
 * the long edge (2 % of the width, with room for the thumbnail's rounding).
 */
const MAX_SHIFT_SHARE = 0.03;
/** How far (share of the long edge) the match looks for another viewpoint that fits as well. */
const WIDE_SHIFT_SHARE = 0.2;
/** Encoded luma outside this range is clipped or lost in noise in one of the frames and says nothing. */
const DARK = 0.03;
const BRIGHT = 0.95;
/** Fewer usable pixels than this share of the overlap and the pair cannot be compared. */
const MIN_USABLE_SHARE = 0.05;

/**
 * Content grouping: photos are one scene from one spot when their equalised gradient fields
 * correlate at least this much at the best hand-held shift (on the fitting photos: frames of
 * a bracket 0.58 and up, the same scene from 8 % or more further aside at most 0.34; see
 * docs/imaging-hdr.md).
 */
export const MIN_SIMILARITY = 0.45;

/** A photo's encoded (sRGB) luma at THUMBNAIL_LONG_EDGE, what bracket grouping compares. */
export type LumaThumbnail = Plane;

/** The luma thumbnail of an image (Lanczos-3 downscale, then Rec. 601 luma). */
export async function lumaThumbnail(image: Image16): Promise<LumaThumbnail> {
  const size = sizeForLongEdge(image.width, image.height, THUMBNAIL_LONG_EDGE);
  const small = size.width === image.width && size.height === image.height ? image : await resizeImage16(image, size.width, size.height);
  return lumaOf(small);
}

/** How two photos compare: whether they show one scene from one spot, and how their exposures relate. */
export interface SceneMatch {
  /**
   * Normalised correlation (−1..1) of the two photos' gradient fields after equalising each
   * (so a change of exposure or tone curve does not count), at the best shift, over pixels
   * neither photo has clipped.
   */
  similarity: number;
  /** The best shift in thumbnail pixels: b(x + dx, y + dy) ≈ a(x, y). */
  dx: number;
  dy: number;
  /**
   * The best shift lies on the rim of the searched range (3 % of the long edge, beyond a
   * hand-held bracket's 2 %): the photos are likely further apart, or the scene does not fix
   * the shift along some direction (streaks, a horizon); either way not a bracket's frames.
   */
  atSearchLimit: boolean;
  /**
   * How much better the best hand-held shift fits than any other peak of the correlation within
   * 20 % of the long edge, outside the range hand-held frames move (another viewpoint), at half
   * size (at full size where the half-size fit is on the rim and full size resolves it) and with
   * slow shading taken out; a peak counts only over at least half the pixels the hand-held fit is
   * measured on; negative when another viewpoint fits better.
   */
  uniqueness: number;
  /** Median of log2(linear b / linear a) over pixels usable in both: b's exposure relative to a's, in EV. */
  ev: number;
  /** Share of those pixels where b is brighter than a when ev > 0 (darker when ev < 0): 1 for a pure exposure change. */
  dominance: number;
}

/** Histogram bins of equalisation, and the most a bin may hold, in multiples of the mean count. */
const EQUALISE_BINS = 256;
const EQUALISE_LIMIT = 2;

/**
 * Each pixel's rank in its photo, 0..1, with the histogram's peaks capped (contrast-limited
 * equalisation): a monotone tone change (exposure, curve) leaves ranks unchanged, and capping
 * keeps a flat wall or sky, one narrow peak, from stretching its noise into strong gradients
 * (a synthetic room bracket's +2/0 EV pair: 0.45 uncapped, 0.91 capped; photos unchanged).
 */
function equalised(plane: Plane): Float32Array {
  const bins = EQUALISE_BINS;
  const { data } = plane;
  const histogram = new Float64Array(bins);
  const bin = (v: number) => Math.min(bins - 1, Math.max(0, Math.floor(v * bins)));
  for (let i = 0; i < data.length; i++) histogram[bin(data[i]!)]!++;
  const cap = (EQUALISE_LIMIT * data.length) / bins;
  let excess = 0;
  for (let b = 0; b < bins; b++) {
    if (histogram[b]! > cap) {
      excess += histogram[b]! - cap;
      histogram[b] = cap;
    }
  }
  const cdf = new Float32Array(bins);
  let acc = 0;
  for (let b = 0; b < bins; b++) {
    const count = histogram[b]! + excess / bins;
    cdf[b] = (acc + count / 2) / data.length;
    acc += count;
  }
  // Interpolated between bin centres, so values within a bin keep their order.
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const v = Math.min(bins - 1, Math.max(0, data[i]! * bins - 0.5));
    const b0 = Math.floor(v);
    const b1 = Math.min(bins - 1, b0 + 1);
    out[i] = cdf[b0]! + (cdf[b1]! - cdf[b0]!) * (v - b0);
  }
  return out;
}

/** Central-difference gradients, zero where either neighbour is clipped or dark. */
function gradients(plane: Plane, values: Float32Array): { gx: Float32Array; gy: Float32Array } {
  const { width: w, height: h, data } = plane;
  const gx = new Float32Array(w * h);
  const gy = new Float32Array(w * h);
  const usable = (i: number) => data[i]! > DARK && data[i]! < BRIGHT;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1, i = y * w + 1; x < w - 1; x++, i++) {
      if (usable(i - 1) && usable(i + 1)) gx[i] = values[i + 1]! - values[i - 1]!;
      if (usable(i - w) && usable(i + w)) gy[i] = values[i + w]! - values[i - w]!;
    }
  }
  return { gx, gy };
}

interface Prepared {
  plane: Plane;
  gx: Float32Array;
  gy: Float32Array;
}

function prepare(plane: Plane): Prepared {
  return { plane, ...gradients(plane, equalised(plane)) };
}

/** Box radius (share of the long edge) of the local mean the viewpoint search subtracts. */
const SHADING_SHARE = 0.05;

/**
 * prepare, with each equalised value less its local mean: shading that varies slowly (an
 * illumination ramp, a sky gradient) has the same gradients at every shift and would make
 * any viewpoint fit; what is left is structure that fixes one.
 */
function prepareStructure(plane: Plane): Prepared {
  const values = equalised(plane);
  const { width: w, height: h } = plane;
  const shading = boxMean(values, w, h, Math.max(1, Math.round(SHADING_SHARE * Math.max(w, h))));
  for (let i = 0; i < values.length; i++) shading[i] = values[i]! - shading[i]!;
  return { plane, ...gradients(plane, shading) };
}

/** Gradient correlation of a and b shifted by (dx, dy), and over how many pixels both see structure (its support). */
function correlation(a: Prepared, b: Prepared, dx: number, dy: number): { similarity: number; support: number } {
  const { width: w, height: h } = a.plane;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  let support = 0;
  const x0 = Math.max(0, -dx);
  const x1 = Math.min(w, w - dx);
  for (let y = Math.max(0, -dy); y < Math.min(h, h - dy); y++) {
    for (let x = x0, i = y * w + x0, j = (y + dy) * w + x0 + dx; x < x1; x++, i++, j++) {
      const ax = a.gx[i]!;
      const ay = a.gy[i]!;
      const bx = b.gx[j]!;
      const by = b.gy[j]!;
      // Only where both photos see structure: a clipped area in one says nothing about the other.
      if ((ax === 0 && ay === 0) || (bx === 0 && by === 0)) continue;
      ab += ax * bx + ay * by;
      aa += ax * ax + ay * ay;
      bb += bx * bx + by * by;
      support++;
    }
  }
  return { similarity: aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0, support };
}

/** The shift within ±radius maximising the correlation, searched at half size first, then refined. */
function bestShift(a: Plane, b: Plane, radius: number): { dx: number; dy: number; similarity: number } {
  const ha = prepare(blockMean(a, 2));
  const hb = prepare(blockMean(b, 2));
  const half = Math.ceil(radius / 2);
  let coarse = { dx: 0, dy: 0, similarity: -Infinity };
  for (let dy = -half; dy <= half; dy++) {
    for (let dx = -half; dx <= half; dx++) {
      const s = correlation(ha, hb, dx, dy).similarity;
      if (s > coarse.similarity) coarse = { dx, dy, similarity: s };
    }
  }
  const fa = prepare(a);
  const fb = prepare(b);
  let best = { dx: 0, dy: 0, similarity: -Infinity };
  for (let dy = 2 * coarse.dy - 2; dy <= 2 * coarse.dy + 2; dy++) {
    for (let dx = 2 * coarse.dx - 2; dx <= 2 * coarse.dx + 2; dx++) {
      if (Math.abs(dx) > radius || Math.abs(dy) > radius) continue;
      const s = correlation(fa, fb, dx, dy).similarity;
      if (s > best.similarity) best = { dx, dy, similarity: s };
    }
  }
  return best;
}

/**
 * A rival viewpoint must fit over at least this share of the pixels the hand-held alignment fits
 * over. Where one frame is mostly clipped (the +2 EV frame of a bright or pastel scene), the two
 * see structure together on a few hundred pixels, and at far shifts on a handful: a correlation
 * over 1–50 pixels came out 0.5–1.0 and outranked the true alignment (see docs/imaging-hdr.md).
 */
const MIN_RIVAL_SUPPORT_SHARE = 0.5;

/** uniqueness at one scale, and whether the held fit lies on the rim of the hand-held range there. */
interface ViewpointFit {
  uniqueness: number;
  heldOnRim: boolean;
}

/**
 * uniqueness (SceneMatch) on the thumbnail reduced by `factor` (1 or 2): the best correlation of
 * the structure within the hand-held range (±radius) less that of the best other peak within
 * ±wide lying outside that range and measured over enough pixels (MIN_RIVAL_SUPPORT_SHARE).
 */
function viewpointFit(a: Plane, b: Plane, radius: number, wide: number, factor: 1 | 2): ViewpointFit {
  const ha = prepareStructure(factor === 1 ? a : blockMean(a, factor));
  const hb = prepareStructure(factor === 1 ? b : blockMean(b, factor));
  const half = Math.ceil(radius / factor);
  const reach = Math.max(half, Math.ceil(wide / factor));
  const side = 2 * reach + 1;
  const surface = new Float64Array(side * side);
  const support = new Float64Array(side * side);
  let held = { similarity: -Infinity, support: 0, dx: 0, dy: 0 };
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const fit = correlation(ha, hb, x - reach, y - reach);
      surface[y * side + x] = fit.similarity;
      support[y * side + x] = fit.support;
      if (Math.abs(x - reach) <= half && Math.abs(y - reach) <= half && fit.similarity > held.similarity) held = { ...fit, dx: x - reach, dy: y - reach };
    }
  }
  // Another viewpoint is another peak of the correlation, not the slope of this one: a smooth
  // scene's peak is broad, and its slope further out than hand-held frames move is no rival.
  // Peaks count from the rim of the hand-held range on, not from the held fit's own
  // neighbourhood: a spot just beyond the range fits best just outside it, with the held fit on
  // its slope at the rim (Storm, spots 4 % apart: that peak was skipped, uniqueness 0.21).
  const minSupport = MIN_RIVAL_SUPPORT_SHARE * held.support;
  let rival = -1;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (Math.max(Math.abs(x - reach), Math.abs(y - reach)) <= half) continue;
      const s = surface[y * side + x]!;
      let peak = s > rival && support[y * side + x]! >= minSupport;
      for (let v = Math.max(0, y - 1); peak && v <= Math.min(side - 1, y + 1); v++) {
        for (let u = Math.max(0, x - 1); u <= Math.min(side - 1, x + 1); u++) if (surface[v * side + u]! > s) peak = false;
      }
      if (peak) rival = s;
    }
  }
  return { uniqueness: held.similarity - rival, heldOnRim: Math.max(Math.abs(held.dx), Math.abs(held.dy)) >= half };
}

/**
 * uniqueness (SceneMatch): measured at half size; where the held fit lies on the rim of the
 * hand-held range there, measured again at full size, and that answer taken when its held fit
 * lies inside the range. Halving a soft scene can blur its structure into a ridge along which the
 * held fit slides to the rim and a rival on the same ridge wins (Storm softened: −0.01 at half
 * size; at full size a clear peak, 0.08); where full size finds no peak inside the range either
 * (a frame nearly all white), the half-size answer stands. Full size costs about 16 times half
 * size, so it is measured only for such pairs, and not where the best shift is on the rim
 * or the similarity below MIN_SIMILARITY (`rejected`), which reject the pair anyway: in a project
 * of 132 uploads those were the only pairs it would have re-measured (unrelated photos).
 */
function viewpointUniqueness(a: Plane, b: Plane, radius: number, wide: number, rejected: boolean): number {
  const halfSize = viewpointFit(a, b, radius, wide, 2);
  if (!halfSize.heldOnRim || rejected) return halfSize.uniqueness;
  const fullSize = viewpointFit(a, b, radius, wide, 1);
  return fullSize.heldOnRim ? halfSize.uniqueness : fullSize.uniqueness;
}

/** ev and dominance of b against a, shifted by (dx, dy), over pixels usable in both. */
function exposureRelation(a: Plane, b: Plane, dx: number, dy: number): { ev: number; dominance: number } {
  const { width: w, height: h } = a;
  const ratios: number[] = [];
  let overlap = 0;
  for (let y = Math.max(0, -dy); y < Math.min(h, h - dy); y++) {
    for (let x = Math.max(0, -dx); x < Math.min(w, w - dx); x++) {
      overlap++;
      const va = a.data[y * w + x]!;
      const vb = b.data[(y + dy) * w + x + dx]!;
      if (va > DARK && va < BRIGHT && vb > DARK && vb < BRIGHT) ratios.push(Math.log2(srgbToLinear(vb) / srgbToLinear(va)));
    }
  }
  if (ratios.length < MIN_USABLE_SHARE * overlap) {
    // Too little seen well by both (one nearly black, the other nearly white): the mean light still orders them.
    const ev = Math.log2(meanLinear(b) / meanLinear(a));
    return { ev, dominance: Number.isFinite(ev) ? 1 : 0 };
  }
  ratios.sort((p, q) => p - q);
  const ev = ratios[Math.floor(ratios.length / 2)]!;
  const agreeing = ratios.filter((r) => (ev >= 0 ? r > 0 : r < 0)).length;
  return { ev, dominance: agreeing / ratios.length };
}

/** Mean linear light of a thumbnail: orders exposures of one scene (clipping can only flatten it, never reverse it). */
export function meanLinear(plane: Plane): number {
  let sum = 0;
  for (let i = 0; i < plane.data.length; i++) sum += srgbToLinear(plane.data[i]!);
  return sum / plane.data.length || 1e-9;
}

/** Compares two luma thumbnails: structure (over hand-held shifts) and exposure. Different sizes never match. */
export function matchScenes(a: LumaThumbnail, b: LumaThumbnail): SceneMatch {
  if (a.width !== b.width || a.height !== b.height) return { similarity: 0, dx: 0, dy: 0, atSearchLimit: false, uniqueness: 0, ev: 0, dominance: 0 };
  const radius = Math.max(1, Math.round(MAX_SHIFT_SHARE * Math.max(a.width, a.height)));
  const { dx, dy, similarity } = bestShift(a, b, radius);
  const atSearchLimit = Math.max(Math.abs(dx), Math.abs(dy)) >= radius;
  const uniqueness = viewpointUniqueness(a, b, radius, Math.round(WIDE_SHIFT_SHARE * Math.max(a.width, a.height)), atSearchLimit || similarity < MIN_SIMILARITY);
  return { similarity, dx, dy, atSearchLimit, uniqueness, ...exposureRelation(a, b, dx, dy) };
}
