/**
 * What sky replacement reads before it draws: the sky's bounds and the mask shrunk to the
 * analysis copy, off the full-size mask (readMask), and the light of the scene, off the copy
 * (readScene). Neither reads the photo's full-size pixels, so render can have another imaging
 * thread read them while this one pulls the windows (offerSkyReading).
 */
import type { AnalysisCopy } from '../analysis-copy.js';
import { isShared, sharedFloat32, sharedTask, sharing } from '../bands.js';
import { encodedToLinearAll, luminance } from '../colour.js';
import { boxMean } from '../filters/box.js';

/** Rows and columns (end exclusive) that hold the sky, and its lowest row (the horizon). */
export interface SkyBounds {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** What replacing reads off the full-size mask, in one pass over it. */
interface MaskReading {
  /** Null when no row holds a sliver of sky. */
  bounds: SkyBounds | null;
  /** The mask box-averaged onto the analysis grid (toWidth × toHeight). */
  shrunk: Float32Array;
}

/** Per row, the first column whose mask is above 0 and one past the last (equal when none): for a mask given without them. */
export function maskSpans(mask: Float32Array, width: number, height: number): Int32Array {
  const spans = new Int32Array(height * 2);
  for (let y = 0; y < height; y++) {
    let first = width;
    let last = -1;
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (mask[i] === 0) continue;
      if (x < first) first = x;
      last = x;
    }
    spans[y * 2] = last < 0 ? 0 : first;
    spans[y * 2 + 1] = last + 1;
  }
  return spans;
}

/**
 * One pass over the full-size mask within each row's span of sky: the sky's bounds and the
 * mask box-averaged onto a smaller grid. Most of a photo is not sky, and a mask of 0 adds
 * nothing to a cell (x + 0 is x): those pixels are skipped.
 */
function readMask(mask: Float32Array, spans: Int32Array, width: number, height: number, toWidth: number, toHeight: number): MaskReading {
  let left = width;
  let right = 0;
  let top = -1;
  let bottom = 0;
  // A row counts towards the horizon once it holds a sliver of sky, not a stray pixel.
  const rowMinimum = Math.max(1, Math.round(0.005 * width));
  const sums = new Float32Array(toWidth * toHeight);
  const column = Int32Array.from({ length: width }, (_, x) => Math.min(toWidth - 1, Math.floor((x * toWidth) / width)));
  const row = Int32Array.from({ length: height }, (_, y) => Math.min(toHeight - 1, Math.floor((y * toHeight) / height)));
  for (let y = 0; y < height; y++) {
    const cells = row[y]! * toWidth;
    let count = 0;
    for (let x = spans[y * 2]!, i = y * width + x, end = spans[y * 2 + 1]!; x < end; x++, i++) {
      const m = mask[i]!;
      if (m === 0) continue;
      sums[cells + column[x]!]! += m;
      if (m < 0.5) continue;
      count++;
      if (x < left) left = x;
      if (x >= right) right = x + 1;
    }
    if (count > 0 && top < 0) top = y;
    if (count >= rowMinimum) bottom = y + 1;
  }
  // A cell's count is its columns times its rows.
  const columns = new Int32Array(toWidth);
  const rows = new Int32Array(toHeight);
  for (const c of column) columns[c]!++;
  for (const r of row) rows[r]!++;
  for (let i = 0; i < sums.length; i++) {
    const count = columns[i % toWidth]! * rows[Math.floor(i / toWidth)]!;
    sums[i] = count > 0 ? sums[i]! / count : 0;
  }
  return { bounds: top < 0 || bottom <= top ? null : { left, right, top, bottom }, shrunk: sums };
}

/** What the photo tells about light: in linear light, from the analysis copy. */
export interface Scene {
  /** Mean luminance of the sky and of the rest. */
  skyLuminance: number;
  groundLuminance: number;
  /** The colour cast of the light, per channel relative to luminance, from the near-neutral parts of the ground (1, 1, 1 when it cannot tell). */
  cast: [number, number, number];
  /** The old sky's colour around each analysis pixel (masked local mean), interleaved RGB, for taking it out of mixed edge pixels. */
  localSky: Float32Array;
  width: number;
  height: number;
}

