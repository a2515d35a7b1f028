import { arena, reserve, toolKernels } from '../kernels.js';
import type { Box } from '../types.js';
import { blockMean, type BoxHistogram, histogramIn, quantilesOf, sharesOutside, type Plane } from './luma.js';

/** Where a frame's content sits relative to the reference: frame(x + dx, y + dy) shows what reference(x, y) shows. */
export interface Offset {
  dx: number;
  dy: number;
}

/** Pixels this close to a threshold flip between exposures by noise alone; Ward's ±4 of 255 leaves them out. */
const EXCLUSION = 4 / 255;
/**
 * Percentiles each frame is thresholded at. Ward uses the median alone; its single contour can
 * run along one direction only (a window, a bright ramp) and leave the other unconstrained, so
 * the quartiles add two more contours. Percentiles, like the median, mark the same scene
 * brightness in every exposure, provided they are taken over the same part of the scene.
 */
const THRESHOLDS = [0.25, 0.5, 0.75] as const;
type Levels = readonly [number, number, number];
/** Six levels reach ±63 px at the working size, beyond any hand-held wobble between brackets. */
const MAX_LEVELS = 6;
/** Coarsest level keeps at least this many pixels on its short side, so its bitmaps still hold structure. */
const MIN_LEVEL_SIDE = 16;
/** Pixels compared per level at most, in a centred window: plenty to tell one-pixel moves apart. */
const WINDOW_PIXELS = 1 << 19;
/**
 * Moves whose mismatch exceeds the best by less than this share of it, or by less than one
 * standard deviation of a count of that size, fit equally well. Scenes with structure in one
 * direction only (a horizon, motion-blurred streaks) leave the other direction unconstrained,
 * and picking among equals by noise lets the shift drift there from level to level.
 */
const TIE = 0.005;

/** Moves tried per evaluation: every shift of up to REACH pixels either way, no move first. */
const REACH = 2;
const CANDIDATES: readonly (readonly [number, number])[] = (() => {
  const moves: [number, number][] = [[0, 0]];
  for (let sy = -REACH; sy <= REACH; sy++) for (let sx = -REACH; sx <= REACH; sx++) if (sx !== 0 || sy !== 0) moves.push([sx, sy]);
  return moves;
})();
/** Evaluations per level at most (each may move REACH pixels). */
const MAX_EVALUATIONS = 8;

/** Copies the box of the plane into f32 rows of `words` x 32 at `at` in the kernels' memory (the rest of each row is masked off by the kernel). */
function copyBox(memory: ArrayBuffer, at: number, plane: Plane, box: Box, words: number): void {
  const rows = new Float32Array(memory, at, words * 32 * box.height);
  for (let y = 0; y < box.height; y++) {
    const from = (box.y + y) * plane.width + box.x;
    rows.set(plane.data.subarray(from, from + box.width), y * words * 32);
  }
}

/**
 * For each of CANDIDATES, the share of the window where the threshold bitmaps of the reference
 * (over `box`) and of the frame (over `grown`, the box moved by the current estimate and grown
 * by REACH) disagree, both pixels outside their exclusion bands, summed over the thresholds
 * usable in both. In the WebAssembly kernels: thresholdBitmaps makes each frame's bitmaps (32
 * pixels to a word, three thresholds in one pass), mismatchCounts compares them at every move
 * with XOR, AND and popcount.
 */
