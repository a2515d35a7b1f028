import type { RgbImage } from '../types.js';
import { downscaledGrey, type Grey } from './grey.js';

/** A straight line segment, in source pixel coordinates (x right, y down). */
export interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** Pixels of the source image. */
  length: number;
  /** Direction in degrees, 0 ≤ angle < 180, from +x towards +y: 0 horizontal, 90 vertical. */
  angle: number;
}

export interface SegmentOptions {
  /** Long edge of the analysis copy (default 1024). */
  maxEdge?: number;
  /** Shortest segment kept, as a fraction of the analysis copy's long edge (default 0.015). */
  minLength?: number;
}

/** Largest angle between a pixel's level line and its region's (LSD's 22.5°). */
const TOLERANCE = Math.PI / 8;
/** Gradients below this carry only quantisation noise: 2 grey levels / sin(tolerance), LSD's rule, on 0..1 values. */
const MIN_GRADIENT = 2 / 255 / Math.sin(TOLERANCE);
/** Fraction of a segment's rectangle its region must fill; lower means a curve or a blob. */
const MIN_DENSITY = 0.7;
const MAGNITUDE_BINS = 1024;
/** Gradients this close to the edge of the frame are ignored. */
const BORDER = 2;
/** How many times a curved region may be halved in search of straight pieces. */
const MAX_SPLITS = 4;
/** How far across a segment (pixels) refinement looks for the edge. */
const REFINE_REACH = 2;
/** Pieces of one edge: directions within this many degrees, ends within MERGE_OFFSET pixels of the line. */
const MERGE_DEGREES = 1.5;
const MERGE_OFFSET = 1.5;

/**
 * Straight segments of an image, found on a grey copy of at most 1024 px: regions of
 * pixels whose gradient orientation agrees are grown (the idea of LSD, von Gioi et al.
 * 2010, with a density test in place of its a-contrario validation), each fitted by its
 * magnitude-weighted principal axis, refined to sub-pixel on the edge profile, and pieces
 * of one edge merged.
 */
export function detectSegments(image: RgbImage, options: SegmentOptions = {}): Segment[] {
  return segmentsOfGrey(downscaledGrey(image, options.maxEdge ?? 1024), options.minLength ?? 0.015);
}

/** Direction of the line through two points in degrees, 0 ≤ angle < 180 (Segment.angle). */
export function lineAngle(x1: number, y1: number, x2: number, y2: number): number {
  const deg = (Math.atan2(y2 - y1, x2 - x1) * 180) / Math.PI;
  return deg < 0 ? (deg + 180) % 180 : deg % 180;
}

