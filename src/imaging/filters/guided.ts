/**
 * The guided filter (He, Sun & Tang, "Guided Image Filtering", 2013) on single-channel
 * float images: within each (2r+1)² window the output is a linear function a·I + b of the
 * guide I, fitted to the input p by least squares; eps regularises flat windows, so guide
 * variations well below sqrt(eps) are smoothed away while stronger edges are kept. With
 * guide = p it is an edge-preserving smoother. A grey guide (skin, subject masks, the
 * local-tone base layer) and a colour guide (sky and window masks) are both here; the colour
 * filter's full-size evaluation is filters/guided-apply.ts.
 */
import { boxMean } from './box.js';
import { arena, reserve, toolKernels } from '../kernels.js';

/** The window-averaged coefficients of a grey-guided filter: output = a·guide + b. */
export interface GreyGuidedCoefficients {
  a: Float32Array;
  b: Float32Array;
}

/**
 * Solves the grey-guided filter of p under guide. Pass the same array for both to smooth
 * p by itself (half the box passes). The coefficients can be applied to the guide at
 * another resolution, upsampled (He & Sun's "fast guided filter"), as render's local tone does.
 */
export function greyGuidedCoefficients(guide: Float32Array, p: Float32Array, width: number, height: number, radius: number, eps: number): GreyGuidedCoefficients {
  const n = width * height;
  const self = p === guide;
  const square = new Float32Array(n);
  const product = self ? square : new Float32Array(n);
  for (let i = 0; i < n; i++) {
    square[i] = guide[i]! * guide[i]!;
    if (!self) product[i] = guide[i]! * p[i]!;
  }
  const meanI = boxMean(guide, width, height, radius);
  const meanP = self ? meanI : boxMean(p, width, height, radius);
  const meanII = boxMean(square, width, height, radius, square);
  const meanIp = self ? meanII : boxMean(product, width, height, radius, product);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const mi = meanI[i]!;
    // Rounding can leave a flat window's variance a hair below 0.
    const variance = Math.max(0, meanII[i]! - mi * mi);
    const covariance = self ? variance : meanIp[i]! - mi * meanP[i]!;
    const ai = covariance / (variance + eps);
    a[i] = ai;
    b[i] = meanP[i]! - ai * mi;
  }
  return { a: boxMean(a, width, height, radius, a), b: boxMean(b, width, height, radius, b) };
}

/** The grey-guided filter of p under guide, at the guide's resolution. */
export function guidedFilter(guide: Float32Array, p: Float32Array, width: number, height: number, radius: number, eps: number): Float32Array {
  const { a, b } = greyGuidedCoefficients(guide, p, width, height, radius, eps);
  for (let i = 0; i < a.length; i++) a[i] = a[i]! * guide[i]! + b[i]!;
  return a;
}

/**
 * The local linear model of a colour-guided filter: within each window the output is
 * a·I + b of the guide colour I. Computed on a downscaled guide and applied to the
 * full-size one (He & Sun, "Fast Guided Filter", 2015): edges follow the full-resolution
 * guide at the cost of an analysis-sized solve.
 */
export interface GuidedCoefficients {
  width: number;
  height: number;
  /** Window-averaged a, three per pixel (r, g, b). */
  a: Float32Array;
  /** Window-averaged b. */
  b: Float32Array;
}

/**
 * Solves the colour guided filter of p (one channel) under guide (interleaved RGB, 0..1)
 * with a (2·radius+1)² window; eps regularises flat windows (larger: smoother output).
 * In one call into the WebAssembly kernel (kernels/tools.ts): the channel products, their
 * window means, the 3×3 solve per pixel and the means of its result, through its memory
 * (17 image-sized f32 buffers there: analysis-sized images keep them to a few tens of MB).
 */
export function guidedFilterCoefficients(guide: Float32Array, p: Float32Array, width: number, height: number, radius: number, eps: number): GuidedCoefficients {
  const n = width * height;
  const k = toolKernels();
  const l = arena({ guide: n * 12, p: n * 4, planes: n * 13 * 4, rows: n * 4, sums: (width + 2) * 8, a: n * 12, b: n * 4 });
  reserve(k, l.end);
  const memory = k.memory.buffer;
  new Float32Array(memory, l.guide, n * 3).set(guide.subarray(0, n * 3));
  new Float32Array(memory, l.p, n).set(p.subarray(0, n));
  k.guidedCoefficients(l.guide, l.p, width, height, radius, eps, l.planes, l.rows, l.sums, l.a, l.b);
  return { width, height, a: new Float32Array(memory, l.a, n * 3).slice(), b: new Float32Array(memory, l.b, n).slice() };
}