function moveErrors(r: Plane, box: Box, refThresholds: readonly [number, number, number], m: Plane, grown: Box, movThresholds: readonly [number, number, number]): number[] {
  const words = (box.width + 31) >> 5;
  const movWords = (grown.width + 31) >> 5;
  const k = toolKernels();
  const l = arena({
    ref: words * 128 * box.height,
    mov: movWords * 128 * grown.height,
    refBits: words * 24 * box.height,
    movBits: movWords * 24 * grown.height,
    scratch: words * 8 * grown.height,
    counts: CANDIDATES.length * 4,
  });
  reserve(k, l.end);
  copyBox(k.memory.buffer, l.ref, r, box, words);
  copyBox(k.memory.buffer, l.mov, m, grown, movWords);
  k.thresholdBitmaps(l.ref, box.height, words, box.width, ...refThresholds, EXCLUSION, l.refBits);
  k.thresholdBitmaps(l.mov, grown.height, movWords, grown.width, ...movThresholds, EXCLUSION, l.movBits);
  const errors = CANDIDATES.map(() => 0);
  const compared = box.width * box.height;
  const side = 2 * REACH + 1;
  THRESHOLDS.forEach((_, t) => {
    if (!usable(refThresholds[t]!) || !usable(movThresholds[t]!)) return;
    k.mismatchCounts(l.refBits + 8 * t * words * box.height, words, box.height, l.movBits + 8 * t * movWords * grown.height, movWords, REACH, l.scratch, l.counts);
    const counts = new Int32Array(k.memory.buffer, l.counts, side * side);
    CANDIDATES.forEach(([sx, sy], i) => {
      errors[i] += counts[(sy + REACH) * side + sx + REACH]! / compared;
    });
  });
  return errors;
}

/**
 * The part of a width x height level compared when the frame is estimated at (dx, dy): where
 * the frame, moved by the estimate and up to REACH pixels more either way, still covers it; centred and
 * at most WINDOW_PIXELS. Null when nothing is left.
 */
function comparedWindow(width: number, height: number, dx: number, dy: number): Box | null {
  const x0 = Math.max(0, REACH - dx);
  const x1 = Math.min(width, width - dx - REACH);
  const y0 = Math.max(0, REACH - dy);
  const y1 = Math.min(height, height - dy - REACH);
  if (x1 - x0 < 8 || y1 - y0 < 8) return null;
  const scale = Math.min(1, Math.sqrt(WINDOW_PIXELS / ((x1 - x0) * (y1 - y0))));
  const w = Math.floor((x1 - x0) * scale);
  const h = Math.floor((y1 - y0) * scale);
  return { x: x0 + ((x1 - x0 - w) >> 1), y: y0 + ((y1 - y0 - h) >> 1), width: w, height: h };
}

/**
 * A threshold inside a clipped plateau (at white or black) is no contour: the scene there is
 * brighter or darker than the frame can tell, so the other exposure's contour has no match.
 */
function usable(threshold: number): boolean {
  return threshold > EXCLUSION && threshold < 1 - EXCLUSION;
}

/**
 * Each frame's thresholds: the luma at THRESHOLDS of its pixels, as long as each lies clear of
 * black and white in both frames. Where one frame is largely clipped (the +2 EV frame of a bright,
 * low-contrast scene: 72 % white on `chateau-maintenon` made high-key), its median and upper
 * quartile sit in the white plateau and are skipped, and the one contour left runs along the
 * ramp's shoulder, where it fixed nothing: that frame came out at (0, 0), 6 px off, and the ghost
 * check replaced it from the reference. There the THRESHOLDS are spread over the ranks neither
 * frame has clipped instead (the darkest and brightest shares either frame clips cut off): exposure
 * keeps the order of scene brightness, so equal ranks still mark one scene contour in both.
 */
function contourLevels(ref: BoxHistogram, mov: BoxHistogram): [Levels, Levels] {
  const plain: [Levels, Levels] = [quantilesOf(ref, THRESHOLDS), quantilesOf(mov, THRESHOLDS)];
  if (plain.every((levels) => levels.every(usable))) return plain;
  const a = sharesOutside(ref, EXCLUSION, 1 - EXCLUSION);
  const b = sharesOutside(mov, EXCLUSION, 1 - EXCLUSION);
  const low = Math.max(a.below, b.below);
  const high = 1 - Math.max(a.above, b.above);
  if (high <= low) return plain;
  const ranks = THRESHOLDS.map((t) => low + t * (high - low)) as unknown as typeof THRESHOLDS;
  return [quantilesOf(ref, ranks), quantilesOf(mov, ranks)];
}