function segmentsOfGrey(grey: Grey, minLengthFraction: number): Segment[] {
  const smooth = blur121(grey);
  const gw = grey.width - 1;
  const gh = grey.height - 1;
  if (gw < 2 || gh < 2) return [];
  const n = gw * gh;
  const { magnitude, angle, strong, maxMagnitude } = gradients(smooth, grey.width, gw, gh);
  if (maxMagnitude <= MIN_GRADIENT) return [];
  const order = seedOrder(magnitude, strong, maxMagnitude);
  const usable = order.length;

  const region = new Int32Array(n);
  // A region to fit, pixel by pixel: column, row and gradient magnitude, which the fit reads
  // many times over as it halves curved regions (single precision holds all three exactly).
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  const ms = new Float32Array(n);
  const minLength = Math.max(6, minLengthFraction * Math.max(grey.width, grey.height));
  const lines: Line[] = [];
  const f = grey.factor;
  const toSource = (v: number) => v * f + (f - 1) / 2;
  // The 8-neighbours, row by row.
  const neighbours = Int32Array.of(-gw - 1, -gw, -gw + 1, -1, 1, gw - 1, gw, gw + 1);

  for (let k = usable - 1; k >= 0; k--) {
    const seed = order[k]!;
    // Taken by a region grown from a stronger seed.
    if (Number.isNaN(angle[seed]!)) continue;
    const size = grow(seed, angle, region, neighbours);
    if (size < minLength) continue;
    for (let r = 0; r < size; r++) {
      const p = region[r]!;
      const y = Math.floor(p / gw);
      xs[r] = p - y * gw;
      ys[r] = y;
      ms[r] = magnitude[p]!;
    }
    fitPieces(0, size, 0);
  }
  return mergeCollinear(lines, smooth, grey.width, grey.height).map(({ x1, y1, x2, y2 }) => ({
    x1: toSource(x1),
    y1: toSource(y1),
    x2: toSource(x2),
    y2: toSource(y2),
    length: Math.hypot(x2 - x1, y2 - y1) * f,
    angle: lineAngle(x1, y1, x2, y2),
  }));

  /**
   * Fits a straight segment to pixels [from, to) of xs, ys, ms. A region that fills too little of its
   * rectangle is a curve (lens distortion bends long edges) or two edges meeting: it is
   * split in two along its axis and each half fitted, up to MAX_SPLITS levels deep.
   */
  function fitPieces(from: number, to: number, depth: number): void {
    const count = to - from;
    if (count < minLength) return;
    let sw = 0;
    let sx = 0;
    let sy = 0;
    for (let r = from; r < to; r++) {
      const m = ms[r]!;
      sw += m;
      sx += m * xs[r]!;
      sy += m * ys[r]!;
    }
    const cx = sx / sw;
    const cy = sy / sw;
    let cxx = 0;
    let cyy = 0;
    let cxy = 0;
    for (let r = from; r < to; r++) {
      const m = ms[r]!;
      const ddx = xs[r]! - cx;
      const ddy = ys[r]! - cy;
      cxx += m * ddx * ddx;
      cyy += m * ddy * ddy;
      cxy += m * ddx * ddy;
    }
    // The principal axis of the magnitude-weighted pixels.
    const theta = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
    const ux = Math.cos(theta);
    const uy = Math.sin(theta);
    let lo = Infinity;
    let hi = -Infinity;
    let wlo = Infinity;
    let whi = -Infinity;
    for (let r = from; r < to; r++) {
      const ddx = xs[r]! - cx;
      const ddy = ys[r]! - cy;
      const along = ddx * ux + ddy * uy;
      const across = -ddx * uy + ddy * ux;
      if (along < lo) lo = along;
      if (along > hi) hi = along;
      if (across < wlo) wlo = across;
      if (across > whi) whi = across;
    }
    const length = hi - lo + 1;
    if (length < minLength) return;
    if (count / (length * (whi - wlo + 1)) < MIN_DENSITY) {
      if (depth >= MAX_SPLITS) return;
      // Partition in place about the middle of the axis, then fit each half.
      const middle = (lo + hi) / 2;
      let a = from;
      let b = to - 1;
      while (a <= b) {
        if ((xs[a]! - cx) * ux + (ys[a]! - cy) * uy < middle) a++;
        else {
          swap(xs, a, b);
          swap(ys, a, b);
          swap(ms, a, b--);
        }
      }
      fitPieces(from, a, depth + 1);
      fitPieces(a, to, depth + 1);
      return;
    }
    // Gradient samples sit between pixels, half a pixel right and down of their index;
    // from here on coordinates are the grey image's pixel centres.
    lines.push(refineLine(smooth, grey.width, grey.height, cx + 0.5, cy + 0.5, ux, uy, lo, hi));
  }
}

function swap(values: Float32Array, i: number, j: number): void {
  const v = values[i]!;
  values[i] = values[j]!;
  values[j] = v;
}

/** The 2×2 gradients of segmentsOfGrey, on a gw × gh grid between the pixels of a w-wide image. */
interface Gradients {
  magnitude: Float32Array;
  /**
   * Level-line orientation, radians, of the pixels that may join a region; NaN for the others
   * (too weak, in the border, or taken by a region): growth tests one number a neighbour.
   */
  angle: Float32Array;
  /** The others, in index order. */
  strong: Int32Array;
  maxMagnitude: number;
}

function gradients(smooth: Float32Array, w: number, gw: number, gh: number): Gradients {
  const n = gw * gh;
  const magnitude = new Float32Array(n);
  const angle = new Float32Array(n).fill(Number.NaN);
  const strong = new Int32Array(n);
  let usable = 0;
  let maxMagnitude = 0;
  // 2×2 gradients, centred between pixels: the smallest support, so neighbouring
  // orientations are as independent as they can be (LSD's choice). Photo borders carry
  // scanner lines, resampling edges and frames, not scene lines: BORDER pixels are skipped.
  for (let y = BORDER; y < gh - BORDER; y++) {
    for (let x = BORDER, p = y * w + BORDER, i = y * gw + BORDER; x < gw - BORDER; x++, p++, i++) {
      const a = smooth[p]!;
      const b = smooth[p + 1]!;
      const c = smooth[p + w]!;
      const d = smooth[p + w + 1]!;
      const gx = (b + d - a - c) / 2;
      const gy = (c + d - a - b) / 2;
      const m = Math.sqrt(gx * gx + gy * gy);
      magnitude[i] = m;
      // Only pixels above MIN_GRADIENT seed or join regions, decided on the stored (single-precision)
      // magnitude, which the seed order sorts; one the rounding lifted above it has orientation 0.
      if (magnitude[i]! > MIN_GRADIENT) {
        angle[i] = m > MIN_GRADIENT ? Math.atan2(gx, -gy) : 0;
        strong[usable++] = i;
      }
      if (m > maxMagnitude) maxMagnitude = m;
    }
  }
  return { magnitude, angle, strong: strong.subarray(0, usable), maxMagnitude };
}

