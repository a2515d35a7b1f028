/**
 * The develop pass: one fused loop over the pixels that applies sharpening, white
 * balance and exposure, local tone, the tone curve and colour. A DevelopPlan holds every
 * per-render constant (tables, matrix, local-tone grid) as plain numbers and typed
 * arrays, so worker threads can run bands of rows from a copy of it.
 */
import { srgb16ToLinearLut, whiteBalanceMatrix } from '../colour.js';
import type { DevelopSettings } from '../settings.js';
import type { RgbImage } from '../types.js';
import { ALIGN_SLACK, alike, copyInAlike, pixelKernels, reserve, type PixelKernels } from '../kernels.js';
import { TONE_LUT_SIZE, buildToneLut } from './curve.js';
import { buildLocalTone, hasLocalTone, type LocalTone } from './local.js';
import { type LinearImage, linearPreview, transformLinear } from './preview.js';

/** Long edge of the preview the local-tone base layer is computed on. */
const LOCAL_TONE_PREVIEW_EDGE = 512;

export interface DevelopPlan {
  /** Linear-light 3×3 of white balance and exposure, row-major. */
  matrix: number[];
  /** Tone curve + encoding, index = round(sqrt(linear) * tableScale). */
  table: Float32Array;
  tableScale: number;
  /** Vibrance/saturation factors (see buildColourFactors), or null. */
  factors: Float32Array | null;
  /** Unsharp-mask amount (0: off). */
  sharpen: number;
  local: LocalTone | null;
}

/** Linear-light matrix of white balance and exposure. */
export function developMatrix(s: Pick<DevelopSettings, 'temperature' | 'tint' | 'exposure'>): number[] {
  const gain = 2 ** s.exposure;
  return whiteBalanceMatrix(s.temperature, s.tint).map((x) => x * gain);
}

/**
 * Chroma scale factors of vibrance and saturation by chroma (max − min of the encoded
 * RGB, 0..255): entries 0..255 for most hues, 256..511 for skin-like hues, which get half
 * the vibrance. Null when neither is set.
 */
function buildColourFactors(s: DevelopSettings): Float32Array | null {
  if (s.vibrance === 0 && s.saturation === 0) return null;
  const factors = new Float32Array(512);
  const sat = 1 + s.saturation / 100;
  const vib = s.vibrance / 100;
  for (let i = 0; i < 256; i++) {
    // Vibrance works most on muted colours and leaves saturated ones nearly alone.
    const v = vib * (1 - i / 255) ** 2;
    factors[i] = sat * (1 + v);
    factors[256 + i] = sat * (1 + 0.5 * v);
  }
  return factors;
}

/** The long edge of the linear preview planDevelop reads for these settings (linearPreview); null when it reads none. */
export function developPreviewEdge(s: DevelopSettings): number | null {
  return hasLocalTone(s) ? LOCAL_TONE_PREVIEW_EDGE : null;
}

/** preview: linearPreview(image, developPreviewEdge(s)) when already made (it is changed); made here otherwise. */
export function planDevelop(image: RgbImage, s: DevelopSettings, preview?: LinearImage): DevelopPlan {
  const matrix = developMatrix(s);
  const tone = buildToneLut(s);
  let local: LocalTone | null = null;
  if (hasLocalTone(s)) {
    preview ??= linearPreview(image, LOCAL_TONE_PREVIEW_EDGE);
    transformLinear(preview, matrix);
    local = buildLocalTone(preview, s);
  }
  return { matrix, table: tone.table, tableScale: tone.scale, factors: buildColourFactors(s), sharpen: (1.5 * s.sharpening) / 100, local };
}

/** Pixels of 8 or 16 bits per sample, interleaved RGB. */
export type Samples = Uint8Array | Uint16Array;

const bitsOf = (samples: Samples): number => (samples instanceof Uint8Array ? 8 : 16);

/** Rows developed per kernel call: bounds the kernel memory at a few MB whatever the image. */
const CHUNK_ROWS = 64;

/** Where a plan sits in the kernels' memory (byte offsets). */
interface Layout {
  lin: number;
  tone: number;
  tables: number;
  factors: number;
  gain: number;
  boost: number;
  gridA: number;
  gridB: number;
  colIndex: number;
  colFrac: number;
  rowA: number;
  rowB: number;
  scratch: number;
  input: number;
  output: number;
  end: number;
}

const paddedWidth = (width: number): number => Math.ceil(width / 4) * 4;