/** reuse[i] when it holds `length` floats, else a new array, left there for the next call. */
function reusedPlane(reuse: Float32Array[], i: number, length: number): Float32Array {
  if (reuse[i]?.length !== length) reuse[i] = new Float32Array(length);
  return reuse[i]!;
}

/**
 * Luma from full size down, each level 2 x 2 means of the one before: what alignment compares.
 * `half`, when given, is blockMean(luma, 2) already made (merge.ts makes it in the luma pass).
 * Level l is made into reuse[l] as reusedPlane does.
 */
export function lumaPyramid(luma: Plane, half?: Plane, reuse: Float32Array[] = []): Plane[] {
  const levels = [luma];
  while (levels.length < MAX_LEVELS) {
    const top = levels[levels.length - 1]!;
    if (Math.min(top.width, top.height) < 2 * MIN_LEVEL_SIDE) break;
    const out = () => reusedPlane(reuse, levels.length, Math.ceil(top.width / 2) * Math.ceil(top.height / 2));
    levels.push(levels.length === 1 && half ? half : blockMean(top, 2, out()));
  }
  return levels;
}

/**
 * At one level, with the frame estimated at (dx, dy): which move of up to REACH pixels fits best.
 * Of moves that fit equally well, the one nearest no shift at all. Both frames are thresholded
 * at percentiles taken over the same part of the scene (the compared window, and where the
 * estimate puts it in the frame): percentiles of the whole frames would differ with their
 * crops, which on a brightness ramp moves the contours with the frame and hides the very shift
 * being measured. Null when the level leaves nothing to compare.
 */
function bestMove(r: Plane, m: Plane, dx: number, dy: number): readonly [number, number] | null {
  const box = comparedWindow(r.width, r.height, dx, dy);
  if (!box) return null;
  const [refThresholds, movThresholds] = contourLevels(histogramIn(r, box), histogramIn(m, { ...box, x: box.x + dx, y: box.y + dy }));
  const grown = { x: box.x + dx - REACH, y: box.y + dy - REACH, width: box.width + 2 * REACH, height: box.height + 2 * REACH };
  const errors = moveErrors(r, box, refThresholds, m, grown, movThresholds);
  const least = Math.min(...errors);
  const compared = box.width * box.height;
  const limit = least + Math.max(least * TIE, Math.sqrt(least * compared + 1) / compared);
  let best = CANDIDATES[0]!;
  let nearest = Infinity;
  CANDIDATES.forEach((candidate, i) => {
    const size = Math.abs(dx + candidate[0]) + Math.abs(dy + candidate[1]);
    if (errors[i]! <= limit && size < nearest) {
      nearest = size;
      best = candidate;
    }
  });
  return best;
}

/**
 * Ward's coarse-to-fine search: at each level, start from twice the coarser answer and take
 * the best small move. Ward tries one-pixel moves once per level; here moves reach two pixels,
 * and when the best lies on that rim (so a better one may lie beyond) the search goes on from
 * there. That climbs back out when a coarse level, with little to go on, has sent the estimate
 * astray, at the cost of one evaluation per level when it has not.
 */
function alignPair(ref: Plane[], mov: Plane[]): Offset {
  let dx = 0;
  let dy = 0;
  for (let level = ref.length - 1; level >= 0; level--) {
    dx *= 2;
    dy *= 2;
    for (let evaluation = 0; evaluation < MAX_EVALUATIONS; evaluation++) {
      const move = bestMove(ref[level]!, mov[level]!, dx, dy);
      if (!move) break;
      dx += move[0];
      dy += move[1];
      if (Math.max(Math.abs(move[0]), Math.abs(move[1])) < REACH) break;
    }
  }
  return { dx, dy };
}

/**
 * Translation of a frame (given by its luma, and `half` as lumaPyramid takes it) against the
 * reference (given by its lumaPyramid, made once for every frame) by median-threshold bitmaps
 * (Ward 2003), which compare the structure of differently exposed frames without knowing the
 * camera response. Integer pixels.
 */
