/**
 * The engine's WebAssembly kernels (kernels/pixels.ts, AssemblyScript with SIMD, built by
 * `npm run build`): one instance per thread, made on first use. Each instance has its own
 * memory, which callers lay out themselves and grow as needed (see tone/pixel-pass.ts).
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
  setPlan(lin: number, tone: number, scale: number, max: number, m0: number, m1: number, m2: number, m3: number, m4: number, m5: number, m6: number, m7: number, m8: number, factors: number, sharpen: number): void;
  setLocal(w: number, h: number, a: number, b: number, gain: number, max: number, scale: number, boost: number, colIndex: number, colFrac: number, rowA: number, rowB: number): void;
  setColumns(width: number): void;
  developBand(src: number, srcBits: number, srcRow0: number, dst: number, dstBits: number, dstStride: number, width: number, height: number, y0: number, y1: number, scratch: number): void;
}

let kernels: PixelKernels | null = null;

export function pixelKernels(): PixelKernels {
  if (!kernels) {
    const module = new WebAssembly.Module(fs.readFileSync(new URL('./kernels/pixels.wasm', import.meta.url)));
    kernels = new WebAssembly.Instance(module, {}).exports as unknown as PixelKernels;
  }
  return kernels;
}

const PAGE = 65536;

/** Grows the kernels' memory to at least `bytes`. */
export function reserve(k: PixelKernels, bytes: number): void {
  const missing = bytes - k.memory.buffer.byteLength;
  if (missing > 0) k.memory.grow(Math.ceil(missing / PAGE));
}
