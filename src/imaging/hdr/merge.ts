import { assertIntegerInRange, invalidParameterError } from '../args.js';
import { isShared, sharedFloat32, sharedUint16, spreads } from '../bands.js';
import { assertImage16, resizeImage16, sizeForLongEdge } from '../image16.js';
import type { Image16 } from '../types.js';
import { lumaPyramid, type Offset, ROLL_WINDOWS, rollFromWindows, type WindowMove, windowScratch } from './align.js';
import { frameShifts, lumaPlanes, prepareFrames, rollWindows } from './frame-steps.js';
import { fuseExposures } from './fusion.js';
import { emptyFrame } from './shift.js';
import { sampleFrame, sampleStep } from './transfer.js';

/**
 * Long edge of a merged bracket in pixels unless told otherwise. Reference §4.6 lets HDR
 * outputs be smaller than the originals; 3000 px (about 6 MP at 3:2) is more than listing
 * sites show, and fusing at that size rather than 24+ MP keeps a merge to about a second.
 */
export const DEFAULT_OUTPUT_LONG_EDGE = 3000;
export const MIN_BRACKET_FRAMES = 3;
export const MAX_BRACKET_FRAMES = 9;
/**
 * A roll is corrected when it moves the frame's edge midpoints by at least this many pixels:
 * less is within what fusion tolerates, and resampling would soften the frame for nothing.
 */
const MIN_ROLL_PIXELS = 1.5;
/** Short side below which a pyramid has too few levels to blend (and alignment nothing to go on). */
const MIN_SIDE = 8;

export interface MergeOptions {
  /** Long edge of the result in pixels (default DEFAULT_OUTPUT_LONG_EDGE); frames are never enlarged. */
  outputLongEdge?: number;
  /** The frame the others are aligned to and ghosts are resolved from; default the middle exposure. */
  referenceIndex?: number;
  /** Suppress moving objects so they do not appear doubled (default true). */
  deghost?: boolean;
}

export interface MergeResult {
  /** The fused image, sRGB-encoded, on the reference frame's grid at the output size. */
  image: Image16;
  /** Per input frame, in input pixels: frame(x + dx, y + dy) shows what the reference shows at (x, y) (at the centre, for a frame that rolled). */
  offsets: Offset[];
  referenceIndex: number;
  /** The darkest frame by its pixels (the one window pull recovers highlights from). */
  darkestIndex: number;
  /** That frame aligned to `image` and at its size, ready for window pull's darkFrame. */
  darkFrame: Image16;
}

function validateMerge(frames: unknown, options: unknown): asserts frames is Image16[] {
  if (!Array.isArray(frames) || frames.length < MIN_BRACKET_FRAMES || frames.length > MAX_BRACKET_FRAMES) {
    throw invalidParameterError('frames', `an array of ${MIN_BRACKET_FRAMES} to ${MAX_BRACKET_FRAMES} Image16`, frames);
  }
  for (const [i, frame] of frames.entries()) assertImage16(frame, `frames[${i}]`);
  const first = frames[0] as Image16;
  frames.forEach((frame: Image16, i) => {
    if (frame.width !== first.width || frame.height !== first.height) {
      throw invalidParameterError(`frames[${i}] size`, `${first.width}x${first.height} (the size of frames[0])`, `${frame.width}x${frame.height}`);
    }
  });
  if (typeof options !== 'object' || options === null) throw invalidParameterError('options', 'an object', options);
  const { outputLongEdge, referenceIndex, deghost } = options as MergeOptions;
  if (outputLongEdge !== undefined) assertIntegerInRange(outputLongEdge, 'outputLongEdge', 16, 65535);
  if (referenceIndex !== undefined) assertIntegerInRange(referenceIndex, 'referenceIndex', 0, frames.length - 1);
  if (deghost !== undefined && typeof deghost !== 'boolean') throw invalidParameterError('deghost', 'a boolean', deghost);
}

/**
 * The frame in memory other imaging threads can read, when the per-frame jobs are spread over
 * them (8 frames and more, see bands.ts); the frame itself otherwise, which spares a copy of
 * every frame for the usual 3-frame bracket.
 */
function inSharedMemory(image: Image16, frames: number): Image16 {
  if (!spreads(frames) || isShared(image.data)) return image;
  const data = sharedUint16(image.data.length);
  data.set(image.data);
  return { ...image, data };
}

/**
 * Merges one bracket (3-9 exposures of a scene, decoded to one size) into a single image:
 * frames are downscaled to the output size, aligned to the reference by median-threshold
 * bitmaps, filled at the edges and cleared of ghosts from the reference, and exposure-fused.
 * See docs/imaging-hdr.md.
 */
