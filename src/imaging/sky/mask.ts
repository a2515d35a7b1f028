import type { Image16 } from '../types.js';
import { ANALYSIS_EDGE, analysisCopy, type AnalysisCopy } from '../analysis-copy.js';
import { boxMean } from '../filters/box.js';
import { applyGuidedCoefficients, guidedFilterCoefficients } from '../filters/guided.js';
import { assertImage16 } from '../image16.js';
import { growRegion, labelComponents, onOutline, outlineLengths } from '../local/regions.js';
import { skyColourPosterior } from './colour-model.js';
import { SkyHue, skyFeatures, type SkyFeatures } from './features.js';

/** A soft sky mask at the image's size. */
export interface SkyMaskResult {
  /** 0..1 per pixel, row-major, width × height. */
  mask: Float32Array;
  width: number;
  height: number;
  /** Mean of the mask: the fraction of the frame that is sky. */
  coverage: number;
  /** How sure the segmentation is that the region it found is sky, 0..1 (0 when none was found). */
  confidence: number;
}

/** Colour change per pixel (at ANALYSIS_EDGE) that still counts as smooth sky while seeding (gradients, haze). */
const SMOOTH_STRICT = 0.01;
/** ... and while extending through cloud edges to colours the seeded sky has shown to be sky. */
const SMOOTH_LOOSE = 0.05;
/** Below this fraction of the frame a region is noise, not sky (and not worth replacing). */
export const MIN_SKY_COVERAGE = 0.002;

/** The sky at analysis size, soft at its edge, and how sure the segmentation is of it. */
interface CoarseSky {
  sky: Float32Array;
  confidence: number;
}

/** What segmentation needs to know of one smooth, sky-coloured component. */
interface Component {
  area: number;
  /** Pixels on the top row of the frame, and how many of them are blue. */
  topContact: number;
  topBlue: number;
  minY: number;
  lumaSum: number;
  priorSum: number;
  /** Sum of blue minus red (encoded): grey skies are neutral to cool, lamp-lit ceilings warm. */
  coolSum: number;
  /** Pixel counts per SkyHue family, indexed by its value. */
  families: [number, number, number, number];
}

function componentStats(labels: Int32Array, count: number, features: SkyFeatures, rgb: Float32Array, width: number): Component[] {
  const stats: Component[] = Array.from({ length: count }, () => ({ area: 0, topContact: 0, topBlue: 0, minY: Infinity, lumaSum: 0, priorSum: 0, coolSum: 0, families: [0, 0, 0, 0] }));
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i]!;
    if (label < 0) continue;
    const c = stats[label]!;
    const y = Math.floor(i / width);
    c.area++;
    if (y === 0) {
      c.topContact++;
      if (features.hue[i] === SkyHue.blue) c.topBlue++;
    }
    if (y < c.minY) c.minY = y;
    c.lumaSum += features.luma[i]!;
    c.priorSum += features.prior[i]!;
    c.coolSum += rgb[i * 3 + 2]! - rgb[i * 3]!;
    c.families[features.hue[i]!]!++;
  }
  return stats;
}

function dominantFamily(c: Component): number {
  let best: number = SkyHue.none;
  for (const family of [SkyHue.blue, SkyHue.neutral, SkyHue.warm]) if (c.families[family]! > c.families[best]!) best = family;
  return best;
}

/**
 * Whether a grey/white component can be the sky of an overcast photo rather than a
 * ceiling: not warm (lamp light), and among the brightest things in frame (windows and
 * lamps outshine a ceiling).
 */
function overcastLike(label: number, c: Component, labels: Int32Array, luma: Float32Array): boolean {
  const mean = c.lumaSum / c.area;
  if (mean < 0.45 || c.coolSum / c.area < -0.02) return false;
  const histogram = new Float64Array(256);
  for (let i = 0; i < labels.length; i++) if (labels[i] !== label) histogram[Math.min(255, Math.floor(luma[i]! * 256))]!++;
  const rest = labels.length - c.area;
  let seen = 0;
  let bin = 255;
  while (bin > 0 && seen + histogram[bin]! < 0.03 * rest) seen += histogram[bin--]!;
  return mean >= 0.85 * (bin / 255);
}

/**
 * Fraction of its outline (inside the frame) a component must share with accepted sky to
 * join it: clouds and haze touch it a lot, walls little. A blue component darker than
 * the sky beside it must be nearly enclosed by it: water below the horizon, darker than
 * the sky it reflects, touches it along one side.
 */
