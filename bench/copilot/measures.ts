/**
 * What an instruction should change, measured on the rendered image: CIELAB means,
 * lightness contrast, tone regions, fine and local detail, shape, tilt. Each measure is a
 * number per image; regions are taken from the parent's render so before and after are
 * compared on the same pixels.
 */
import { linearToLab, srgb16ToLinearLut } from '../../src/imaging/colour.js';
import { detectStraighten } from '../../src/imaging/geometry/index.js';
import { verticalTilt } from '../../src/imaging/geometry/tilt.js';
import type { Image16 } from '../../src/imaging/types.js';

export interface Measured {
  width: number;
  height: number;
  /** CIELAB L* per pixel. */
  lightness: Float32Array;
  /** Means of L*, a*, b* and chroma C*. */
  L: number;
  a: number;
  b: number;
  C: number;
  /** RMS contrast: standard deviation of L*. */
  rms: number;
  /** Variance of the 4-neighbour Laplacian of L*: fine detail and edges, what sharpening raises. */
  fine: number;
  /** Median |Laplacian| of L*: the grain of the smooth majority of pixels, what noise reduction lowers (edges barely move a median). */
  grain: number;
  /** RMS of L* less its local mean over ~2 % of the long edge: mid-scale local contrast (clarity). */
  local: number;
  /** Mean L* of the top half less the bottom half: flips under a half turn. */
  topMinusBottom: number;
}

export function measure(image: Image16): Measured {
  const { width, height, data } = image;
  const n = width * height;
  const lin = srgb16ToLinearLut();
  const lightness = new Float32Array(n);
  const lab = new Float64Array(3);
  let sl = 0;
  let sa = 0;
  let sb = 0;
  let sc = 0;
  let top = 0;
  for (let p = 0, i = 0; p < n; p++, i += 3) {
    linearToLab(lin[data[i]!]!, lin[data[i + 1]!]!, lin[data[i + 2]!]!, lab);
    const [l, a, b] = lab as unknown as [number, number, number];
    lightness[p] = l;
    sl += l;
    sa += a;
    sb += b;
    sc += Math.hypot(a, b);
    if (p < (height >> 1) * width) top += l;
  }
  const L = sl / n;
  let sq = 0;
  for (let p = 0; p < n; p++) sq += (lightness[p]! - L) ** 2;
  const half = (height >> 1) * width;
  return {
    width,
    height,
    lightness,
    L,
    a: sa / n,
    b: sb / n,
    C: sc / n,
    rms: Math.sqrt(sq / n),
    ...laplacian(lightness, width, height),
    local: localContrast(lightness, width, height, Math.max(2, Math.round(0.02 * Math.max(width, height)))),
    topMinusBottom: top / half - (sl - top) / (n - half),
  };
}

/** Variance and median absolute value of the 4-neighbour Laplacian of L* (median from a 0.01-wide histogram). */
function laplacian(l: Float32Array, width: number, height: number): { fine: number; grain: number } {
  const BINS = 10000;
  const histogram = new Uint32Array(BINS + 1);
  let sum = 0;
  let sq = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, p = y * width + 1; x < width - 1; x++, p++) {
      const v = 4 * l[p]! - l[p - 1]! - l[p + 1]! - l[p - width]! - l[p + width]!;
      sum += v;
      sq += v * v;
      count++;
      histogram[Math.min(BINS, Math.round(Math.abs(v) * 100))]!++;
    }
  }
  let seen = histogram[0]!;
  let bin = 0;
  while (bin < BINS && seen < count / 2) seen += histogram[++bin]!;
  const mean = sum / count;
  return { fine: sq / count - mean * mean, grain: bin / 100 };
}

/** RMS of L* less its box mean of radius r (an integral image). */
function localContrast(l: Float32Array, width: number, height: number, r: number): number {
  const w1 = width + 1;
  const integral = new Float64Array(w1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += l[y * width + x]!;
      integral[(y + 1) * w1 + x + 1] = integral[y * w1 + x + 1]! + row;
    }
  }
  let sq = 0;
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      const box = integral[y1 * w1 + x1]! - integral[y0 * w1 + x1]! - integral[y1 * w1 + x0]! + integral[y0 * w1 + x0]!;
      const d = l[y * width + x]! - box / ((y1 - y0) * (x1 - x0));
      sq += d * d;
    }
  }
  return Math.sqrt(sq / (width * height));
}