/** The strong pixels, weakest first, through a bucket sort on magnitude (LSD's pseudo-ordering): seeds are taken from the end. */
function seedOrder(magnitude: Float32Array, strong: Int32Array, maxMagnitude: number): Int32Array {
  const bins = new Int32Array(MAGNITUDE_BINS + 1);
  const binOf = new Int32Array(strong.length);
  for (let k = 0; k < strong.length; k++) {
    const bin = Math.min(MAGNITUDE_BINS - 1, Math.floor((magnitude[strong[k]!]! / maxMagnitude) * MAGNITUDE_BINS));
    binOf[k] = bin;
    bins[bin + 1]!++;
  }
  for (let b = 1; b <= MAGNITUDE_BINS; b++) bins[b]! += bins[b - 1]!;
  const order = new Int32Array(strong.length);
  for (let k = 0; k < strong.length; k++) order[bins[binOf[k]!]!++] = strong[k]!;
  return order;
}

/**
 * Grows a region from seed into region (returning its size): 8-connected neighbours whose
 * level-line angle is within the tolerance of the region's mean join it, and are marked taken
 * (their angle NaN).
 */
function grow(seed: number, angle: Float32Array, region: Int32Array, neighbours: Int32Array): number {
  let size = 0;
  region[size++] = seed;
  let regionAngle = angle[seed]!;
  angle[seed] = Number.NaN;
  let sumCos = Math.cos(regionAngle);
  let sumSin = Math.sin(regionAngle);
  for (let r = 0; r < size; r++) {
    const p = region[r]!;
    // A region's pixels lie BORDER inside the frame (nearer ones are taken), so every neighbour is inside it.
    for (let j = 0; j < 8; j++) {
      const q = p + neighbours[j]!;
      const a = angle[q]!;
      let diff = Math.abs(a - regionAngle);
      if (diff > Math.PI) diff = 2 * Math.PI - diff;
      // Written so that a taken neighbour's NaN fails it.
      if (!(diff <= TOLERANCE)) continue;
      angle[q] = Number.NaN;
      region[size++] = q;
      sumCos += Math.cos(a);
      sumSin += Math.sin(a);
      regionAngle = Math.atan2(sumSin, sumCos);
    }
  }
  return size;
}

