/**
 * Frontal face detection without a learned model: a hand-built, Viola–Jones-like test of
 * windows over a 512 px copy. A window is a face when its interior is skin-coloured, the
 * two eye regions are darker than the cheeks below them and than the bridge of the nose
 * between them, the mouth is darker than the chin and the nose above it, left and right
 * match, and the skin does not run on beyond both sides (a wall of sand is no face).
 * Windows that pass cluster around a real face at neighbouring positions and scales; a
 * cluster with enough members is a detection, its box their score-weighted mean.
 *
 * What it does not do: profiles and strongly turned heads, faces rotated more than about
 * 15°, faces below ~5 % of the short edge, faces with the eyes hidden (sunglasses, hair),
 * faces on skin-coloured backgrounds filling both sides. See docs/imaging-portrait.md.
 */
import { downscalePlanes, lumaOf } from '../analysis-copy.js';
import { assertNumberInRange } from '../args.js';
import { assertImage16 } from '../image16.js';
import { skinMap } from '../local/skin-colour.js';
import type { Box, Image16 } from '../types.js';

export interface FaceBox extends Box {
  /** 0..1: how clearly the face pattern showed, and at how many neighbouring windows. */
  confidence: number;
}

export interface DetectFacesOptions {
  /** Smallest face width to look for, as a fraction of the short edge; default 0.05. */
  minFaceFraction?: number;
}

const ANALYSIS_EDGE = 512;
/** Box height over width: hairline to chin over cheek to cheek. */
const ASPECT = 1.25;
const SCALE_STEP = 1.12;
/** Smallest window in analysis pixels: below it the eye regions are a few pixels and anything fits. */
const MIN_WINDOW = 20;
/** Passing windows a cluster needs before it counts as a face. */
const MIN_NEIGHBOURS = 3;
/** Weaker clusters are mostly texture that happens to fit the pattern (measured on OpenCV's sample images). */
const MIN_CONFIDENCE = 0.15;
/** Least luma difference (0..1) between cheeks and the eye regions above them. */
const MIN_EYE_CONTRAST = 0.04;

/** Template regions as [x0, y0, x1, y1] fractions of the face box. */
const R = {
  interior: [0.1, 0.05, 0.9, 0.98],
  eyeL: [0.16, 0.3, 0.42, 0.46],
  eyeR: [0.58, 0.3, 0.84, 0.46],
  eyeAreaL: [0.06, 0.2, 0.52, 0.56],
  eyeAreaR: [0.48, 0.2, 0.94, 0.56],
  bridge: [0.44, 0.3, 0.56, 0.46],
  cheekL: [0.16, 0.52, 0.4, 0.68],
  cheekR: [0.6, 0.52, 0.84, 0.68],
  foreL: [0.16, 0.08, 0.42, 0.24],
  foreR: [0.58, 0.08, 0.84, 0.24],
  nose: [0.42, 0.48, 0.58, 0.62],
  foreheadMid: [0.3, 0.16, 0.7, 0.28],
  mouth: [0.3, 0.74, 0.7, 0.86],
  chin: [0.32, 0.88, 0.68, 0.98],
  sideL: [-0.4, 0.3, -0.08, 0.8],
  sideR: [1.08, 0.3, 1.4, 0.8],
} as const satisfies Record<string, readonly [number, number, number, number]>;

type RegionName = keyof typeof R;
const REGION_NAMES = Object.keys(R) as RegionName[];

interface Window {
  x: number;
  y: number;
  w: number;
  score: number;
}

export async function detectFaces(image: Image16, options: DetectFacesOptions = {}): Promise<FaceBox[]> {
  assertImage16(image);
  const { minFaceFraction = 0.05 } = options;
  assertNumberInRange(minFaceFraction, 'minFaceFraction', 0.02, 1);
  const planes = await downscalePlanes(image, ANALYSIS_EDGE);
  const { width, height, scale } = planes;
  const luma = lumaOf(planes);
  const ii = new Integrals(width, height, luma, skinMap(planes));
  const windows: Window[] = [];
  const shortEdge = Math.min(width, height);
  const maxW = Math.min(width, height / ASPECT);
  for (let w = Math.max(MIN_WINDOW, minFaceFraction * shortEdge); w <= maxW; w *= SCALE_STEP) {
    scanScale(ii, Math.round(w), windows);
  }
  return clusterWindows(windows).map((c) => ({
    x: Math.round(c.x * scale),
    y: Math.round(c.y * scale),
    width: Math.round(c.w * scale),
    height: Math.round(c.w * ASPECT * scale),
    confidence: c.confidence,
  }));
}