/** Mean L* of `after` over the pixels that are the brightest (top) or darkest (bottom) `fraction` of `before`. */
export function regionLightness(before: Measured, after: Measured, which: 'highlights' | 'shadows', fraction: number): [number, number] {
  if (before.width !== after.width || before.height !== after.height) throw new Error('region measures need images of the same size');
  const sorted = Float32Array.from(before.lightness).sort();
  const n = sorted.length;
  const threshold = which === 'highlights' ? sorted[Math.floor(n * (1 - fraction))]! : sorted[Math.floor(n * fraction)]!;
  let sb = 0;
  let sa = 0;
  let count = 0;
  for (let p = 0; p < n; p++) {
    const v = before.lightness[p]!;
    if (which === 'highlights' ? v >= threshold : v <= threshold) {
      sb += v;
      sa += after.lightness[p]!;
      count++;
    }
  }
  return [sb / count, sa / count];
}

/** The rotation detectStraighten would apply (degrees counter-clockwise); NaN when it is not confident. */
export function lean(image: Image16): number {
  const s = detectStraighten(image);
  return s.confidence > 0 ? s.angle : NaN;
}

/** Normalised cross-correlation of `after`'s middle with `before` turned θ degrees clockwise about its centre (bilinear, every other pixel). */
function turnedCorrelation(before: Measured, after: Measured, degrees: number): number {
  const t = (degrees * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const bx = (before.width - 1) / 2;
  const by = (before.height - 1) / 2;
  const ax = (after.width - 1) / 2;
  const ay = (after.height - 1) / 2;
  const l = before.lightness;
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  let n = 0;
  for (let y = Math.round(ay - after.height / 4); y <= ay + after.height / 4; y += 2) {
    for (let x = Math.round(ax - after.width / 4); x <= ax + after.width / 4; x += 2) {
      const dx = x - ax;
      const dy = y - ay;
      // after(p) = before(R(−θ)(p − centre) + centre): undo the clockwise turn.
      const u = bx + cos * dx + sin * dy;
      const v = by - sin * dx + cos * dy;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const fx = u - x0;
      const fy = v - y0;
      const i = y0 * before.width + x0;
      const top = l[i]! + fx * (l[i + 1]! - l[i]!);
      const bottom = l[i + before.width]! + fx * (l[i + before.width + 1]! - l[i + before.width]!);
      const p = top + fy * (bottom - top);
      const q = after.lightness[y * after.width + x]!;
      sa += p;
      sb += q;
      saa += p * p;
      sbb += q * q;
      sab += p * q;
      n++;
    }
  }
  return (sab - (sa * sb) / n) / Math.sqrt((saa - (sa * sa) / n) * (sbb - (sb * sb) / n));
}

/**
 * How far the content of `after` is turned clockwise from `before`, in degrees: the turn
 * of `before` about its centre whose L* best matches the middle half of `after`
 * (normalised cross-correlation, 0.1° steps within ±maxDegrees, refined by a parabola).
 * Registration, so it needs no straight lines and no judgement of what is level; it
 * assumes, as applyGeometry does, that a turned and cropped photo keeps its scale and centre.
 */
export function turnBetween(before: Measured, after: Measured, maxDegrees = 5): number {
  const STEP = 0.1;
  const steps = Math.round(maxDegrees / STEP);
  const scores: number[] = [];
  for (let k = -steps; k <= steps; k++) scores.push(turnedCorrelation(before, after, k * STEP));
  const best = scores.indexOf(Math.max(...scores));
  const [l, c, r] = [scores[best - 1] ?? scores[best]!, scores[best]!, scores[best + 1] ?? scores[best]!];
  const offset = l - 2 * c + r < 0 ? (0.5 * (l - r)) / (l - 2 * c + r) : 0;
  return (best + offset - steps) * STEP;
}

export { verticalTilt };
