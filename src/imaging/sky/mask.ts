import { encodedToLinear } from '../colour.js';
import type { Image16 } from '../types.js';
import { ANALYSIS_EDGE, analysisCopy, type AnalysisCopy } from '../analysis-copy.js';
import { boxMean } from '../filters/box.js';
import { type GuidedCoefficients, guidedFilterCoefficients } from '../filters/guided.js';
import { guidedMaskWithSpans } from '../filters/guided-apply.js';
import { assertImage16 } from '../image16.js';
import { growRegion, labelComponents, outlineLengths, outlinePixels } from '../local/regions.js';
import { type ColourBins, colourBins, posteriorOf, type SkyColourModel, skyColourModel, skyColourPosterior, skyColouredWhere } from './colour-model.js';
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
  /** Per row, the first column whose mask is above 0 and one past the last (equal when none): where readers of the mask look. */
  spans?: Int32Array;
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
  /** Pixels on the left or right column in the upper half of the frame: sky seen past an overhang or a tree. */
  sideContact: number;
  minY: number;
  maxY: number;
  lumaSum: number;
  priorSum: number;
  /** Sum of blue minus red (encoded): grey skies are neutral to cool, lamp-lit ceilings warm. */
  coolSum: number;
  /** Pixels white in every channel: a blown window or wall shows no colour to judge it by. */
  clipped: number;
  /** Sums of the row, its square, and the row times luma and times blue − red: trends down the component. */
  ySum: number;
  yySum: number;
  yLumaSum: number;
  yCoolSum: number;
  /** Pixel counts per SkyHue family, indexed by its value. */
  families: [number, number, number, number];
}

/** A channel value at or above which a pixel counts as blown. */
const CLIPPED = 0.98;

function componentStats(labels: Int32Array, count: number, features: SkyFeatures, rgb: Float32Array, width: number): Component[] {
  const stats: Component[] = Array.from({ length: count }, () => ({
    area: 0,
    topContact: 0,
    topBlue: 0,
    sideContact: 0,
    minY: Infinity,
    maxY: 0,
    lumaSum: 0,
    priorSum: 0,
    coolSum: 0,
    clipped: 0,
    ySum: 0,
    yySum: 0,
    yLumaSum: 0,
    yCoolSum: 0,
    families: [0, 0, 0, 0],
  }));
  const halfHeight = labels.length / width / 2;
  const { luma, prior, hue } = features;
  for (let y = 0, i = 0; i < labels.length; y++) {
    for (let x = 0; x < width; x++, i++) {
      const label = labels[i]!;
      if (label < 0) continue;
      const c = stats[label]!;
      const r = rgb[i * 3]!,
        g = rgb[i * 3 + 1]!,
        b = rgb[i * 3 + 2]!;
      const l = luma[i]!;
      const family = hue[i]!;
      c.area++;
      if (y === 0) {
        c.topContact++;
        if (family === SkyHue.blue) c.topBlue++;
      }
      if ((x === 0 || x === width - 1) && y < halfHeight) c.sideContact++;
      if (y < c.minY) c.minY = y;
      c.maxY = y;
      c.lumaSum += l;
      c.priorSum += prior[i]!;
      c.coolSum += b - r;
      if (r >= CLIPPED && g >= CLIPPED && b >= CLIPPED) c.clipped++;
      c.ySum += y;
      c.yySum += y * y;
      c.yLumaSum += y * l;
      c.yCoolSum += y * (b - r);
      c.families[family]!++;
    }
  }
  return stats;
}

/** How much a quantity (summed over the component, and summed times the row) changes from its top row to its bottom row, fitted by least squares. */
function changeDownwards(c: Component, sum: number, ySum: number): number {
  const meanY = c.ySum / c.area;
  const varianceY = c.yySum / c.area - meanY * meanY;
  if (varianceY <= 0) return 0;
  return ((ySum / c.area - (meanY * sum) / c.area) / varianceY) * (c.maxY - c.minY);
}

function dominantFamily(c: Component): number {
  let best: number = SkyHue.none;
  for (const family of [SkyHue.blue, SkyHue.neutral, SkyHue.warm]) if (c.families[family]! > c.families[best]!) best = family;
  return best;
}

/** How much brighter (linear light) than the rest of the frame's median an overcast sky is at least: ~0.85 EV. A ceiling is lit like the walls. */
const OVERCAST_OVER_SCENE = 1.8;