/** Summed-area tables of luma, luma² and skin likelihood: any rectangle's mean in O(1). */
class Integrals {
  readonly stride: number;
  readonly y: Float64Array;
  readonly yy: Float64Array;
  readonly skin: Float64Array;

  constructor(
    readonly width: number,
    readonly height: number,
    luma: Float32Array,
    skin: Float32Array,
  ) {
    this.stride = width + 1;
    const size = this.stride * (height + 1);
    this.y = new Float64Array(size);
    this.yy = new Float64Array(size);
    this.skin = new Float64Array(size);
    for (let row = 0; row < height; row++) {
      let sy = 0;
      let syy = 0;
      let ss = 0;
      const at = (row + 1) * this.stride + 1;
      const above = row * this.stride + 1;
      for (let x = 0; x < width; x++) {
        const v = luma[row * width + x]!;
        sy += v;
        syy += v * v;
        ss += skin[row * width + x]!;
        this.y[at + x] = this.y[above + x]! + sy;
        this.yy[at + x] = this.yy[above + x]! + syy;
        this.skin[at + x] = this.skin[above + x]! + ss;
      }
    }
  }

  /** Sum of table t over [x0, x1) × [y0, y1), clipped to the image; NaN when nothing is left. */
  mean(t: Float64Array, x0: number, y0: number, x1: number, y1: number): number {
    x0 = Math.max(0, x0);
    y0 = Math.max(0, y0);
    x1 = Math.min(this.width, x1);
    y1 = Math.min(this.height, y1);
    if (x1 <= x0 || y1 <= y0) return Number.NaN;
    const s = this.stride;
    return (t[y1 * s + x1]! - t[y0 * s + x1]! - t[y1 * s + x0]! + t[y0 * s + x0]!) / ((x1 - x0) * (y1 - y0));
  }
}

/** Tests every window of width w (stride w/12) and collects those that look like a face. */
function scanScale(ii: Integrals, w: number, out: Window[]): void {
  const h = Math.round(w * ASPECT);
  const step = Math.max(1, Math.round(w / 12));
  // Region corners in pixels relative to the window, once per scale.
  const px = new Int32Array(REGION_NAMES.length * 4);
  REGION_NAMES.forEach((name, k) => {
    const [x0, y0, x1, y1] = R[name];
    px[k * 4] = Math.round(x0 * w);
    px[k * 4 + 1] = Math.round(y0 * h);
    px[k * 4 + 2] = Math.max(Math.round(x1 * w), Math.round(x0 * w) + 1);
    px[k * 4 + 3] = Math.max(Math.round(y1 * h), Math.round(y0 * h) + 1);
  });
  const at = (name: RegionName) => REGION_NAMES.indexOf(name) * 4;
  const k = Object.fromEntries(REGION_NAMES.map((name) => [name, at(name)])) as Record<RegionName, number>;
  const lumaMean = (ox: number, oy: number, r: number) => ii.mean(ii.y, ox + px[r]!, oy + px[r + 1]!, ox + px[r + 2]!, oy + px[r + 3]!);
  const skinMean = (ox: number, oy: number, r: number) => ii.mean(ii.skin, ox + px[r]!, oy + px[r + 1]!, ox + px[r + 2]!, oy + px[r + 3]!);
  for (let oy = 0; oy + h <= ii.height; oy += step) {
    for (let ox = 0; ox + w <= ii.width; ox += step) {
      // Cheapest rejections first: most windows are not skin at all.
      if (skinMean(ox, oy, k.cheekL) < 0.5 || skinMean(ox, oy, k.cheekR) < 0.5 || skinMean(ox, oy, k.nose) < 0.5) continue;
      // Some forehead skin above the eyes: otherwise the round top of any skin-coloured blob against a dark background mimics two eyes.
      if (skinMean(ox, oy, k.interior) < 0.45 || skinMean(ox, oy, k.foreheadMid) < 0.3) continue;
      const sideL = skinMean(ox, oy, k.sideL);
      const sideR = skinMean(ox, oy, k.sideR);
      if (Math.min(Number.isNaN(sideL) ? 0 : sideL, Number.isNaN(sideR) ? 0 : sideR) > 0.5) continue;
      const score = facePattern(ii, ox, oy, px, k, lumaMean);
      if (score > 0) out.push({ x: ox, y: oy, w, score });
    }
  }
}

