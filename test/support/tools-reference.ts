/**
 * A straightforward double-precision evaluation of the fast guided filter, to check the
 * WebAssembly kernel (kernels/tools.ts, single precision, SIMD) against.
 */
import type { GuidedCoefficients } from '../../src/imaging/filters/guided.js';
import { axisTaps } from '../../src/imaging/local/bilinear.js';
import type { Image16 } from '../../src/imaging/types.js';

/** The fast guided filter's full-size output over the whole image: a, b upsampled bilinearly, a·I + b clamped to 0..1. */
export function applyGuidedReference(coefficients: GuidedCoefficients, image: Image16): Float32Array {
  const { width, height, data } = image;
  const { width: cw, height: ch, a, b } = coefficients;
  const xs = axisTaps(width, cw);
  const ys = axisTaps(height, ch);
  const out = new Float32Array(width * height);
  const at = (grid: Float32Array, stride: number, c: number, x: number, y: number) => {
    const row = (gy: number) => grid[(gy * cw + xs.lo[x]!) * stride + c]! + (grid[(gy * cw + xs.hi[x]!) * stride + c]! - grid[(gy * cw + xs.lo[x]!) * stride + c]!) * xs.t[x]!;
    return row(ys.lo[y]!) + (row(ys.hi[y]!) - row(ys.lo[y]!)) * ys.t[y]!;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let q = at(b, 1, 0, x, y);
      for (let c = 0; c < 3; c++) q += (at(a, 3, c, x, y) * data[(y * width + x) * 3 + c]!) / 65535;
      out[y * width + x] = Math.min(1, Math.max(0, q));
    }
  }
  return out;
}
