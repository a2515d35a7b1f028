/**
 * The engine's WebAssembly kernels (kernels/pixels.ts for the develop pass, kernels/tools.ts
 * for the tools' passes; AssemblyScript with SIMD, built by `npm run build`): one instance
 * of each per thread, made on first use. Each instance has its own memory, which callers
 * lay out themselves and grow as needed (see tone/pixel-pass.ts).
 */
import fs from 'node:fs';

// The compiler's ES library has no WebAssembly types (they come with the DOM's): what is used here.
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
};

export interface PixelKernels {
  memory: WasmMemory;
  setPlan(lin: number, tone: number, tables: number, scale: number, max: number, m0: number, m1: number, m2: number, m3: number, m4: number, m5: number, m6: number, m7: number, m8: number, factors: number, sharpen: number): void;
  setLocal(w: number, h: number, a: number, b: number, gain: number, max: number, scale: number, boost: number, colIndex: number, colFrac: number, rowA: number, rowB: number): void;
  setColumns(width: number): void;
  developBand(src: number, srcBits: number, srcRow0: number, dst: number, dstBits: number, dstStride: number, width: number, height: number, y0: number, y1: number, scratch: number): void;
}

export interface ToolKernels {
  memory: WasmMemory;
  guidedRows(coef: number, gridW: number, rowTaps: number, colTaps: number, row: number, guide: number, guideStride: number, count: number, rows: number, out: number): void;
  nonzeroSpans(src: number, count: number, rows: number, out: number): void;
  skyRow(data: number, mask: number, width: number, keep: number, strength: number, fresh: number, freshTaps: number, old: number, oldTaps: number, lin: number, encode: number, encodeSteps: number): void;
  lerpRow(from: number, to: number, t: number, out: number, count: number): void;
  widenRows(src: number, dst: number, count: number): void;
  thresholdBitmaps(src: number, rows: number, words: number, width: number, t0: number, t1: number, t2: number, exclusion: number, out: number): void;
  mismatchCounts(ref: number, words: number, height: number, mov: number, movWords: number, reach: number, scratch: number, counts: number): void;
  lumaPixels(src: number, count: number, out: number, start: number): number;
  sampleRows(src: number, width: number, step: number, sw: number, rows: number, r: number, g: number, b: number): void;
  lumaDistanceSamples(ref: number, frame: number, count: number, tables: number, bins: number, kr: number, kg: number, kb: number, clipped: number, out: number): void;
  halfRows(src: number, luma: number, width: number, height: number, by0: number, by1: number, w2: number, rgb: number, halfLuma: number): void;
  qualityRows(rgb: number, luma: number, width: number, height: number, lumaRow0: number, y0: number, y1: number, lut: number, lutSize: number, floor: number, epsilon: number, out: number): void;
  chromaPixels(rgb: number, luma: number, count: number, offset: number, cb: number, cr: number): void;
  blockMeanRows(src: number, width: number, height: number, factor: number, by0: number, by1: number, out: number): void;
  countBetween(src: number, count: number, lo: number, hi: number): number;
  normaliseWeights(weights: number, frames: number, stride: number, count: number, sum: number): void;
  sampleHistogram(src: number, rows: number, width: number, step: number, bins: number, hist: number): void;
  reducePlane(src: number, width: number, height: number, row0: number, y2a: number, y2b: number, row: number, out: number): void;
  addBandRows(sum: number, weight: number, weightHalf: number, fine: number, width: number, y0: number, y1: number, coarse: number, wc: number, hc: number, row0: number, vert: number, row: number, weightRow: number): void;
  addExpanded(data: number, width: number, height: number, coarse: number, wc: number, hc: number, vert: number, row: number): void;
  fusedRgbRows(fine: number, width: number, y0: number, y1: number, coarse: number, cb: number, cr: number, wc: number, hc: number, row0: number, offset: number, vert: number, yRow: number, cbRow: number, crRow: number, out: number): void;
  boxMean(src: number, width: number, height: number, radius: number, rows: number, sums: number, out: number): void;
  guidedCoefficients(guide: number, p: number, width: number, height: number, radius: number, eps: number, planes: number, rows: number, sums: number, a: number, b: number): void;
  denoiseBlend(src: number, blur: number, count: number, inv: number, strength: number): void;
  previewRow(src: number, bits: number, rows: number, width: number, f: number, step: number, w: number, lut: number, acc: number, out: number): void;
  blockSums(src: number, bits: number, width: number, factor: number, rows: number, outWidth: number, widen: number, norm: number, out: number, sums: number): void;
  blockLuma: ToolKernels['blockSums'];
  resampleRows8: ToolKernels['resampleRows'];
  resampleRows(
    src: number,
    srcRow0: number,
    sw: number,
    sh: number,
    m0: number,
    m1: number,
    m2: number,
    m3: number,
    m4: number,
    m5: number,
    m6: number,
    m7: number,
    m8: number,
    slack: number,
    out: number,
    ow: number,
    j0: number,
    j1: number,
  ): void;
}

function instantiate(file: string): unknown {
  const module = new WebAssembly.Module(fs.readFileSync(new URL(`./kernels/${file}`, import.meta.url)));
  return new WebAssembly.Instance(module, {}).exports;
}

let pixels: PixelKernels | null = null;
let tools: ToolKernels | null = null;

export function pixelKernels(): PixelKernels {
  pixels ??= instantiate('pixels.wasm') as PixelKernels;
  return pixels;
}

export function toolKernels(): ToolKernels {
  tools ??= instantiate('tools.wasm') as ToolKernels;
  return tools;
}

const PAGE = 65536;

/** Grows the kernels' memory to at least `bytes`. */
export function reserve(k: { memory: WasmMemory }, bytes: number): void {
  const missing = bytes - k.memory.buffer.byteLength;
  if (missing > 0) k.memory.grow(Math.ceil(missing / PAGE));
}

/**
 * Where in a kernel's buffer at `at` to copy samples that lie `byteOffset` bytes into their own
 * memory (or to copy them out to there): `at` moved on by up to 7 bytes, so that both ends sit
 * alike modulo 8. V8 copies to and from shared memory word by word only between addresses so
 * aligned, byte by byte otherwise: 100 MB took 9 ms aligned alike, 29-50 ms not (this machine,
 * Node 20). The buffer needs ALIGN_SLACK bytes more room.
 */
export function alike(at: number, byteOffset: number): number {
  return at + (byteOffset & 7);
}

/** What alike may move a buffer's start on by. */
export const ALIGN_SLACK = 8;

/**
 * `samples` copied into a kernel's `memory` at `at` moved on by alike (so the copy runs word by
 * word), as a view of the copy: its byteOffset is the address to hand the kernel.
 */
export function copyInAlike<T extends Uint8Array | Uint16Array | Float32Array>(memory: ArrayBufferLike, at: number, samples: T): T {
  const View = samples.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => T;
  const copy = new View(memory, alike(at, samples.byteOffset), samples.length);
  copy.set(samples);
  return copy;
}

/** Byte offsets for named buffers laid out one after another from 0, each 16-byte aligned with 16 bytes of slack (vector reads past a row's end), and where they end. */
export function arena<K extends string>(sizes: Record<K, number>): Record<K | 'end', number> {
  let at = 0;
  const offsets = {} as Record<K | 'end', number>;
  for (const name of Object.keys(sizes) as K[]) {
    offsets[name] = at;
    at += Math.ceil(sizes[name] / 16) * 16 + 16;
  }
  offsets.end = at;
  return offsets;
}