function layout(plan: DevelopPlan, width: number): Layout {
  let at = 0;
  const take = (bytes: number) => {
    const start = at;
    at += Math.ceil(bytes / 16) * 16;
    return start;
  };
  const grid = plan.local ? plan.local.gridWidth * plan.local.gridHeight * 4 : 0;
  const tables = plan.local ? plan.local.gain.length * 4 : 0;
  const l = {
    lin: take(65536 * 4),
    tone: take(plan.table.length * 4),
    // What the kernel derives (setPlan): 256 linear values of 8-bit samples, the tone entries' 8- and 16-bit codes.
    tables: take(1024 + Math.ceil(plan.table.length / 16) * 16 + plan.table.length * 2),
    factors: take(512 * 4),
    gain: take(tables),
    boost: take(tables),
    gridA: take(grid),
    gridB: take(grid),
    colIndex: take((width + 4) * 4),
    colFrac: take((width + 4) * 4),
    rowA: take(((plan.local?.gridWidth ?? 0) + 1) * 4),
    rowB: take(((plan.local?.gridWidth ?? 0) + 1) * 4),
    scratch: take(5 * (width + 4) * 4),
    // The kernel develops four pixels at a time: a row's last group may read 12 samples past the input and write past the row (16 bytes from its first sample on).
    input: take((CHUNK_ROWS + 2) * width * 6 + 24 + ALIGN_SLACK),
    output: take(CHUNK_ROWS * paddedWidth(width) * 6 + 16 + ALIGN_SLACK),
    end: 0,
  };
  l.end = at;
  return l;
}

/** The plan this thread's kernels hold, so bands of one render load it once. */
let loaded: { plan: DevelopPlan; width: number; layout: Layout } | null = null;

function load(k: PixelKernels, plan: DevelopPlan, width: number): Layout {
  if (loaded?.plan === plan && loaded.width === width) return loaded.layout;
  const l = layout(plan, width);
  reserve(k, l.end);
  const f32 = (at: number, values: ArrayLike<number>) => new Float32Array(k.memory.buffer, at, values.length).set(values);
  f32(l.lin, srgb16ToLinearLut());
  f32(l.tone, plan.table);
  if (plan.factors) f32(l.factors, plan.factors);
  const m = plan.matrix;
  k.setPlan(l.lin, l.tone, l.tables, plan.tableScale, TONE_LUT_SIZE, m[0]!, m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, m[7]!, m[8]!, plan.factors ? l.factors : 0, plan.sharpen);
  const local = plan.local;
  if (local) {
    f32(l.gain, local.gain);
    if (local.boost) f32(l.boost, local.boost);
    f32(l.gridA, local.a);
    f32(l.gridB, local.b);
    k.setLocal(local.gridWidth, local.gridHeight, l.gridA, l.gridB, l.gain, local.gain.length - 1, local.scale, local.boost ? l.boost : 0, l.colIndex, l.colFrac, l.rowA, l.rowB);
    k.setColumns(width);
  }
  loaded = { plan, width, layout: l };
  return l;
}

/**
 * Develops rows y0..y1−1 of src (width × height, interleaved RGB, 8 or 16 bits) into the
 * same rows of dst (8 or 16 bits: 8 when a JPEG comes next). Per pixel, in the
 * WebAssembly kernel (kernels/pixels.ts): optionally the unsharp mask, a table read to
 * linear light, the 3×3 matrix, optionally the local-tone gain, three tone-table reads,
 * optionally the colour factors. Rows go through the kernel's memory in chunks.
 */
export function developRows(plan: DevelopPlan, src: Samples, dst: Samples, width: number, height: number, y0: number, y1: number): void {
  const k = pixelKernels();
  const l = load(k, plan, width);
  const rowSamples = width * 3;
  const srcBits = bitsOf(src);
  const dstBits = bitsOf(dst);
  const view = (bits: number, at: number, length: number) => (bits === 8 ? new Uint8Array(k.memory.buffer, at, length) : new Uint16Array(k.memory.buffer, at, length));
  for (let c0 = y0; c0 < y1; c0 += CHUNK_ROWS) {
    const c1 = Math.min(y1, c0 + CHUNK_ROWS);
    // The rows above and below the chunk too: sharpening reads its neighbours.
    const r0 = Math.max(0, c0 - 1);
    const r1 = Math.min(height, c1 + 1);
    const input = src.subarray(r0 * rowSamples, r1 * rowSamples);
    const inAt = copyInAlike(k.memory.buffer, l.input, input).byteOffset;
    // Out at an address alike modulo 8 with its place in dst too (kernels.ts alike).
    const outAt = alike(l.output, dst.byteOffset + c0 * rowSamples * dst.BYTES_PER_ELEMENT);
    // Rows at a stride of the row itself: what a row's last group develops past it, the next row overwrites (the last row's, the slack holds).
    k.developBand(inAt, srcBits, r0, outAt, dstBits, rowSamples, width, height, c0, c1, l.scratch);
    dst.set(view(dstBits, outAt, (c1 - c0) * rowSamples), c0 * rowSamples);
  }
}