function readScene(rgb: Float32Array, mask: Float32Array, width: number, height: number): Scene {
  const n = width * height;
  const linear = encodedToLinearAll(rgb.subarray(0, n * 3));
  let skySum = 0,
    skyWeight = 0,
    groundSum = 0,
    groundWeight = 0;
  const neutral = [0, 0, 0];
  let neutralCount = 0;
  const skyMean = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const r = linear[i * 3]!,
      g = linear[i * 3 + 1]!,
      b = linear[i * 3 + 2]!;
    const y = luminance(r, g, b);
    const m = mask[i]!;
    skySum += m * y;
    skyWeight += m;
    skyMean[0]! += m * r;
    skyMean[1]! += m * g;
    skyMean[2]! += m * b;
    groundSum += (1 - m) * y;
    groundWeight += 1 - m;
    const max = Math.max(r, g, b);
    // Near-neutral, well-exposed ground shows the colour of the light (grey-world on greys only).
    if (m < 0.1 && y > 0.02 && max < 0.9 && max - Math.min(r, g, b) < 0.25 * max) {
      neutral[0]! += r / y;
      neutral[1]! += g / y;
      neutral[2]! += b / y;
      neutralCount++;
    }
  }
  const cast: [number, number, number] = [1, 1, 1];
  if (neutralCount > 0.01 * n) for (let c = 0; c < 3; c++) cast[c] = neutral[c]! / neutralCount;
  for (let c = 0; c < 3; c++) skyMean[c]! /= Math.max(1e-6, skyWeight);
  const radius = Math.max(4, Math.round(Math.max(width, height) / 40));
  // Only clear sky (mask >= 0.75) informs the local sky colour: mixed edge pixels would pull it towards the foreground.
  const pure = new Float32Array(n);
  for (let i = 0; i < n; i++) pure[i] = Math.max(0, (mask[i]! - 0.75) / 0.25);
  const weight = boxMean(pure, width, height, radius);
  const localSky = new Float32Array(n * 3);
  for (let c = 0; c < 3; c++) {
    const plane = new Float32Array(n);
    for (let i = 0; i < n; i++) plane[i] = linear[i * 3 + c]! * pure[i]!;
    const mean = boxMean(plane, width, height, radius);
    for (let i = 0; i < n; i++) localSky[i * 3 + c] = weight[i]! > 0.01 ? mean[i]! / weight[i]! : skyMean[c]!;
  }
  return {
    skyLuminance: skySum / Math.max(1e-6, skyWeight),
    groundLuminance: groundSum / Math.max(1e-6, groundWeight),
    cast,
    localSky,
    width,
    height,
  };
}

/** The sky's bounds (null when no row holds a sliver of sky) and, when there are any, the scene. */
export interface SkyReading {
  bounds: SkyBounds | null;
  scene: Scene | null;
}

/** readMask, then readScene on the mask shrunk to the copy's grid. */
export function readSky(mask: Float32Array, spans: Int32Array, width: number, height: number, copy: AnalysisCopy): SkyReading {
  const { bounds, shrunk } = readMask(mask, spans, width, height, copy.width, copy.height);
  return { bounds, scene: bounds === null ? null : readScene(copy.rgb, shrunk, copy.width, copy.height) };
}

/** A reading's numbers, in shared memory: whether there are bounds, the bounds, the sky's and the ground's luminance, the cast. */
const HAS_BOUNDS = 0;
const BOUNDS = 1;
const LUMINANCES = 5;
const CAST = 7;
const NUMBERS = 10;

interface ReadingJob {
  mask: Float32Array;
  spans: Int32Array;
  width: number;
  height: number;
  copy: AnalysisCopy;
  numbers: Float64Array;
  localSky: Float32Array;
}

const readingTask = sharedTask('sky-reading', (job: ReadingJob) => {
  const { bounds, scene } = readSky(job.mask, job.spans, job.width, job.height, job.copy);
  if (!bounds || !scene) return;
  job.numbers.set([1, bounds.left, bounds.right, bounds.top, bounds.bottom, scene.skyLuminance, scene.groundLuminance, ...scene.cast]);
  job.localSky.set(scene.localSky);
});

/**
 * readSky offered to the other imaging threads (bands.ts sharedTask): the returned function
 * resolves to the reading, made here unless another thread took it. Made here, when asked for,
 * on a mask or a copy that is not in shared memory: posting would copy it.
 */
export function offerSkyReading(mask: Float32Array, spans: Int32Array, width: number, height: number, copy: AnalysisCopy): () => Promise<SkyReading> {
  if (!sharing() || !isShared(mask) || !isShared(spans) || !isShared(copy.rgb)) return async () => readSky(mask, spans, width, height, copy);
  const job: ReadingJob = { mask, spans, width, height, copy, numbers: new Float64Array(new SharedArrayBuffer(NUMBERS * 8)), localSky: sharedFloat32(copy.width * copy.height * 3) };
  const finish = readingTask(job);
  return async () => {
    await finish();
    const v = job.numbers;
    if (!v[HAS_BOUNDS]) return { bounds: null, scene: null };
    return {
      bounds: { left: v[BOUNDS]!, right: v[BOUNDS + 1]!, top: v[BOUNDS + 2]!, bottom: v[BOUNDS + 3]! },
      scene: { skyLuminance: v[LUMINANCES]!, groundLuminance: v[LUMINANCES + 1]!, cast: [v[CAST]!, v[CAST + 1]!, v[CAST + 2]!], localSky: job.localSky, width: copy.width, height: copy.height },
    };
  };
}
