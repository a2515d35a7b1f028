/**
 * Small float copies of an image for analysis: decisions (sky and window masks, faces,
 * skin, subject) are taken on a downscaled copy and applied at full size. Values are
 * sRGB-encoded, 0..1.
 */
import { sharedFloat32 } from './bands.js';
import { framedAt, type GeometryPlan } from './geometry/frame.js';
import { renderPlan } from './geometry/warp.js';
import { image16FromSharp, resizeImage16, resizeImage8, sharpFromImage16, shrinkToLongEdge, sizeForLongEdge } from './image16.js';
import type { Image16, Image8, RgbImage } from './types.js';

/** Long edge of the copies sky and window segmentation work on: detail enough, a fraction of the cost. */
export const ANALYSIS_EDGE = 640;

/** Interleaved RGB floats. */
export interface AnalysisCopy {
  width: number;
  height: number;
  rgb: Float32Array;
}

/**
 * Downscales (Lanczos-3, never enlarging) so the long edge is at most longEdge, and converts to
 * floats; on an imaging thread, in shared memory, so that the tasks render offers to the other
 * threads (composite-fits.ts, sky/scene.ts) read it without a copy.
 */
export async function analysisCopy(image: Image16, longEdge: number): Promise<AnalysisCopy> {
  return floatCopy(await shrinkToLongEdge(image, longEdge));
}

/** How much finer than the copy the framed picture is rendered before the last shrink: bilinear taps at the copy's own scale blur it (mean difference 0.004–0.006 against analysisCopy), at twice it a third as much. */
const FRAMED_OVERSAMPLING = 2;

/**
 * analysisCopy of the framed photo (the plan's output, the photo itself without a plan) made
 * from its 8-bit photo, without reading the full-size framed image, which at 16 bits costs
 * libvips' slow path (about 130 ms CPU at 18 MP): libvips shrinks the photo at 8 bits (its
 * vector path) to FRAMED_OVERSAMPLING × the copy's scale, the plan renders that small photo
 * (framedAt) and a 16-bit Lanczos-3 shrink of it makes the copy. The same size as
 * analysisCopy(framed), within resampling error of it (mean absolute difference about
 * 0.0015 of full scale on the test corpus, test/imaging/analysis-copy.test.ts). A photo not
 * larger than oversampling needs is framed full size anyway: its copy is analysisCopy(framed).
 */
export async function framedAnalysisCopy(photo: Image8, plan: GeometryPlan | null, framed: Image16, longEdge: number): Promise<AnalysisCopy> {
  const out = sizeForLongEdge(framed.width, framed.height, longEdge);
  const scale = (FRAMED_OVERSAMPLING * out.width) / framed.width;
  if (scale >= 1) return analysisCopy(framed, longEdge);
  if (!plan) return floatCopy(await resizeImage8(photo, out.width, out.height));
  const small = await resizeImage8(photo, Math.max(1, Math.round(photo.width * scale)), Math.max(1, Math.round(photo.height * scale)));
  const fine = await renderPlan(small, framedAt(plan, photo, small, { width: FRAMED_OVERSAMPLING * out.width, height: FRAMED_OVERSAMPLING * out.height }));
  return floatCopy(await resizeImage16(fine, out.width, out.height));
}

/** Interleaved floats 0..1 of an image's samples, in shared memory. */
function floatCopy(image: RgbImage): AnalysisCopy {
  const rgb = sharedFloat32(image.data.length);
  const unit = image.data instanceof Uint8Array ? 255 : 65535;
  const { data } = image;
  for (let i = 0; i < rgb.length; i++) rgb[i] = data[i]! / unit;
  return { width: image.width, height: image.height, rgb };
}

/** R, G, B planes of an image scaled by 1/scale. */
export interface RgbPlanes {
  width: number;
  height: number;
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
  /** Full-size pixels per analysis pixel (>= 1). */
  scale: number;
}

/** Downscales (never enlarges) so the long edge is at most longEdge, with libvips' area-averaging resize, into planes. */
export async function downscalePlanes(image: Image16, longEdge: number): Promise<RgbPlanes> {
  const small = Math.max(image.width, image.height) > longEdge ? await image16FromSharp(sharpFromImage16(image).resize(longEdge, longEdge, { fit: 'inside', kernel: 'linear' })) : image;
  const { width, height, data } = small;
  const n = width * height;
  const r = new Float32Array(n);
  const g = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    r[i] = data[j]! / 65535;
    g[i] = data[j + 1]! / 65535;
    b[i] = data[j + 2]! / 65535;
  }
  return { width, height, r, g, b, scale: image.width / width };
}

/** Rec. 601 luma of sRGB-encoded planes. */
export function lumaOf(planes: RgbPlanes): Float32Array {
  const { r, g, b } = planes;
  const y = new Float32Array(r.length);
  for (let i = 0; i < y.length; i++) y[i] = 0.299 * r[i]! + 0.587 * g[i]! + 0.114 * b[i]!;
  return y;
}