const ADJACENCY = [Infinity, 0.15, 0.15, 0.5];
const ENCLOSED = 0.6;
/** How near (analysis pixels) a component's outline must come to the sky to count as touching it: across a cloud's soft edge. */
const TOUCH_RADIUS = 6;

/**
 * The components that are sky by themselves. Blue sky needs no more than to touch the
 * top (blue where it touches), or to be large, high and coloured like the blue sky that
 * does, or larger than it (sky seen past a tree, not the sea below the horizon).
 * Grey/white sky only counts where no blue sky is seen, touching the top and looking
 * like an overcast sky, not a ceiling.
 */
function seedComponents(stats: Component[], families: number[], labels: Int32Array, features: SkyFeatures, copy: AnalysisCopy): { accepted: Uint8Array; overcast: boolean } {
  const n = labels.length;
  const accepted = new Uint8Array(stats.length);
  const blue = (k: number) => families[k] === SkyHue.blue;
  // What touches the top counts by its colour there: a sunset is blue or violet at the zenith, warm below.
  stats.forEach((c, k) => {
    if (c.topContact >= 2 && c.topBlue > 0.5 * c.topContact) accepted[k] = 1;
  });
  const high = (c: Component) => c.area >= 0.01 * n && c.minY < 0.4 * copy.height;
  let topArea = 0;
  stats.forEach((c, k) => (topArea += accepted[k]! * c.area));
  if (topArea > 0) {
    const posterior = skyColourPosterior(copy.rgb, pixelsOf(labels, accepted), features.prior);
    const sums = new Float64Array(stats.length);
    for (let i = 0; i < n; i++) if (labels[i]! >= 0) sums[labels[i]!]! += posterior[i]!;
    stats.forEach((c, k) => {
      if (blue(k) && !accepted[k] && high(c) && (sums[k]! > 0.5 * c.area || c.area > topArea)) accepted[k] = 1;
    });
  } else {
    stats.forEach((c, k) => {
      if (blue(k) && high(c)) accepted[k] = 1;
    });
  }
  let blueArea = 0;
  stats.forEach((c, k) => (blueArea += accepted[k]! * c.area));
  if (blueArea >= MIN_SKY_COVERAGE * n) return { accepted, overcast: false };
  accepted.fill(0);
  stats.forEach((c, k) => {
    if (families[k] === SkyHue.neutral && c.topContact >= 2 && c.area >= MIN_SKY_COVERAGE * n && overcastLike(k, c, labels, features.luma)) accepted[k] = 1;
  });
  return { accepted, overcast: true };
}

function pixelsOf(labels: Int32Array, accepted: Uint8Array): Uint8Array {
  const region = new Uint8Array(labels.length);
  for (let i = 0; i < labels.length; i++) region[i] = labels[i]! >= 0 && accepted[labels[i]!] ? 1 : 0;
  return region;
}

/**
 * Accepts the components that share enough of their outline with the region (within
 * TOUCH_RADIUS); adds their pixels to it. Returns whether any joined.
 */
function joinTouching(region: Uint8Array, labels: Int32Array, accepted: Uint8Array, families: number[], outlines: Int32Array, stats: Component[], luma: Float32Array, width: number, height: number): boolean {
  const n = labels.length;
  const inside = Float32Array.from(region);
  const near = boxMean(inside, width, height, TOUCH_RADIUS);
  for (let i = 0; i < n; i++) inside[i]! *= luma[i]!;
  const nearLuma = boxMean(inside, width, height, TOUCH_RADIUS);
  const touching = new Int32Array(accepted.length);
  // Luma of the sky next to each component, summed over its touching outline.
  const besideLuma = new Float64Array(accepted.length);
  for (let p = 0; p < n; p++) {
    const label = labels[p]!;
    if (label < 0 || accepted[label] || near[p] === 0 || !onOutline(labels, p, width)) continue;
    touching[label]!++;
    besideLuma[label]! += nearLuma[p]! / near[p]!;
  }
  let joined = false;
  for (let k = 0; k < accepted.length; k++) {
    if (accepted[k] || touching[k] === 0) continue;
    const c = stats[k]!;
    const darkBlue = families[k] === SkyHue.blue && c.lumaSum / c.area < (0.95 * besideLuma[k]!) / touching[k]!;
    if (touching[k]! > (darkBlue ? ENCLOSED : ADJACENCY[families[k]!]!) * outlines[k]!) {
      accepted[k] = 1;
      joined = true;
    }
  }
  if (joined) for (let i = 0; i < n; i++) if (labels[i]! >= 0 && accepted[labels[i]!]) region[i] = 1;
  return joined;
}