/** A segment in analysis pixel coordinates. */
interface Line {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * Joins pieces of one straight edge that occlusions, texture or a window broke apart:
 * segments within MERGE_DEGREES of each other, whose ends lie within MERGE_OFFSET pixels
 * of the longer one's line, with a gap no longer than the longer piece, become one
 * segment, refitted over the whole extent. A 300 px edge is measured far more precisely
 * than six 40 px pieces of it, and it counts as the one line it is.
 */
function mergeCollinear(lines: Line[], img: Float32Array, w: number, h: number): Line[] {
  const length = (l: Line) => Math.hypot(l.x2 - l.x1, l.y2 - l.y1);
  // The pieces do not change (a merge makes a new line): their lengths are measured once.
  const lengths = Float64Array.from(lines, length);
  const order = lines.map((_, i) => i).sort((a, b) => lengths[b]! - lengths[a]!);
  const alive = new Uint8Array(lines.length).fill(1);
  const maxTurn = Math.sin((MERGE_DEGREES * Math.PI) / 180);
  const merged: Line[] = [];
  for (const i of order) {
    if (!alive[i]) continue;
    alive[i] = 0;
    let a = lines[i]!;
    for (let grown = true; grown; ) {
      grown = false;
      const la = length(a);
      const ux = (a.x2 - a.x1) / la;
      const uy = (a.y2 - a.y1) / la;
      for (const j of order) {
        if (!alive[j]) continue;
        const b = lines[j]!;
        const lb = lengths[j]!;
        if (Math.abs((ux * (b.y2 - b.y1) - uy * (b.x2 - b.x1)) / lb) > maxTurn) continue;
        const off1 = -uy * (b.x1 - a.x1) + ux * (b.y1 - a.y1);
        const off2 = -uy * (b.x2 - a.x1) + ux * (b.y2 - a.y1);
        if (Math.abs(off1) > MERGE_OFFSET || Math.abs(off2) > MERGE_OFFSET) continue;
        const t1 = ux * (b.x1 - a.x1) + uy * (b.y1 - a.y1);
        const t2 = ux * (b.x2 - a.x1) + uy * (b.y2 - a.y1);
        const gap = Math.max(Math.min(t1, t2) - la, -Math.max(t1, t2), 0);
        if (gap > Math.max(la, lb)) continue;
        const lo = Math.min(0, t1, t2);
        const hi = Math.max(la, t1, t2);
        a = refineLine(img, w, h, a.x1, a.y1, ux, uy, lo, hi);
        alive[j] = 0;
        grown = true;
        break;
      }
    }
    merged.push(a);
  }
  return merged;
}

/**
 * Moves a fitted segment onto the edge it came from, to a fraction of a pixel. Along the
 * pixel rows (for a steep segment) or columns (for a flat one), the derivative across the
 * edge is taken at pixel centres, its peak near the segment located by a parabola through
 * the strongest sample and its neighbours, and a weighted least-squares line fitted to
 * the peaks. A region fit is quantised to the pixel grid (a short piece of a slightly
 * tilted edge looks exactly vertical); the peaks are not, and sampling on the grid
 * itself avoids the bias interpolated profiles would add.
 */
function refineLine(img: Float32Array, w: number, h: number, cx: number, cy: number, ux: number, uy: number, lo: number, hi: number): Line {
  // (cx, cy) + t·(ux, uy), lo ≤ t ≤ hi: the segment in pixel-centre coordinates of img.
  const fallback = { x1: cx + lo * ux, y1: cy + lo * uy, x2: cx + hi * ux, y2: cy + hi * uy };
  const steep = Math.abs(uy) >= Math.abs(ux);
  // In the steep case rows are indexed by y and the edge is found along x; otherwise transposed.
  const along0 = steep ? Math.min(fallback.y1, fallback.y2) : Math.min(fallback.x1, fallback.x2);
  const along1 = steep ? Math.max(fallback.y1, fallback.y2) : Math.max(fallback.x1, fallback.x2);
  const slope = steep ? ux / uy : uy / ux;
  const base = steep ? cx - cy * slope : cy - cx * slope;
  const across = steep ? w : h;
  const alongSize = steep ? h : w;
  const stepAcross = steep ? 1 : w;
  const stepAlong = steep ? w : 1;
  let s0 = 0;
  let s1 = 0;
  let st = 0;
  let stt = 0;
  let sct = 0;
  let count = 0;
  for (let t = Math.max(1, Math.ceil(along0)); t <= Math.min(alongSize - 2, Math.floor(along1)); t++) {
    const predicted = base + slope * t;
    const c0 = Math.round(predicted);
    if (c0 - REFINE_REACH - 1 < 1 || c0 + REFINE_REACH + 1 > across - 2) continue;
    let best = 0;
    let bestValue = -1;
    let sign = 0;
    const row = t * stepAlong;
    const d = (c: number) => img[row + (c + 1) * stepAcross]! - img[row + (c - 1) * stepAcross]!;
    for (let c = c0 - REFINE_REACH; c <= c0 + REFINE_REACH; c++) {
      const v = Math.abs(d(c));
      if (v > bestValue) {
        bestValue = v;
        best = c;
        sign = Math.sign(d(c));
      }
    }
    if (best === c0 - REFINE_REACH || best === c0 + REFINE_REACH || bestValue < MIN_GRADIENT) continue;
    const a = sign * d(best - 1);
    const b = bestValue;
    const c = sign * d(best + 1);
    const curvature = a - 2 * b + c;
    if (curvature >= 0) continue;
    const peak = best + (0.5 * (a - c)) / curvature;
    s0 += b;
    s1 += b * peak;
    st += b * t;
    stt += b * t * t;
    sct += b * t * peak;
    count++;
  }
  if (count < 4) return fallback;
  const meanT = st / s0;
  const meanC = s1 / s0;
  const varT = stt / s0 - meanT * meanT;
  if (varT <= 0) return fallback;
  const fitted = (sct / s0 - meanT * meanC) / varT;
  const offset = meanC - fitted * meanT;
  // Keep the original extent along the segment.
  const end = (t: number): [number, number] => (steep ? [offset + fitted * t, t] : [t, offset + fitted * t]);
  const [x1, y1] = end(steep ? fallback.y1 : fallback.x1);
  const [x2, y2] = end(steep ? fallback.y2 : fallback.x2);
  return { x1, y1, x2, y2 };
}

/** A [1 2 1]/4 blur in both directions: takes JPEG block noise off the gradients without moving edges. */
function blur121(grey: Grey): Float32Array {
  const { width: w, height: h, data } = grey;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let x = 0; x < w; x++) {
      const l = data[row + (x > 0 ? x - 1 : x)]!;
      const r = data[row + (x < w - 1 ? x + 1 : x)]!;
      tmp[row + x] = (l + 2 * data[row + x]! + r) / 4;
    }
  }
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : y) * w;
    const down = (y < h - 1 ? y + 1 : y) * w;
    const row = y * w;
    for (let x = 0; x < w; x++) out[row + x] = (tmp[up + x]! + 2 * tmp[row + x]! + tmp[down + x]!) / 4;
  }
  return out;
}
