/**
 * The main subject of a photo as a soft mask (the `subject_mask` option), and the subtle
 * subject-aware adjustment the renderer applies with it.
 *
 * Saliency, on a 384 px copy in CIELAB: how far each pixel's colour is from every colour
 * found along the image border (the border is taken as background, clustered by k-means),
 * weighted by a centre prior. Otsu's threshold splits subject from background; the largest
 * regions are kept, holes filled, and the binary mask is refined to a soft one with a
 * guided filter under the image's luma, so its edges follow the subject's.
 *
 * What it does not do: it knows no object classes. A subject with the border's colours
 * (a grey cat on grey stone), or one that fills much of the border (a close-up, a bust cut
 * by the frame), is missed or only partly found; scenes without one subject (landscapes)
 * yield whatever stands out most in colour, at low confidence.
 */
import { downscalePlanes, lumaOf } from '../analysis-copy.js';
import { assertNumberInRange, invalidParameterError } from '../args.js';
import { linearToLab, srgbToLinear } from '../colour.js';
import { boxMean } from '../filters/box.js';
import { guidedFilter } from '../filters/guided.js';
import { assertImage16 } from '../image16.js';
import type { Box, Image16 } from '../types.js';

export interface SubjectMask {
  /** Subject weight 0..1 per pixel of a width × height copy of the image (long edge 384 or less). */
  mask: Float32Array;
  width: number;
  height: number;
  /** Bounding box of mask > 0.5, in the image's pixels. */
  box: Box;
  /** 0..1: how clearly the subject stands out from the background. */
  confidence: number;
}

const ANALYSIS_EDGE = 384;
const BORDER_CLUSTERS = 6;

export async function subjectMask(image: Image16): Promise<SubjectMask> {
  assertImage16(image);
  const planes = await downscalePlanes(image, ANALYSIS_EDGE);
  const { width: w, height: h, scale } = planes;
  const n = w * h;
  const lab = toLab(planes.r, planes.g, planes.b).map((c) => boxMean(c, w, h, 1));
  const saliency = borderContrast(lab, w, h);
  // Centre prior: photographers place subjects away from the edges.
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dx = (x + 0.5) / w - 0.5;
      const dy = (y + 0.5) / h - 0.5;
      saliency[y * w + x]! *= 0.4 + 0.6 * Math.exp(-(dx * dx + dy * dy) / (2 * 0.3 * 0.3));
    }
  }
  const threshold = otsu(saliency);
  const binary = new Uint8Array(n);
  for (let i = 0; i < n; i++) binary[i] = saliency[i]! > threshold ? 1 : 0;
  keepLargeRegions(binary, w, h);
  fillHoles(binary, w, h);
  const hard = Float32Array.from(binary);
  const soft = guidedFilter(lumaOf(planes), hard, w, h, Math.max(2, Math.round(Math.max(w, h) / 64)), 0.01);
  let x0 = w;
  let y0 = h;
  let x1 = -1;
  let y1 = -1;
  let inside = 0;
  let outside = 0;
  let count = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const m = Math.max(0, Math.min(1, soft[i]!));
      soft[i] = m;
      if (binary[i]) {
        inside += saliency[i]!;
        count++;
      } else outside += saliency[i]!;
      if (m > 0.5) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  }
  const box: Box = x1 < 0 ? { x: 0, y: 0, width: 0, height: 0 } : scaleBox({ x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 }, scale, image);
  return { mask: soft, width: w, height: h, box, confidence: maskConfidence(inside, outside, count, n) };
}

/**
 * Contrast of the subject's mean saliency to the background's, discounted when the "subject"
 * covers almost nothing or most of the frame (then there is no one subject).
 */
function maskConfidence(inside: number, outside: number, count: number, n: number): number {
  if (count === 0 || count === n) return 0;
  const meanIn = inside / count;
  const meanOut = outside / (n - count);
  const area = count / n;
  const contrast = (meanIn - meanOut) / (meanIn + 1e-6);
  const coverage = Math.min(1, area / 0.02) * Math.min(1, (0.85 - area) / 0.25);
  return Math.round(Math.max(0, Math.min(1, contrast * coverage)) * 1000) / 1000;
}

function scaleBox(b: Box, scale: number, image: Image16): Box {
  const x = Math.max(0, Math.floor(b.x * scale));
  const y = Math.max(0, Math.floor(b.y * scale));
  return { x, y, width: Math.min(image.width, Math.ceil((b.x + b.width) * scale)) - x, height: Math.min(image.height, Math.ceil((b.y + b.height) * scale)) - y };
}

