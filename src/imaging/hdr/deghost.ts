import type { Image16 } from '../types.js';
import { blockMean, type Plane } from './luma.js';
import { BINS, blendTowardReference, sampledChannel, transferRanges, type ReferenceMapping } from './transfer.js';

/** Ghosts are judged per block of pixels, about this many blocks along the long edge: moving things stay, noise averages out. */
const BLOCKS_LONG_EDGE = 480;
/** Pixels compared per block, along each side; the others are skipped, which keeps the work independent of the size. */
const SAMPLES_PER_BLOCK = 2;
/** Mean distance (0..1) outside the predicted range up to which a block of a frame is fully trusted... */
const AGREE = 0.04;
/** ...and from which it is not trusted at all; between the two the weight falls smoothly. */
const DISAGREE = 0.12;

/** distance = max(distance, how far each value lies outside the range predicted from the reference). */
function widenToRange(distance: Float32Array, ref: Float32Array, other: Float32Array, lo: Float32Array, hi: Float32Array): void {
  for (let p = 0; p < distance.length; p++) {
    const b = Math.min(BINS - 1, Math.floor(ref[p]! * BINS));
    const v = other[p]!;
    const d = Math.max(lo[b]! - v, v - hi[b]!);
    if (d > distance[p]!) distance[p] = d;
  }
}

function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}

/** 3 x 3 minimum: a distrusted block also distrusts its neighbours, covering an object's blurred rim. */
function erode(plane: Plane): Plane {
  const { width, height, data } = plane;
  const out = new Float32Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let m = 1;
      for (let v = Math.max(0, y - 1); v <= Math.min(height - 1, y + 1); v++) {
        for (let u = Math.max(0, x - 1); u <= Math.min(width - 1, x + 1); u++) m = Math.min(m, data[v * width + u]!);
      }
      out[y * width + x] = m;
    }
  }
  return { width, height, data: out };
}

/** Bilinear from block centres back to every pixel of a width x height image. */
function upsample(plane: Plane, factor: number, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  const { width: bw, height: bh, data } = plane;
  const centre = (factor - 1) / 2;
  // Per column, the two blocks it lies between and its share of the right one.
  const left = new Int32Array(width);
  const right = new Int32Array(width);
  const share = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    const u = Math.min(bw - 1, Math.max(0, (x - centre) / factor));
    left[x] = Math.floor(u);
    right[x] = Math.min(bw - 1, left[x]! + 1);
    share[x] = u - left[x]!;
  }
  for (let y = 0; y < height; y++) {
    const v = Math.min(bh - 1, Math.max(0, (y - centre) / factor));
    const y0 = Math.floor(v);
    const fy = v - y0;
    const top = y0 * bw;
    const bottom = Math.min(bh - 1, y0 + 1) * bw;
    for (let x = 0, o = y * width; x < width; x++, o++) {
      const a = data[top + left[x]!]! + (data[top + right[x]!]! - data[top + left[x]!]!) * share[x]!;
      const b = data[bottom + left[x]!]! + (data[bottom + right[x]!]! - data[bottom + left[x]!]!) * share[x]!;
      out[o] = a + (b - a) * fy;
    }
  }
  return out;
}

/**
 * Per frame, how far to trust each pixel: 1 where the frame shows what the reference predicts
 * for its exposure, falling to 0 where it shows something else (a moving person, car, branch).
 * Each pixel is compared channel by channel (channels clip separately); distances are averaged
 * over blocks, so noise and single-pixel misalignment do not count. The reference's entry, and
 * any frame's that agrees everywhere, is null.
 */
export function consistencyMasks(frames: Image16[], reference: number): (Float32Array | null)[] {
  const { width, height } = frames[reference]!;
  const step = Math.max(1, Math.round(Math.max(width, height) / (BLOCKS_LONG_EDGE * SAMPLES_PER_BLOCK)));
  const channels = frames.map((frame) => [0, 1, 2].map((c) => sampledChannel(frame, c, step)));
  const ref = channels[reference]!;
  const { width: sw, height: sh } = ref[0]!;
  return channels.map((other, i) => {
    if (i === reference) return null;
    const distance = new Float32Array(sw * sh);
    for (let c = 0; c < 3; c++) {
      const { lo, hi } = transferRanges(ref[c]!, other[c]!);
      widenToRange(distance, ref[c]!.data, other[c]!.data, lo, hi);
    }
    const mean = blockMean({ width: sw, height: sh, data: distance }, SAMPLES_PER_BLOCK);
    const trust = mean.data.map((d) => 1 - smoothstep(AGREE, DISAGREE, d));
    const eroded = erode({ width: mean.width, height: mean.height, data: trust });
    // A frame that agrees everywhere needs no mask (the common static scene): skip the full-size work.
    return eroded.data.every((t) => t === 1) ? null : upsample(eroded, SAMPLES_PER_BLOCK * step, width, height);
  });
}

/**
 * Ghost removal, in place: where the frame is not trusted, its pixels give way to the reference
 * mapped to its exposure. Every frame then shows the moving object where the reference does
 * and nowhere else, so it appears once; and fusion still weighs the frames as usual, so the
 * region keeps the tone of its surroundings. (Masking the weights instead leaves the moved
 * object in the frame's coarse pyramid bands, where it shows as a faint shadow.)
 */
export function replaceGhosts(frame: { image: Image16; luma: Plane }, trust: Float32Array, mapping: ReferenceMapping): void {
  for (let p = 0; p < trust.length; p++) if (trust[p]! < 1) blendTowardReference(frame, mapping, p, trust[p]!);
}