/** The light-dark pattern of a frontal face, in units of the window's own contrast; 0 when any part fails. */
function facePattern(ii: Integrals, ox: number, oy: number, px: Int32Array, k: Record<RegionName, number>, lumaMean: (ox: number, oy: number, r: number) => number): number {
  const r = k.interior;
  const x0 = ox + px[r]!;
  const y0 = oy + px[r + 1]!;
  const x1 = ox + px[r + 2]!;
  const y1 = oy + px[r + 3]!;
  const mean = ii.mean(ii.y, x0, y0, x1, y1);
  const sigma = Math.sqrt(Math.max(0, ii.mean(ii.yy, x0, y0, x1, y1) - mean * mean)) + 0.03;
  // Cheeks are smooth skin; fruit flesh, foliage and carved stone are textured.
  const cheekTexture = Math.max(regionDeviation(ii, ox, oy, px, k.cheekL), regionDeviation(ii, ox, oy, px, k.cheekR)) / sigma;
  if (cheekTexture > 0.6) return 0;
  const eyeL = lumaMean(ox, oy, k.eyeL);
  const eyeR = lumaMean(ox, oy, k.eyeR);
  const eyeContrast = Math.min(lumaMean(ox, oy, k.cheekL) - eyeL, lumaMean(ox, oy, k.cheekR) - eyeR);
  const eyesUnderCheeks = eyeContrast / sigma;
  // Also in absolute terms: the rim shading of any round skin-coloured thing reaches a few percent.
  if (eyesUnderCheeks < 0.35 || eyeContrast < MIN_EYE_CONTRAST) return 0;
  // Each eye is a dark blob in its own surround: shading on a round skin-coloured thing only makes gradients.
  const eyeDepth = Math.min(surround(ii, ox, oy, px, k.eyeAreaL, k.eyeL) - eyeL, surround(ii, ox, oy, px, k.eyeAreaR, k.eyeR) - eyeR) / sigma;
  if (eyeDepth < 0.2) return 0;
  const bridgeOverEyes = (lumaMean(ox, oy, k.bridge) - Math.max(eyeL, eyeR)) / sigma;
  if (bridgeOverEyes < 0.25) return 0;
  // Lips are darker than chin and nose, but a smile shows teeth: only a clearly bright mouth fails.
  const mouth = lumaMean(ox, oy, k.mouth);
  const mouthUnderChinAndNose = (Math.min(lumaMean(ox, oy, k.chin), lumaMean(ox, oy, k.nose)) - mouth) / sigma;
  if (mouthUnderChinAndNose < -0.3) return 0;
  const eyeImbalance = Math.abs(eyeL - eyeR) / sigma;
  if (eyeImbalance > 1 || Math.abs(lumaMean(ox, oy, k.cheekL) - lumaMean(ox, oy, k.cheekR)) / sigma > 1) return 0;
  // The forehead (or hair) above the eyes only adds evidence: hair may be darker than eyes.
  const foreheadOverEyes = Math.min(lumaMean(ox, oy, k.foreL) - eyeL, lumaMean(ox, oy, k.foreR) - eyeR) / sigma;
  return Math.min(eyesUnderCheeks, 3) + Math.min(bridgeOverEyes, 3) + Math.min(mouthUnderChinAndNose, 2) + Math.max(-0.5, Math.min(foreheadOverEyes, 1)) - 0.5 * eyeImbalance;
}