/** sRGB-encoded planes (0..1) to CIELAB L*, a*, b* planes (D65). */
function toLab(r: Float32Array, g: Float32Array, b: Float32Array): [Float32Array, Float32Array, Float32Array] {
  const n = r.length;
  const L = new Float32Array(n);
  const A = new Float32Array(n);
  const B = new Float32Array(n);
  const pixel = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    linearToLab(srgbToLinear(r[i]!), srgbToLinear(g[i]!), srgbToLinear(b[i]!), pixel);
    L[i] = pixel[0]!;
    A[i] = pixel[1]!;
    B[i] = pixel[2]!;
  }
  return [L, A, B];
}

/** Distance (ΔE76) from each pixel to the nearest colour cluster of the border band, normalised to 0..1 at the 99th percentile. */
function borderContrast(lab: Float32Array[], w: number, h: number): Float32Array {
  const band = Math.max(2, Math.round(Math.min(w, h) / 24));
  const border: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (x < band || y < band || x >= w - band || y >= h - band) border.push(y * w + x);
    }
  }
  const centres = kMeans(lab, border, BORDER_CLUSTERS);
  const n = w * h;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let best = Infinity;
    for (const c of centres) {
      const d = (lab[0]![i]! - c[0]!) ** 2 + (lab[1]![i]! - c[1]!) ** 2 + (lab[2]![i]! - c[2]!) ** 2;
      if (d < best) best = d;
    }
    out[i] = Math.sqrt(best);
  }
  const top = Float32Array.from(out).sort()[Math.floor(0.99 * (n - 1))]! || 1;
  for (let i = 0; i < n; i++) out[i] = Math.min(1, out[i]! / top);
  return out;
}

/** Lloyd's k-means over the listed pixels, seeded at evenly spaced border positions (deterministic). */
function kMeans(lab: Float32Array[], pixels: number[], k: number): Float64Array[] {
  const centres = Array.from({ length: k }, (_, c) => {
    const p = pixels[Math.floor(((c + 0.5) / k) * pixels.length)]!;
    return Float64Array.of(lab[0]![p]!, lab[1]![p]!, lab[2]![p]!);
  });
  const sums = centres.map(() => new Float64Array(4));
  for (let iteration = 0; iteration < 10; iteration++) {
    for (const s of sums) s.fill(0);
    for (const p of pixels) {
      let best = 0;
      let bestD = Infinity;
      for (let c = 0; c < k; c++) {
        const d = (lab[0]![p]! - centres[c]![0]!) ** 2 + (lab[1]![p]! - centres[c]![1]!) ** 2 + (lab[2]![p]! - centres[c]![2]!) ** 2;
        if (d < bestD) {
          bestD = d;
          best = c;
        }
      }
      const s = sums[best]!;
      s[0] += lab[0]![p]!;
      s[1] += lab[1]![p]!;
      s[2] += lab[2]![p]!;
      s[3] += 1;
    }
    sums.forEach((s, c) => {
      if (s[3]! > 0) centres[c] = Float64Array.of(s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!);
    });
  }
  return centres;
}

/** Otsu's threshold of values in 0..1 (256 bins). */
function otsu(values: Float32Array): number {
  const hist = new Float64Array(256);
  for (const v of values) hist[Math.min(255, Math.floor(v * 256))]! += 1;
  const total = values.length;
  let sumAll = 0;
  for (let t = 0; t < 256; t++) sumAll += t * hist[t]!;
  let weightBelow = 0;
  let sumBelow = 0;
  let best = 0;
  let bestVar = -1;
  for (let t = 0; t < 256; t++) {
    weightBelow += hist[t]!;
    if (weightBelow === 0 || weightBelow === total) continue;
    sumBelow += t * hist[t]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / (total - weightBelow);
    const between = weightBelow * (total - weightBelow) * (meanBelow - meanAbove) ** 2;
    if (between > bestVar) {
      bestVar = between;
      best = t;
    }
  }
  return (best + 1) / 256;
}

/** Labels 4-connected regions of value `of`; returns labels (0 = other) and region sizes (index = label). */
function label(binary: Uint8Array, w: number, h: number, of: 0 | 1): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(w * h);
  const sizes = [0];
  const stack: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (binary[start] !== of || labels[start] !== 0) continue;
    const id = sizes.length;
    let size = 0;
    labels[start] = id;
    stack.push(start);
    while (stack.length > 0) {
      const i = stack.pop()!;
      size++;
      const x = i % w;
      for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i - w, i + w]) {
        if (j >= 0 && j < w * h && binary[j] === of && labels[j] === 0) {
          labels[j] = id;
          stack.push(j);
        }
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}

