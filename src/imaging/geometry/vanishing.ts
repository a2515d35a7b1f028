import { seededRandom } from '../random.js';
import type { Segment } from './segments.js';

/** A direction in camera coordinates (x right, y down, z forward), unit length: a vanishing point. */
export type Direction = [number, number, number];

export interface VanishingPoint {
  direction: Direction;
  /** Summed length of the segments pointing at it, in source pixels. */
  support: number;
  /** The segments pointing at it. */
  inliers: Segment[];
}

/** Segment residuals above this (degrees) are outliers for the final fit. */
const INLIER_DEGREES = 1;
/** RANSAC accepts this much more while searching, since a candidate from two segments is rough. */
const SEARCH_DEGREES = 2;
const ITERATIONS = 400;
const REFINE_ROUNDS = 8;
/** Residuals below this count as this, so the reweighting stays bounded. */
const L1_FLOOR_DEGREES = 0.05;

/**
 * The vanishing point most of the given segments converge to (or point along, when it
 * lies at infinity). Segments are back-projected to planes through the camera centre
 * (focal length f in pixels, principal point at the image centre); RANSAC over pairs
 * of them, scored by summed inlier length, finds the consensus; iteratively reweighted
 * least absolute deviations on the inliers' plane normals refine it (the direction most
 * nearly lying in all those planes). Null when fewer than three segments agree.
 */
export function findVanishingPoint(segments: Segment[], width: number, height: number, f: number): VanishingPoint | null {
  if (segments.length < 3) return null;
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const planes = segments.map((s) => {
    const n = cross([s.x1 - cx, s.y1 - cy, f], [s.x2 - cx, s.y2 - cy, f]);
    return normalise(n);
  });
  // What residual needs of each segment, worked out once: RANSAC scores every segment 400 times.
  const count = segments.length;
  const midX = new Float64Array(count);
  const midY = new Float64Array(count);
  const runX = new Float64Array(count);
  const runY = new Float64Array(count);
  const runLength = new Float64Array(count);
  segments.forEach((s, i) => {
    midX[i] = (s.x1 + s.x2) / 2 - cx;
    midY[i] = (s.y1 + s.y2) / 2 - cy;
    runX[i] = s.x2 - s.x1;
    runY[i] = s.y2 - s.y1;
    runLength[i] = Math.hypot(runX[i]!, runY[i]!);
  });
  /**
   * Angle (degrees) between segment i and the direction from its midpoint towards u, valid at
   * infinity too; Infinity when its sine is past `cut` (sineAbove of the limit callers compare
   * it with): most segments are outliers, and their arcsine is spared.
   */
  const residual = (u: Direction, i: number, cut: number): number => {
    const dx = f * u[0] - u[2] * midX[i]!;
    const dy = f * u[1] - u[2] * midY[i]!;
    const sine = Math.abs(dx * runY[i]! - dy * runX[i]!) / (Math.hypot(dx, dy) * runLength[i]! + 1e-300);
    if (sine > cut) return Number.POSITIVE_INFINITY;
    return (Math.asin(Math.min(1, sine)) * 180) / Math.PI;
  };
  const score = (u: Direction, limit: number): number => {
    let total = 0;
    const cut = sineAbove(limit);
    for (let i = 0; i < count; i++) {
      const r = residual(u, i, cut);
      if (r < limit) total += segments[i]!.length * (1 - (r / limit) ** 2);
    }
    return total;
  };

  // Pairs drawn in proportion to length: long segments are the accurate ones.
  const cumulative: number[] = [];
  let sum = 0;
  for (const s of segments) {
    sum += s.length;
    cumulative.push(sum);
  }
  // Seeded, so detection is repeatable run to run.
  const random = seededRandom(0x5eed);
  const pick = () => {
    const t = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let best: Direction | null = null;
  let bestScore = 0;
  for (let it = 0; it < ITERATIONS; it++) {
    const a = pick();
    const b = pick();
    if (a === b) continue;
    const n = cross(planes[a]!, planes[b]!);
    if (Math.hypot(n[0], n[1], n[2]) < 1e-9) continue;
    const u = normalise(n);
    const sc = score(u, SEARCH_DEGREES);
    if (sc > bestScore) {
      bestScore = sc;
      best = u;
    }
  }
  if (!best) return null;

  let u = best;
  let inliers: number[] = [];
  for (let round = 0; round < REFINE_ROUNDS; round++) {
    inliers = [];
    const residuals: number[] = [];
    const limit = round === 0 ? SEARCH_DEGREES : INLIER_DEGREES;
    const cut = sineAbove(limit);
    segments.forEach((_, i) => {
      const r = residual(u, i, cut);
      if (r < limit) {
        inliers.push(i);
        residuals.push(r);
      }
    });
    if (inliers.length < 3) return null;
    const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (let k = 0; k < inliers.length; k++) {
      const i = inliers[k]!;
      const n = planes[i]!;
      // Length squared: a longer segment's angle is far more precise. Divided by the
      // residual (iteratively reweighted): least absolute deviations, which a few
      // bent or leaning lines cannot drag the way they drag least squares.
      const w = segments[i]!.length ** 2 / Math.max(residuals[k]!, L1_FLOOR_DEGREES);
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) m[r * 3 + c]! += w * n[r]! * n[c]!;
    }
    u = smallestEigenvector(m);
  }
  const kept = inliers.map((i) => segments[i]!);
  return { direction: u, support: kept.reduce((s, seg) => s + seg.length, 0), inliers: kept };
}

/** A sine past which an angle is surely above limit degrees: the margin (1e-9 relative) dwarfs the rounding of the arcsine. */
function sineAbove(limit: number): number {
  return Math.sin((limit * Math.PI) / 180) * (1 + 1e-9);
}

function cross(a: Direction, b: Direction): Direction {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function normalise(v: Direction): Direction {
  const n = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / n, v[1] / n, v[2] / n];
}

/** The eigenvector of the smallest eigenvalue of a symmetric 3×3 matrix (cyclic Jacobi rotations). */
function smallestEigenvector(matrix: number[]): Direction {
  const a = matrix.slice();
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  for (let sweep = 0; sweep < 30; sweep++) {
    const off = Math.abs(a[1]!) + Math.abs(a[2]!) + Math.abs(a[5]!);
    if (off < 1e-15 * (Math.abs(a[0]!) + Math.abs(a[4]!) + Math.abs(a[8]!))) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ] as const) {
      const apq = a[p * 3 + q]!;
      if (apq === 0) continue;
      const theta = (a[q * 3 + q]! - a[p * 3 + p]!) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k * 3 + p]!;
        const akq = a[k * 3 + q]!;
        a[k * 3 + p] = c * akp - s * akq;
        a[k * 3 + q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p * 3 + k]!;
        const aqk = a[q * 3 + k]!;
        a[p * 3 + k] = c * apk - s * aqk;
        a[q * 3 + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k * 3 + p]!;
        const vkq = v[k * 3 + q]!;
        v[k * 3 + p] = c * vkp - s * vkq;
        v[k * 3 + q] = s * vkp + c * vkq;
      }
    }
  }
  let k = 0;
  if (a[4]! < a[k * 4]!) k = 1;
  if (a[8]! < a[k * 4]!) k = 2;
  return normalise([v[k]!, v[3 + k]!, v[6 + k]!]);
}