/** Mean luma of the ring between an outer region and the inner region it encloses. */
function surround(ii: Integrals, ox: number, oy: number, px: Int32Array, outer: number, inner: number): number {
  const area = (r: number) => (px[r + 2]! - px[r]!) * (px[r + 3]! - px[r + 1]!);
  const mean = (r: number) => ii.mean(ii.y, ox + px[r]!, oy + px[r + 1]!, ox + px[r + 2]!, oy + px[r + 3]!);
  return (mean(outer) * area(outer) - mean(inner) * area(inner)) / (area(outer) - area(inner));
}

/** Standard deviation of luma over one template region. */
function regionDeviation(ii: Integrals, ox: number, oy: number, px: Int32Array, r: number): number {
  const x0 = ox + px[r]!;
  const y0 = oy + px[r + 1]!;
  const x1 = ox + px[r + 2]!;
  const y1 = oy + px[r + 3]!;
  const mean = ii.mean(ii.y, x0, y0, x1, y1);
  return Math.sqrt(Math.max(0, ii.mean(ii.yy, x0, y0, x1, y1) - mean * mean));
}

interface Cluster {
  x: number;
  y: number;
  w: number;
  confidence: number;
}

function iou(a: Window, b: Window): number {
  const ah = a.w * ASPECT;
  const bh = b.w * ASPECT;
  const ix = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const iy = Math.min(a.y + ah, b.y + bh) - Math.max(a.y, b.y);
  if (ix <= 0 || iy <= 0) return 0;
  const inter = ix * iy;
  return inter / (a.w * ah + b.w * bh - inter);
}

/**
 * Groups overlapping windows around the strongest ones and keeps groups with enough
 * members. Of overlapping groups the larger wins: an eye or a nostril can mimic a small
 * face inside a real one, while a real face is rarely nested in a false larger one.
 */
function clusterWindows(windows: Window[]): Cluster[] {
  windows.sort((a, b) => b.score - a.score);
  const groups: { seed: Window; members: Window[] }[] = [];
  for (const win of windows) {
    const group = groups.find((g) => iou(g.seed, win) > 0.4);
    if (group) group.members.push(win);
    else groups.push({ seed: win, members: [win] });
  }
  const clusters: Window[] = [];
  for (const { seed, members } of groups) {
    if (members.length < MIN_NEIGHBOURS) continue;
    let sw = 0;
    let x = 0;
    let y = 0;
    let w = 0;
    for (const m of members) {
      sw += m.score;
      x += m.x * m.score;
      y += m.y * m.score;
      w += m.w * m.score;
    }
    // Strong pattern and many agreeing windows both raise confidence; either alone saturates below 1.
    const confidence = (1 - Math.exp(-seed.score / 3)) * (1 - Math.exp(-members.length / 6));
    clusters.push({ x: x / sw, y: y / sw, w: w / sw, score: confidence });
  }
  clusters.sort((a, b) => b.w - a.w);
  const kept: Window[] = [];
  // A face too weak to report still suppresses the eyes, mouth and neck that mimic faces in and under it; noise does not.
  for (const c of clusters) if (c.score >= MIN_CONFIDENCE / 2 && !kept.some((k) => iou(k, c) > 0.2 || contains(k, c) || underChin(k, c))) kept.push(c);
  return kept.filter((c) => c.score >= MIN_CONFIDENCE).map(({ x, y, w, score }) => ({ x, y, w, confidence: Math.round(score * 1000) / 1000 }));
}

/** True when the smaller window b starts within a's neck: straight below a, less than 0.6 of a's height under its chin. */
function underChin(a: Window, b: Window): boolean {
  const centre = b.x + b.w / 2;
  return b.w < a.w && centre > a.x && centre < a.x + a.w && b.y > a.y && b.y < a.y + 1.6 * a.w * ASPECT;
}

/** True when a third or more of b lies inside a. */
function contains(a: { x: number; y: number; w: number }, b: { x: number; y: number; w: number }): boolean {
  const ix = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const iy = Math.min(a.y + a.w * ASPECT, b.y + b.w * ASPECT) - Math.max(a.y, b.y);
  return ix > 0 && iy > 0 && (ix * iy) / (b.w * b.w * ASPECT) > 0.33;
}
