/**
 * The per-frame steps of an HDR merge (merge.ts), each a job whose items the imaging threads
 * share (bands.ts). A module of their own, free of libvips, so that a thread that only helps
 * loads little.
 */
import { sharedUint16, sharedWork } from '../bands.js';
import type { Image16 } from '../types.js';
import { alignToReference, type Offset, ROLL_WINDOWS, type Roll, rollWindowMoves, type WindowScratch } from './align.js';
import { ghostTrust, replaceGhosts } from './deghost.js';
import { lumaAndHalf, type Plane } from './luma.js';
import { type FrameBuffers, fillUncovered, rollFrame, shiftFrame } from './shift.js';
import { type Samples, sampleFrame, sampleStep, transferBetween } from './transfer.js';

/** Each frame's luma, and its mean into means[k] (which ranks the exposures); and that luma at half size (2 x 2 means), the second level of its alignment pyramids (the whole frame's and the roll windows'). */
export const lumaPlanes = sharedWork('hdr-luma', (job: { frames: Image16[]; lumas: Plane[]; halves: Plane[]; means: Float64Array }, k: number) => {
  job.means[k] = lumaAndHalf(job.frames[k]!, job.lumas[k]!.data, job.halves[k]!.data).mean;
});

/** Frame k's shift against the reference (given by its lumaPyramid), into shifts[2k], shifts[2k + 1]. */
export const frameShifts = sharedWork('hdr-align', (job: { lumas: Plane[]; halves: Plane[]; reference: number; referencePyramid: Plane[]; shifts: Int32Array }, k: number) => {
  if (k === job.reference) return;
  const { dx, dy } = alignToReference(job.referencePyramid, job.lumas[k]!, job.halves[k]!);
  job.shifts[2 * k] = dx;
  job.shifts[2 * k + 1] = dy;
});

/** Window w of every frame's roll grid (rollWindowMoves), into moves[4 (k x ROLL_WINDOWS + w)..] (qx, qy, rx, ry; NaN when unusable; the reference's stay unset). */
export const rollWindows = sharedWork('hdr-roll', (job: { lumas: Plane[]; halves: Plane[]; reference: number; shifts: Int32Array; moves: Float64Array; scratch: WindowScratch }, w: number) => {
  const others = job.lumas.map((_, k) => k).filter((k) => k !== job.reference);
  const frames = others.map((k) => ({ luma: job.lumas[k]!, half: job.halves[k]!, offset: { dx: job.shifts[2 * k]!, dy: job.shifts[2 * k + 1]! } }));
  rollWindowMoves({ luma: job.lumas[job.reference]!, half: job.halves[job.reference]! }, frames, w, job.scratch).forEach((move, i) => {
    job.moves.set(move ? [move.qx, move.qy, move.rx, move.ry] : [Number.NaN, Number.NaN, Number.NaN, Number.NaN], 4 * (others[i]! * ROLL_WINDOWS + w));
  });
});

interface PrepareJob {
  frames: Image16[];
  lumas: Plane[];
  reference: number;
  /** The reference's samples (sampleFrame at sampleStep), taken once for every frame. */
  referenceSamples: Samples;
  /** Per frame: a roll to resample by, or a whole-pixel shift. */
  moves: ({ roll: Roll } | { shift: Offset })[];
  /** Per frame, buffers to move it into; for a frame that does not move, the frame and its luma themselves. */
  aligned: FrameBuffers[];
  /** Per frame, whether it is the caller's (never changed: copied before ghosts are replaced in it). */
  borrowed: boolean[];
  deghost: boolean;
}

/**
 * Frame k onto the reference's grid (moved, turned when it rolled), the strip it did not see
 * filled from the reference, ghosts replaced.
 */
export const prepareFrames = sharedWork('hdr-prepare', (job: PrepareJob, k: number) => {
  if (k === job.reference) return;
  const move = job.moves[k]!;
  const source = job.frames[k]!;
  const reference = job.frames[job.reference]!;
  const { width, height } = reference;
  const into = job.aligned[k]!;
  let frame = { ...into, valid: { x: 0, y: 0, width, height } };
  if (into.image !== source) frame = 'roll' in move ? rollFrame(source, job.lumas[k]!, move.roll, into) : shiftFrame(source, job.lumas[k]!, move.shift, into);
  const step = sampleStep(width, height);
  const samples = sampleFrame(frame.image, step);
  const transfer = transferBetween(job.referenceSamples, samples);
  fillUncovered(frame, reference, transfer);
  if (!job.deghost) return;
  const trust = ghostTrust(job.referenceSamples, samples, transfer, frame.valid, step);
  if (!trust) return;
  if (frame.image === source && job.borrowed[k]) {
    // A borrowed frame is used in place only when its job runs on the merging thread (merge.ts), so the new buffer reaches it.
    const data = sharedUint16(source.data.length);
    data.set(source.data);
    frame.image = { ...source, data };
    into.image = frame.image;
  }
  replaceGhosts(frame, trust, reference, transfer);
});
