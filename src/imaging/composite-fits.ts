/**
 * What render's composites decide on the framed photo's analysis copy: the sky's fit
 * (sky/mask.ts fitSky) and the windows (local/window-pull.ts findWindows). The two are
 * independent and each takes about 150–250 ms of JavaScript on one thread for an 18 MP
 * photo, so on a sharing thread the windows are offered to the other imaging threads
 * (bands.ts sharedTask) while this one segments the sky: they read the copy where analysisCopy
 * made it, in shared memory, and the windows come back in it. Elsewhere (or on a copy that is not
 * shared) both run here, one after the other.
 */
import type { AnalysisCopy } from './analysis-copy.js';
import { isShared, sharedFloat32, sharedTask, sharing } from './bands.js';
import type { GuidedCoefficients } from './filters/guided.js';
import { findWindows, type FoundWindows, MAX_WINDOWS } from './local/window-pull.js';
import { fitSky, type SkyFit } from './sky/mask.js';
import type { Box } from './types.js';

export interface CompositeFits {
  /** Null when the sky was not asked for, or none was found. */
  sky: SkyFit | null;
  /** Null when the windows were not asked for. */
  windows: FoundWindows | null;
}

/** What to fit: the image's size (window boxes are at full size), and whether the windows need the base layer (no dark frame). */
export interface CompositeAsk {
  width: number;
  height: number;
  sky: boolean;
  windows: boolean;
  base: boolean;
}

/** A guided filter's coefficients in shared memory, of the copy's size. */
interface SharedCoefficients {
  a: Float32Array;
  b: Float32Array;
}

/** The header of WindowsJob.found: whether the mask's and the base layer's coefficients were found, the region's box, the windows' count; then 4 numbers a window. */
const HAS_MASK = 0;
const HAS_BASE = 1;
const REGION = 2;
const COUNT = 6;
const BOXES = 7;

interface WindowsJob {
  copy: AnalysisCopy;
  width: number;
  height: number;
  base: boolean;
  found: Int32Array;
  p: Float32Array;
  mask: SharedCoefficients;
  baseLayer: SharedCoefficients;
}

const offerWindows = sharedTask('composite-windows', (job: WindowsJob) => {
  const found = findWindows(job.copy, job.width, job.height, job.base);
  const header = job.found;
  header[HAS_MASK] = found.coefficients ? 1 : 0;
  header[HAS_BASE] = found.base ? 1 : 0;
  header.set([found.region.x, found.region.y, found.region.width, found.region.height], REGION);
  header[COUNT] = found.windows.length;
  for (const [k, w] of found.windows.entries()) header.set([w.x, w.y, w.width, w.height], BOXES + k * 4);
  job.p.set(found.p);
  if (found.coefficients) put(job.mask, found.coefficients);
  if (found.base) put(job.baseLayer, found.base);
});

function put(into: SharedCoefficients, from: GuidedCoefficients): void {
  into.a.set(from.a);
  into.b.set(from.b);
}

/** The sky's fit and the windows of an analysis copy, as asked: on two imaging threads when this thread shares its jobs and both are asked for. */
export async function fitComposites(copy: AnalysisCopy, ask: CompositeAsk): Promise<CompositeFits> {
  const { width, height, base } = ask;
  if (!sharing() || !isShared(copy.rgb) || !ask.sky || !ask.windows) {
    return { sky: ask.sky ? fitSky(copy) : null, windows: ask.windows ? findWindows(copy, width, height, base) : null };
  }
  const n = copy.width * copy.height;
  const coefficients = (): SharedCoefficients => ({ a: sharedFloat32(n * 3), b: sharedFloat32(n) });
  const job: WindowsJob = {
    copy,
    width,
    height,
    base,
    found: new Int32Array(new SharedArrayBuffer((BOXES + MAX_WINDOWS * 4) * 4)),
    p: sharedFloat32(n),
    mask: coefficients(),
    baseLayer: base ? coefficients() : { a: new Float32Array(0), b: new Float32Array(0) },
  };
  const windows = offerWindows(job);
  const sky = fitSky(copy);
  await windows();
  return { sky, windows: windowsOf(job) };
}

function windowsOf(job: WindowsJob): FoundWindows {
  const header = job.found;
  const box = (at: number): Box => ({ x: header[at]!, y: header[at + 1]!, width: header[at + 2]!, height: header[at + 3]! });
  const grid = (c: SharedCoefficients): GuidedCoefficients => ({ width: job.copy.width, height: job.copy.height, a: c.a, b: c.b });
  return {
    windows: Array.from({ length: header[COUNT]! }, (_, k) => box(BOXES + k * 4)),
    coefficients: header[HAS_MASK] ? grid(job.mask) : null,
    region: box(REGION),
    p: job.p,
    base: header[HAS_BASE] ? grid(job.baseLayer) : null,
  };
}