export async function mergeBrackets(frames: Image16[], options: MergeOptions = {}): Promise<MergeResult> {
  validateMerge(frames, options);
  const { width, height } = frames[0]!;
  const size = sizeForLongEdge(width, height, options.outputLongEdge ?? DEFAULT_OUTPUT_LONG_EDGE);
  if (Math.min(size.width, size.height) < MIN_SIDE) {
    throw invalidParameterError('frames size at outputLongEdge', `at least ${MIN_SIDE} px on the short side`, `${size.width}x${size.height}`);
  }
  const working = (await Promise.all(frames.map((frame) => resizeImage16(frame, size.width, size.height)))).map((frame) => inSharedMemory(frame, frames.length));

  const count = working.length;
  const lumas = working.map(() => ({ width: size.width, height: size.height, data: sharedFloat32(size.width * size.height) }));
  const halves = lumas.map(({ width: w, height: h }) => ({ width: (w + 1) >> 1, height: (h + 1) >> 1, data: sharedFloat32(((w + 1) >> 1) * ((h + 1) >> 1)) }));
  const levels = new Float64Array(new SharedArrayBuffer(8 * count));
  await lumaPlanes({ frames: working, lumas, halves, means: levels }, count);
  // Rank by mean luma: Image16 carries no EXIF, and pixels tell the exposure order reliably.
  const order = Array.from(levels.keys()).sort((a, b) => levels[a]! - levels[b]!);
  const referenceIndex = options.referenceIndex ?? order[Math.floor((order.length - 1) / 2)]!;

  const shiftValues = new Int32Array(new SharedArrayBuffer(8 * count));
  const referencePyramid = lumaPyramid(lumas[referenceIndex]!, halves[referenceIndex]!);
  await frameShifts({ lumas, halves, reference: referenceIndex, referencePyramid, shifts: shiftValues }, count);
  const shifts = working.map((_, k) => ({ dx: shiftValues[2 * k]!, dy: shiftValues[2 * k + 1]! }));
  // Hand-held frames also roll: measured per frame, and resampled only when it shows.
  const windowValues = new Float64Array(new SharedArrayBuffer(32 * count * ROLL_WINDOWS));
  await rollWindows({ lumas, halves, reference: referenceIndex, shifts: shiftValues, moves: windowValues, scratch: windowScratch() }, ROLL_WINDOWS);
  const rolls = shifts.map((offset, k) => {
    if (k === referenceIndex) return { angle: 0, ...offset };
    const windows = Array.from({ length: ROLL_WINDOWS }, (_, w): WindowMove | null => {
      const [qx, qy, rx, ry] = windowValues.subarray(4 * (k * ROLL_WINDOWS + w), 4 * (k * ROLL_WINDOWS + w + 1));
      return Number.isNaN(qx) ? null : { qx: qx!, qy: qy!, rx: rx!, ry: ry! };
    });
    return rollFromWindows(windows, offset);
  });
  const rolling = rolls.map((roll) => Math.abs(roll.angle) * (Math.max(size.width, size.height) / 2) >= MIN_ROLL_PIXELS);
  const offsets = rolls.map((roll, i) => (rolling[i] ? { dx: roll.dx, dy: roll.dy } : shifts[i]!));
  const borrowed = working.map((frame, k) => frame === frames[k]);
  // The reference, and frames that do not move (a tripod's), stay where they are, no copy; but not a frame of the caller's whose job may run on another thread, which could not hand back the copy ghost replacement makes of it.
  const inPlace = (k: number) => k === referenceIndex || (!rolling[k] && shifts[k]!.dx === 0 && shifts[k]!.dy === 0 && !(borrowed[k] && spreads(count)));
  const aligned = working.map((frame, k) => (inPlace(k) ? { image: frame, luma: lumas[k]! } : emptyFrame(size.width, size.height)));
  const moves = rolls.map((roll, k) => (rolling[k] ? { roll } : { shift: shifts[k]! }));
  const referenceSamples = sampleFrame(working[referenceIndex]!, sampleStep(size.width, size.height));
  await prepareFrames({ frames: working, lumas, reference: referenceIndex, referenceSamples, moves, aligned, borrowed, deghost: options.deghost !== false }, count);
  const image = await fuseExposures(
    aligned.map((a) => a.image),
    aligned.map((a) => a.luma),
  );

  const sx = width / size.width;
  const sy = height / size.height;
  const darkestIndex = order[0]!;
  return { image, offsets: offsets.map(({ dx, dy }) => ({ dx: dx * sx, dy: dy * sy })), referenceIndex, darkestIndex, darkFrame: aligned[darkestIndex]!.image };
}