export function alignToReference(reference: Plane[], frame: Plane, half?: Plane): Offset {
  return alignPair(reference, lumaPyramid(frame, half));
}

/** alignToReference for every frame against lumas[reference], which gets {0, 0}. */
export function alignFrames(lumas: Plane[], reference: number): Offset[] {
  const ref = lumaPyramid(lumas[reference]!);
  return lumas.map((luma, i) => (i === reference ? { dx: 0, dy: 0 } : alignToReference(ref, luma)));
}

/** A frame's roll against the reference, in radians (positive clockwise on screen), and its shift at the centre. */
export interface Roll {
  angle: number;
  dx: number;
  dy: number;
}

/** Copies the w x h box at (x0, y0) of the plane into `data` (w x h floats). */
function cut(plane: Plane, x0: number, y0: number, w: number, h: number, data: Float32Array): Plane {
  for (let y = 0; y < h; y++) data.set(plane.data.subarray((y0 + y) * plane.width + x0, (y0 + y) * plane.width + x0 + w), y * w);
  return { width: w, height: h, data };
}

/**
 * The window around (cx, cy), size w x h, clamped inside the luma, with its alignment pyramid,
 * its level l in reuse[l] (reusedPlane). Where the window's 2 x 2 blocks are the luma's own
 * (even corner and size), its second level is cut from the luma's half-size plane when given
 * (blockMean(luma, 2)): the same values, without reducing the window again.
 */
function windowPyramid(luma: Plane, half: Plane | undefined, cx: number, cy: number, w: number, h: number, reuse: Float32Array[]): Plane[] {
  const x0 = Math.max(0, Math.min(luma.width - w, Math.round(cx - w / 2)));
  const y0 = Math.max(0, Math.min(luma.height - h, Math.round(cy - h / 2)));
  const window = cut(luma, x0, y0, w, h, reusedPlane(reuse, 0, w * h));
  const aligned = half && (x0 | y0 | w | h) % 2 === 0;
  return lumaPyramid(window, aligned ? cut(half, x0 >> 1, y0 >> 1, w >> 1, h >> 1, reusedPlane(reuse, 1, (w >> 1) * (h >> 1))) : undefined, reuse);
}

/**
 * Planes of the window pyramids rollWindowMoves fills and drops again, kept for the next window
 * of the same size on the same thread (a shared job's arguments reach each thread as a copy of
 * its own): the reference's, and one frame's at a time. Fresh planes for every window of every
 * frame came to 8 MB for a 868 x 600 bracket and 26 MB for a 2560 x 1600 one, each page
 * touched afresh in a new process and collected after.
 */
export interface WindowScratch {
  reference: Float32Array[];
  frame: Float32Array[];
}

export function windowScratch(): WindowScratch {
  return { reference: [], frame: [] };
}

/** Share of a window's pixels, in both frames, that must lie clear of black and white for its move to count. */
const MIN_USABLE_SHARE = 0.6;
/** Grid of windows a roll is measured from (GRID x GRID). */
const GRID = 4;

/** Share of the plane's pixels neither near black nor near white: where a window has structure to align. */
function usableShare(plane: Plane): number {
  const { data } = plane;
  const k = toolKernels();
  const l = arena({ src: 4 * data.length });
  reserve(k, l.end);
  new Float32Array(k.memory.buffer, l.src, data.length).set(data);
  return k.countBetween(l.src, data.length, 0.04, 0.96) / data.length;
}

/** Largest residual (px) of a window's move against the fitted roll; windows beyond it are dropped as mismatched, the worst first. */
const MAX_RESIDUAL = 2;
/** Fewest windows a roll is fitted from. */
const MIN_WINDOWS = 4;

export interface WindowMove {
  qx: number;
  qy: number;
  rx: number;
  ry: number;
}