/** Keeps the regions at least a quarter the size of the largest: specks of salient texture are not the subject. */
function keepLargeRegions(binary: Uint8Array, w: number, h: number): void {
  const { labels, sizes } = label(binary, w, h, 1);
  const largest = Math.max(0, ...sizes);
  for (let i = 0; i < binary.length; i++) if (binary[i] && sizes[labels[i]!]! < largest / 4) binary[i] = 0;
}

/** Background regions that do not touch the border are holes in the subject. */
function fillHoles(binary: Uint8Array, w: number, h: number): void {
  const { labels, sizes } = label(binary, w, h, 0);
  const touches = new Uint8Array(sizes.length);
  for (let x = 0; x < w; x++) {
    touches[labels[x]!] = 1;
    touches[labels[(h - 1) * w + x]!] = 1;
  }
  for (let y = 0; y < h; y++) {
    touches[labels[y * w]!] = 1;
    touches[labels[y * w + w - 1]!] = 1;
  }
  for (let i = 0; i < binary.length; i++) if (!binary[i] && !touches[labels[i]!]) binary[i] = 1;
}

/** Exposure change in EV on the subject and on the background at amount 100. */
const SUBJECT_EV = 0.3;
const BACKGROUND_EV = -0.3;
/** Local-contrast gain on the subject at amount 100. */
const SUBJECT_CLARITY = 0.35;

/**
 * The `subject_mask` edit: a subtle subject-aware adjustment. At amount 0..100 the subject's
 * midtones are lifted by up to +0.3 EV and its local contrast (clarity) raised, while the
 * background's midtones are lowered by up to 0.3 EV; whites and blacks stay where they are.
 */
export async function applySubjectEmphasis(image: Image16, subject: SubjectMask, amount: number): Promise<Image16> {
  assertImage16(image);
  if (!(subject && subject.mask instanceof Float32Array && subject.mask.length === subject.width * subject.height && subject.width >= 1 && subject.height >= 1)) {
    throw invalidParameterError('subject', 'a SubjectMask {mask: Float32Array of width × height, width, height}', subject);
  }
  assertNumberInRange(amount, 'amount', 0, 100);
  const { width, height, data } = image;
  const out: Image16 = { width, height, data: data.slice() };
  if (amount === 0) return out;
  const a = amount / 100;
  const luma = new Float32Array(width * height);
  for (let i = 0, j = 0; i < luma.length; i++, j += 3) luma[i] = (0.299 * data[j]! + 0.587 * data[j + 1]! + 0.114 * data[j + 2]!) / 65535;
  const local = boxMean(luma, width, height, Math.max(2, Math.round(Math.max(width, height) / 150)));
  const { mask, width: mw, height: mh } = subject;
  // The midtone gain depends on the mask value alone: tabulated, not a power per pixel.
  const gains = new Float64Array(257);
  for (let q = 0; q <= 256; q++) gains[q] = 2 ** ((a * (SUBJECT_EV * (q / 256) + BACKGROUND_EV * (1 - q / 256))) / 2.2);
  const sx = mw / width;
  const sy = mh / height;
  for (let y = 0; y < height; y++) {
    const my = Math.max(0, Math.min(mh - 1, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(my);
    const y1 = Math.min(mh - 1, y0 + 1);
    const ty = my - y0;
    for (let x = 0; x < width; x++) {
      const mx = Math.max(0, Math.min(mw - 1, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(mx);
      const x1 = Math.min(mw - 1, x0 + 1);
      const tx = mx - x0;
      const m = (mask[y0 * mw + x0]! * (1 - tx) + mask[y0 * mw + x1]! * tx) * (1 - ty) + (mask[y1 * mw + x0]! * (1 - tx) + mask[y1 * mw + x1]! * tx) * ty;
      const gain = gains[Math.round(m * 256)]!;
      const i = y * width + x;
      const detail = a * SUBJECT_CLARITY * m * (luma[i]! - local[i]!);
      for (let c = 0; c < 3; c++) {
        const v = data[i * 3 + c]! / 65535;
        // A midtone gain that keeps 0 and 1 in place, so nothing clips.
        const lifted = (v * gain) / (1 + (gain - 1) * v) + detail;
        out.data[i * 3 + c] = Math.round(Math.max(0, Math.min(1, lifted)) * 65535);
      }
    }
  }
  return out;
}