/**
 * The sky at analysis size, or null when there is none: 1 inside, the colour posterior in
 * a thin band around it (so edge refinement starts from the colour evidence, not a hard
 * step), 0 elsewhere.
 */
function coarseSkyRegion(copy: AnalysisCopy): CoarseSky | null {
  const { width, height, rgb } = copy;
  const n = width * height;
  const features = skyFeatures(copy);
  const { prior, texture } = features;
  // Per-pixel gradients grow as the analysis copy shrinks below ANALYSIS_EDGE.
  const unit = ANALYSIS_EDGE / Math.max(width, height);
  const candidate = new Uint8Array(n);
  for (let i = 0; i < n; i++) candidate[i] = texture[i]! < SMOOTH_STRICT * unit && prior[i]! > 0.3 ? 1 : 0;
  const { labels, count } = labelComponents(candidate, width);
  const stats = componentStats(labels, count, features, rgb, width);
  const families = stats.map(dominantFamily);
  const { accepted, overcast } = seedComponents(stats, families, labels, features, copy);
  if (!accepted.includes(1)) return null;
  const outlines = outlineLengths(labels, count, width);
  const region = pixelsOf(labels, accepted);
  const allowed = new Uint8Array(n);
  let posterior: Float32Array;
  // Growing by colour brings the region up to cloud edges (thin lines of texture, where
  // roofs and foliage are textured all over); clouds beyond them then join by touch.
  const wideTexture = boxMean(texture, width, height, 4);
  for (let round = 0; ; round++) {
    posterior = skyColourPosterior(rgb, region, prior);
    for (let i = 0; i < n; i++) allowed[i] = posterior[i]! > 0.5 && texture[i]! < SMOOTH_LOOSE * unit && wideTexture[i]! < 0.5 * SMOOTH_LOOSE * unit && prior[i]! > 0.15 ? 1 : 0;
    growRegion(region, allowed, width);
    if (round === 3 || !joinTouching(region, labels, accepted, families, outlines, stats, features.luma, width, height)) break;
  }
  // Sky seen through foliage: textured, cut off from the rest, but its colour leaves no
  // doubt and it is no lower than the sky in its column (the sea below the horizon is).
  const lowest = new Int32Array(width).fill(-1);
  for (let i = 0; i < n; i++) if (region[i]) lowest[i % width] = Math.floor(i / width);
  for (let i = 0; i < n; i++) if (Math.floor(i / width) <= lowest[i % width]! && posterior[i]! > 0.9 && prior[i]! > 0.6) region[i] = 1;
  let area = 0;
  let priorSum = 0;
  for (let i = 0; i < n; i++) {
    area += region[i]!;
    priorSum += region[i]! * prior[i]!;
  }
  if (area < MIN_SKY_COVERAGE * n) return null;
  const near = boxMean(Float32Array.from(region), width, height, 3);
  const sky = new Float32Array(n);
  for (let i = 0; i < n; i++) sky[i] = region[i] ? 1 : near[i]! > 0 ? posterior[i]! : 0;
  // Grey skies are told from ceilings and walls by brightness and tint alone: less sure.
  return { sky, confidence: (priorSum / area) * (overcast ? 0.8 : 1) };
}

/**
 * Segments the sky. On an analysis copy (640 px long edge): smooth, sky-coloured
 * components (blue, grey/white, sunset hues; low gradient energy) are labelled; those
 * touching the top edge (or large, high and sky-coloured) seed the sky; it grows by a
 * colour model learnt from them across soft cloud edges, takes in clouds and haze that
 * touch it, and sky seen through foliage. Bright regions not connected so (white walls,
 * windows, ceilings) stay out. A colour guided filter then refines the edge at full
 * resolution, so branches and rooflines blend. No sky: coverage 0, confidence 0.
 */
export async function skyMask(image: Image16): Promise<SkyMaskResult> {
  assertImage16(image, 'image');
  const copy = await analysisCopy(image, ANALYSIS_EDGE);
  const coarse = coarseSkyRegion(copy);
  if (coarse === null) return { mask: new Float32Array(image.width * image.height), width: image.width, height: image.height, coverage: 0, confidence: 0 };
  const radius = Math.max(2, Math.round(Math.max(copy.width, copy.height) / 160));
  const coefficients = guidedFilterCoefficients(copy.rgb, coarse.sky, copy.width, copy.height, radius, 1e-3);
  const mask = applyGuidedCoefficients(coefficients, image);
  let sum = 0;
  for (let i = 0; i < mask.length; i++) sum += mask[i]!;
  return { mask, width: image.width, height: image.height, coverage: sum / mask.length, confidence: coarse.confidence };
}