/** Least squares for (tx, ty, angle) in r = t + angle x (−q.y, q.x); null when the windows do not fix the angle. */
function fitRoll(moves: WindowMove[]): { tx: number; ty: number; angle: number } | null {
  const n = moves.length;
  let qx = 0;
  let qy = 0;
  let qq = 0;
  let rx = 0;
  let ry = 0;
  let c = 0;
  for (const m of moves) {
    qx += m.qx;
    qy += m.qy;
    qq += m.qx * m.qx + m.qy * m.qy;
    rx += m.rx;
    ry += m.ry;
    c += -m.qy * m.rx + m.qx * m.ry;
  }
  // The window centres are not centred on 0 once some are left out: t and the angle are solved together.
  const denominator = qq - (qx * qx + qy * qy) / n;
  if (!(denominator > 1e-9 * qq)) return null;
  const angle = (c - (-qy * rx + qx * ry) / n) / denominator;
  return { angle, tx: (rx + qy * angle) / n, ty: (ry - qx * angle) / n };
}

/** Windows a roll is measured from (a GRID x GRID grid), each aligned on its own (rollWindowMoves). */
export const ROLL_WINDOWS = GRID * GRID;

/**
 * How window `index` of the roll grid moved between the reference and each frame (already
 * placed at its offset; `half` as windowPyramid takes it): its centre relative to the frame's
 * centre, and its residual move. Null
 * for a frame when either it or the reference sees the window too dark or too bright to align
 * (for every frame when the reference does). The reference's window is cut out once for all frames.
 */
export function rollWindowMoves(reference: { luma: Plane; half?: Plane }, frames: { luma: Plane; half?: Plane; offset: Offset }[], index: number, scratch = windowScratch()): (WindowMove | null)[] {
  const { width, height } = reference.luma;
  const w = Math.floor(width / GRID);
  const h = Math.floor(height / GRID);
  const cx = ((index % GRID) + 0.5) * w;
  const cy = (Math.floor(index / GRID) + 0.5) * h;
  const ref = windowPyramid(reference.luma, reference.half, cx, cy, w, h, scratch.reference);
  if (usableShare(ref[0]!) < MIN_USABLE_SHARE) return frames.map(() => null);
  return frames.map(({ luma, half, offset }) => {
    const m = windowPyramid(luma, half, cx + offset.dx, cy + offset.dy, w, h, scratch.frame);
    if (usableShare(m[0]!) < MIN_USABLE_SHARE) return null;
    const local = alignPair(ref, m);
    return { qx: cx - width / 2, qy: cy - height / 2, rx: local.dx, ry: local.dy };
  });
}

/**
 * A hand-held frame's roll from its windows' moves (rollWindowMoves over the grid, median-
 * threshold bitmaps again, each starting from the whole frame's offset); a rotation by a small
 * angle moves a window centre q by angle x (−q.y, q.x), so the angle is the least-squares fit of
 * the windows' residual moves. Only windows both frames see clear of black and white count (a
 * bracket's dark frame is black on one side, its bright frame white on the other); windows that
 * disagree with the fit by more than MAX_RESIDUAL px are dropped, the worst first, down to
 * MIN_WINDOWS; if fewer agree, no roll is measured (angle 0, the offset as given). A roll of 1°
 * moves the outer window centres of a 3000 px frame by about 17 px, within the search's reach;
 * whole-pixel moves give the angle to a few hundredths of a degree there.
 */
export function rollFromWindows(windows: (WindowMove | null)[], offset: Offset): Roll {
  let moves = windows.filter((m): m is WindowMove => m !== null);
  const none = { angle: 0, ...offset };
  while (moves.length >= MIN_WINDOWS) {
    const fit = fitRoll(moves);
    if (!fit) return none;
    const residuals = moves.map((m) => Math.hypot(m.rx - fit.tx + fit.angle * m.qy, m.ry - fit.ty - fit.angle * m.qx));
    const worst = residuals.indexOf(Math.max(...residuals));
    if (residuals[worst]! <= MAX_RESIDUAL) return { angle: fit.angle, dx: offset.dx + fit.tx, dy: offset.dy + fit.ty };
    moves = moves.filter((_, i) => i !== worst);
  }
  return none;
}
