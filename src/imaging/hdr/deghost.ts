import { arena, reserve, toolKernels } from '../kernels.js';
import { smoothstep } from '../math.js';
import type { Box, Image16 } from '../types.js';
import { blockMean, type Plane } from './luma.js';
import { BINS, blendTowardReference, type Samples, type Transfer } from './transfer.js';

/** Samples per ghost block, along each side: blocks of a few pixels, so moving things stay and noise averages out. */
const SAMPLES_PER_BLOCK = 2;
/**
 * Mean distance (0..1 luma) outside the predicted range up to which a block of a frame is fully
 * trusted... (JPEG frames of a static scene: 99 % of blocks within 0.04 on the fitting photos)
 */
const AGREE = 0.04;
/** ...and from which it is not trusted at all; between the two the weight falls smoothly. */
const DISAGREE = 0.12;
/**
 * A reference sample with a channel at or above this is (nearly, JPEG rings below 1) clipped: it
 * cannot predict what a darker frame shows there, and replacing from it would paint its
 * missing colour, so such samples are never taken for ghosts (on static JPEG brackets they were
 * 60-97 % of the remaining false alarms).
 */
const REFERENCE_CLIPPED = 0.97;
/** Rec. 601 luma weights of R, G, B. */
const LUMA = [0.299, 0.587, 0.114] as const;

/**
 * Samples per call of lumaDistanceSamples: the kernels' memory holds chunks of the planes, not
 * whole ones. At the whole ghost check's samples (6 planes in, 1 out: 28 bytes a sample) it grew
 * by 9 MB for a 868 x 600 bracket, every page of it touched afresh in a new process and kept by
 * an imaging thread for good.
 */
const DISTANCE_CHUNK = 1 << 14;

/**
 * How far each sample's luma lies outside the luma range predicted from the reference (the
 * channels' predicted ranges, weighted as luma). Luma, not each channel: JPEG stores colour at
 * half resolution and quantises it coarsely, so a static frame's channels stray from their
 * predictions by up to 0.3 (summed) near coloured detail while its luma stays within 0.04;
 * measuring channels flagged 44-66 % of static JPEG frames as ghosts, and replacing those
 * blocks from the reference painted blocky colour patches. lumaDistanceSamples in the
 * WebAssembly kernels, DISTANCE_CHUNK samples at a time (each sample's distance is its own).
 */
export function lumaDistances(reference: Samples, frame: Samples, transfer: Transfer): Float32Array {
  const count = reference[0].data.length;
  const chunk = Math.min(count, DISTANCE_CHUNK);
  const k = toolKernels();
  const table = 4 * (BINS + 1);
  const l = arena({ reference: 12 * chunk, frame: 12 * chunk, tables: 6 * table, out: 4 * chunk });
  reserve(k, l.end);
  const memory = k.memory.buffer;
  [...transfer.lo, ...transfer.hi].forEach((t, i) => {
    new Float32Array(memory, l.tables + i * table, BINS + 1).set(t);
  });
  const distances = new Float32Array(count);
  for (let p0 = 0; p0 < count; p0 += chunk) {
    const n = Math.min(count, p0 + chunk) - p0;
    for (let c = 0; c < 3; c++) {
      new Float32Array(memory, l.reference + 4 * c * n, n).set(reference[c]!.data.subarray(p0, p0 + n));
      new Float32Array(memory, l.frame + 4 * c * n, n).set(frame[c]!.data.subarray(p0, p0 + n));
    }
    k.lumaDistanceSamples(l.reference, l.frame, n, l.tables, BINS, ...LUMA, REFERENCE_CLIPPED, l.out);
    distances.set(new Float32Array(memory, l.out, n), p0);
  }
  return distances;
}

/** 3 x 3 minimum: a distrusted block also distrusts its neighbours, covering an object's blurred rim. Separable: across each row, then down. */
function erode(plane: Plane): Plane {
  const { width, height, data } = plane;
  const across = new Float32Array(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const l = data[row + Math.max(0, x - 1)]!;
      const r = data[row + Math.min(width - 1, x + 1)]!;
      across[row + x] = Math.min(1, l, data[row + x]!, r);
    }
  }
  const out = new Float32Array(data.length);
  for (let y = 0; y < height; y++) {
    const up = Math.max(0, y - 1) * width;
    const row = y * width;
    const down = Math.min(height - 1, y + 1) * width;
    for (let x = 0; x < width; x++) out[row + x] = Math.min(across[up + x]!, across[row + x]!, across[down + x]!);
  }
  return { width, height, data: out };
}