/**
 * Whether a grey/white component can be the sky of an overcast photo rather than a
 * ceiling: not warm (lamp light), among the brightest things in frame (windows and lamps
 * outshine a ceiling), and well above the scene's typical brightness (daylight from the
 * sky is stronger than what the ground reflects; a ceiling with no window in view is lit
 * much like the walls).
 */
function overcastLike(label: number, c: Component, labels: Int32Array, luma: Float32Array): boolean {
  const mean = c.lumaSum / c.area;
  if (mean < 0.45 || c.coolSum / c.area < -0.02) return false;
  const histogram = new Float64Array(256);
  for (let i = 0; i < labels.length; i++) if (labels[i] !== label) histogram[Math.min(255, Math.floor(luma[i]! * 256))]!++;
  const rest = labels.length - c.area;
  let seen = 0;
  let bright = 255;
  while (bright > 0 && seen + histogram[bright]! < 0.03 * rest) seen += histogram[bright--]!;
  seen = 0;
  let median = 0;
  while (median < 255 && seen + histogram[median]! < 0.5 * rest) seen += histogram[median++]!;
  return mean >= 0.85 * (bright / 255) && encodedToLinear(mean) >= OVERCAST_OVER_SCENE * encodedToLinear((median + 0.5) / 256);
}

/**
 * Fraction of its outline (inside the frame) a component must share with accepted sky to
 * join it: clouds and haze touch it a lot, walls little. A component darker than the sky
 * beside it (below DARKER × its luma, per family) must be nearly enclosed by it: water
 * below the horizon, darker than the sky it reflects, and a grey soffit or wall in shade
 * beside a bright sky touch it along one side; clouds are about as bright as the sky
 * around them, or enclosed by it.
 */
const ADJACENCY = [Infinity, 0.15, 0.15, 0.5];
const DARKER = [0, 0.95, 0.8, 0];
const ENCLOSED = 0.6;
/** How near (analysis pixels) a component's outline must come to the sky to count as touching it: across a cloud's soft edge. */
const TOUCH_RADIUS = 6;

/**
 * The components that are sky by themselves. Blue sky needs no more than to touch the
 * top (blue where it touches), or to be large, high and coloured like the blue sky that
 * does, or larger than it (sky seen past a tree, not the sea below the horizon). Warm
 * components join as the lower part of a sunset under it (sunsetLike). Grey/white sky
 * only counts where no blue sky is seen, looking like an overcast sky, not a ceiling, and
 * reaching past the frame: through the top, or through a side high up when its colour
 * can be judged (sky seen past an overhang).
 */