/** A frame's trust per block of `factor` x `factor` pixels (ghostTrust); each pixel's is interpolated bilinearly from the block centres. */
export interface GhostTrust {
  blocks: Plane;
  factor: number;
}

/**
 * How far to trust each block of a frame: 1 where it shows what the reference predicts for its
 * exposure, falling to 0 where it shows something else (a moving person, car, branch). Pixels
 * are compared on the samples, by luma against the range the channels' transfers predict
 * (channels clip separately), averaged over blocks, so noise and single-pixel misalignment do
 * not count. Null when the frame agrees everywhere.
 */
export function ghostTrust(reference: Samples, frame: Samples, transfer: Transfer, valid: Box, step: number): GhostTrust | null {
  const { width: sw, height: sh } = reference[0];
  const distance = lumaDistances(reference, frame, transfer);
  // Samples outside `valid` (edges the shift uncovered, already filled from the reference) are not compared.
  const x0 = Math.ceil(valid.x / step);
  const x1 = Math.ceil((valid.x + valid.width) / step);
  const y0 = Math.ceil(valid.y / step);
  const y1 = Math.ceil((valid.y + valid.height) / step);
  for (let y = 0; y < sh; y++) {
    if (y < y0 || y >= y1) distance.fill(0, y * sw, (y + 1) * sw);
    else {
      distance.fill(0, y * sw, y * sw + x0);
      distance.fill(0, y * sw + x1, (y + 1) * sw);
    }
  }
  const mean = blockMean({ width: sw, height: sh, data: distance }, SAMPLES_PER_BLOCK);
  // Every block within AGREE is trusted fully, and so is every one after erosion: the common static scene needs neither pass.
  let agrees = true;
  for (let b = 0; b < mean.data.length && agrees; b++) agrees = mean.data[b]! <= AGREE;
  if (agrees) return null;
  const trust = mean.data.map((d) => 1 - smoothstep(AGREE, DISAGREE, d));
  const eroded = erode({ width: mean.width, height: mean.height, data: trust });
  // A frame that agrees everywhere needs no mask: skip the full-size work.
  return eroded.data.every((t) => t === 1) ? null : { blocks: eroded, factor: SAMPLES_PER_BLOCK * step };
}

/**
 * Ghost removal, in place: where the frame is not trusted, its pixels give way to the reference
 * shown at its exposure. Every frame then shows the moving object where the reference does
 * and nowhere else, so it appears once; and fusion still weighs the frames as usual, so the
 * region keeps the tone of its surroundings. (Masking the weights instead leaves the moved
 * object in the frame's coarse pyramid bands, where it shows as a faint shadow.)
 */
export function replaceGhosts(frame: { image: Image16; luma: Plane }, trust: GhostTrust, reference: Image16, transfer: Transfer): void {
  const { width, height } = frame.image;
  const { blocks, factor } = trust;
  const { width: bw, height: bh, data } = blocks;
  const centre = (factor - 1) / 2;
  // Per column, the two blocks it lies between and its share of the right one (f32, as the trust plane this replaced held it).
  const left = new Int32Array(width);
  const right = new Int32Array(width);
  const share = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const u = Math.min(bw - 1, Math.max(0, (x - centre) / factor));
    left[x] = Math.floor(u);
    right[x] = Math.min(bw - 1, left[x]! + 1);
    share[x] = u - left[x]!;
  }
  // Pixel rows between two block rows of full trust keep every pixel: most of a frame, skipped.
  const trusted = Array.from({ length: bh }, (_, by) => data.subarray(by * bw, (by + 1) * bw).every((t) => t === 1));
  for (let y = 0; y < height; y++) {
    const v = Math.min(bh - 1, Math.max(0, (y - centre) / factor));
    const y0 = Math.floor(v);
    const y1 = Math.min(bh - 1, y0 + 1);
    if (trusted[y0] && trusted[y1]) continue;
    const fy = v - y0;
    const top = y0 * bw;
    const bottom = y1 * bw;
    for (let x = 0, p = y * width; x < width; x++, p++) {
      const a = data[top + left[x]!]! + (data[top + right[x]!]! - data[top + left[x]!]!) * share[x]!;
      const b = data[bottom + left[x]!]! + (data[bottom + right[x]!]! - data[bottom + left[x]!]!) * share[x]!;
      const keep = Math.fround(a + (b - a) * fy);
      if (keep < 1) blendTowardReference(frame, reference, transfer, p, keep);
    }
  }
}