function seedComponents(stats: Component[], families: number[], labels: Int32Array, features: SkyFeatures, copy: AnalysisCopy, bins: ColourBins): { accepted: Uint8Array; overcast: boolean } {
  const n = labels.length;
  const accepted = new Uint8Array(stats.length);
  const blue = (k: number) => families[k] === SkyHue.blue;
  // What touches the top counts by its colour there: a sunset is blue or violet at the zenith, warm below.
  stats.forEach((c, k) => {
    if (c.topContact >= 2 && c.topBlue > 0.5 * c.topContact) accepted[k] = 1;
  });
  const high = (c: Component) => c.area >= 0.01 * n && c.minY < 0.4 * copy.height;
  let topArea = 0;
  for (const [k, c] of stats.entries()) topArea += accepted[k]! * c.area;
  if (topArea > 0) {
    const posterior = skyColourPosterior(bins, pixelsOf(labels, accepted), features.prior);
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
  // Sky goes on past the frame; what the frame encloses (a facade panel, a window) is judged by touch alone.
  const pastFrame = (c: Component) => c.topContact >= 2 || c.sideContact >= 0.02 * copy.height;
  let blueArea = 0;
  let blueLuma = 0;
  stats.forEach((c, k) => {
    blueArea += accepted[k]! * c.area;
    blueLuma += accepted[k]! * c.lumaSum;
  });
  if (blueArea >= MIN_SKY_COVERAGE * n) {
    stats.forEach((c, k) => {
      if (families[k] === SkyHue.warm && high(c) && pastFrame(c) && sunsetLike(c, blueLuma / blueArea)) accepted[k] = 1;
    });
    return { accepted, overcast: false };
  }
  accepted.fill(0);
  // Through a side only when high and large, and when there is colour to judge: not blown white (a window), not warm.
  const pastSide = (c: Component) => c.sideContact >= 0.02 * copy.height && high(c) && c.clipped < 0.5 * c.area && c.coolSum >= 0;
  stats.forEach((c, k) => {
    if (families[k] === SkyHue.neutral && c.area >= MIN_SKY_COVERAGE * n && (c.topContact >= 2 || pastSide(c)) && overcastLike(k, c, labels, features.luma)) accepted[k] = 1;
  });
  return { accepted, overcast: true };
}

/** How much warmer (red − blue, encoded) from top to bottom the lower part of a sunset gets at least. */
const SUNSET_WARMING = 0.05;

/**
 * Whether a warm component (large, high, reaching past the frame) is the lower part of a
 * sunset above which blue sky of the given mean luma was found — the sky between them may
 * be hidden by branches: it is brighter than the blue (the glow under a dusk zenith) and,
 * as a sky does towards the horizon, gets warmer and no darker lower down. A sunlit wall
 * is flat in colour; a warm background with no blue sky above is no sky.
 */
function sunsetLike(c: Component, blueLuma: number): boolean {
  return c.lumaSum / c.area > blueLuma && -changeDownwards(c, c.coolSum, c.yCoolSum) >= SUNSET_WARMING && changeDownwards(c, c.lumaSum, c.yLumaSum) >= 0;
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
function joinTouching(region: Uint8Array, labels: Int32Array, outline: Uint8Array, accepted: Uint8Array, families: number[], outlines: Int32Array, stats: Component[], luma: Float32Array, width: number, height: number): boolean {
  const n = labels.length;
  const inside = new Float32Array(region);
  const near = boxMean(inside, width, height, TOUCH_RADIUS);
  for (let i = 0; i < n; i++) inside[i]! *= luma[i]!;
  const nearLuma = boxMean(inside, width, height, TOUCH_RADIUS);
  const touching = new Int32Array(accepted.length);
  // Luma of the sky next to each component, summed over its touching outline.
  const besideLuma = new Float64Array(accepted.length);
  for (let p = 0; p < n; p++) {
    const label = labels[p]!;
    if (!outline[p] || accepted[label] || near[p] === 0) continue;
    touching[label]!++;
    besideLuma[label]! += nearLuma[p]! / near[p]!;
  }
  let joined = false;
  for (let k = 0; k < accepted.length; k++) {
    if (accepted[k] || touching[k] === 0) continue;
    const c = stats[k]!;
    const darker = c.lumaSum / c.area < (DARKER[families[k]!]! * besideLuma[k]!) / touching[k]!;
    if (touching[k]! > (darker ? ENCLOSED : ADJACENCY[families[k]!]!) * outlines[k]!) {
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
  const bins = colourBins(rgb);
  const { accepted, overcast } = seedComponents(stats, families, labels, features, copy, bins);
  if (!accepted.includes(1)) return null;
  // The labels stay as they are: which pixels outline their component is found once, for every round of joining.
  const outline = outlinePixels(labels, width);
  const outlines = outlineLengths(labels, outline, count);
  const region = pixelsOf(labels, accepted);
  const allowed = new Uint8Array(n);
  // Growing by colour brings the region up to cloud edges (thin lines of texture, where
  // roofs and foliage are textured all over); clouds beyond them then join by touch.
  const wideTexture = boxMean(texture, width, height, 4);
  // Where growth may go whatever the colour model says: the same every round.
  const smooth = new Uint8Array(n);
  for (let i = 0; i < n; i++) smooth[i] = texture[i]! < SMOOTH_LOOSE * unit && wideTexture[i]! < 0.5 * SMOOTH_LOOSE * unit && prior[i]! > 0.15 ? 1 : 0;
  let model: SkyColourModel;
  for (let round = 0; ; round++) {
    model = skyColourModel(bins, region);
    skyColouredWhere(model, bins, prior, smooth, allowed);
    growRegion(region, allowed, width);
    if (round === 3 || !joinTouching(region, labels, outline, accepted, families, outlines, stats, features.luma, width, height)) break;
  }
  // The last round's posterior is read everywhere from here on; the earlier rounds' only where smooth.
  const posterior = posteriorOf(model, bins, prior);
  // Sky seen through foliage: textured, cut off from the rest, but its colour leaves no
  // doubt and it is no lower than the sky in its column (the sea below the horizon is).
  const lowest = new Int32Array(width).fill(-1);
  for (let y = 0, i = 0; y < height; y++) for (let x = 0; x < width; x++, i++) if (region[i]) lowest[x] = y;
  for (let y = 0, i = 0; y < height; y++) for (let x = 0; x < width; x++, i++) if (y <= lowest[x]! && posterior[i]! > 0.9 && prior[i]! > 0.6) region[i] = 1;
  let area = 0;
  let priorSum = 0;
  for (let i = 0; i < n; i++) {
    area += region[i]!;
    priorSum += region[i]! * prior[i]!;
  }
  if (area < MIN_SKY_COVERAGE * n) return null;
  const near = boxMean(new Float32Array(region), width, height, 3);
  const sky = new Float32Array(n);
  for (let i = 0; i < n; i++) sky[i] = region[i] ? 1 : near[i]! > 0 ? posterior[i]! : 0;
  // Grey skies are told from ceilings and walls by brightness and tint alone: less sure.
  return { sky, confidence: (priorSum / area) * (overcast ? 0.8 : 1) };
}

/**
 * Segments the sky. On an analysis copy (640 px long edge): smooth, sky-coloured
 * components (blue, grey/white, sunset hues; low gradient energy) are labelled; those
 * touching the top edge (or large, high and sky-coloured), the warm lower part of a
 * sunset under blue sky, and an overcast sky reaching a side edge past an overhang seed
 * the sky; it grows by a colour model learnt from them across soft cloud edges, takes in
 * clouds and haze that touch it, and sky seen through foliage. Bright regions enclosed by
 * the frame (white walls, windows) and ceilings stay out. A colour guided filter then
 * refines the edge at full resolution, so branches and rooflines blend. No sky: coverage
 * 0, confidence 0. copy is the image's analysis copy (analysisCopy at ANALYSIS_EDGE) when the
 * caller has it already.
 */
export async function skyMask(image: Image16, copy?: AnalysisCopy): Promise<SkyMaskResult> {
  assertImage16(image, 'image');
  return skyMaskOfFit(image, fitSky(copy ?? (await analysisCopy(image, ANALYSIS_EDGE))));
}

/** What segmentation decides on the analysis copy: the colour guided filter that makes the sky's mask, and how sure it is; null when there is no sky. */
export interface SkyFit {
  coefficients: GuidedCoefficients;
  confidence: number;
}

/** The sky's fit on an analysis copy (see skyMask): all of segmentation but the full-size mask, on the copy alone. */
export function fitSky(copy: AnalysisCopy): SkyFit | null {
  const coarse = coarseSkyRegion(copy);
  if (coarse === null) return null;
  const radius = Math.max(2, Math.round(Math.max(copy.width, copy.height) / 160));
  return { coefficients: guidedFilterCoefficients(copy.rgb, coarse.sky, copy.width, copy.height, radius, 1e-3), confidence: coarse.confidence };
}

/** skyMask of an image whose analysis copy's sky was fitted already (fitSky). */
export async function skyMaskOfFit(image: Image16, found: SkyFit | null): Promise<SkyMaskResult> {
  const { width, height } = image;
  if (found === null) return { mask: new Float32Array(width * height), width, height, coverage: 0, confidence: 0, spans: new Int32Array(height * 2) };
  const { mask, spans } = await guidedMaskWithSpans(found.coefficients, image);
  // Outside its spans a row's mask is 0, which adds nothing to the sum.
  let sum = 0;
  for (let y = 0; y < height; y++) for (let i = y * width + spans[y * 2]!, end = y * width + spans[y * 2 + 1]!; i < end; i++) sum += mask[i]!;
  return { mask, width, height, coverage: sum / mask.length, confidence: found.confidence, spans };
}

/**
 * skyMask's coverage and confidence without its full-size mask: the refined mask is read
 * on the analysis copy. What deciding whether to replace the sky needs; the coverage is
 * that of the full-size mask within a fraction of a percent.
 */
export async function skyPresence(image: Image16): Promise<{ coverage: number; confidence: number }> {
  assertImage16(image, 'image');
  const copy = await analysisCopy(image, ANALYSIS_EDGE);
  const found = fitSky(copy);
  if (found === null) return { coverage: 0, confidence: 0 };
  const { coefficients } = found;
  const { a, b } = coefficients;
  let sum = 0;
  for (let i = 0; i < b.length; i++) {
    const q = a[i * 3]! * copy.rgb[i * 3]! + a[i * 3 + 1]! * copy.rgb[i * 3 + 1]! + a[i * 3 + 2]! * copy.rgb[i * 3 + 2]! + b[i]!;
    sum += q < 0 ? 0 : q > 1 ? 1 : q;
  }
  return { coverage: sum / b.length, confidence: found.confidence };
}
