/**
 * Portrait skin retouching (the `smooth_skin` option) by frequency separation under a
 * soft skin mask, on the full-resolution pixels around each face:
 * - low: an edge-preserving (guided-filter) base, which keeps the shape of cheeks, nose and jaw;
 * - mid: what lies between the base and the finest scale, where blemishes, redness patches
 *   and uneven tone live; it is attenuated;
 * - fine: pore-scale texture; mostly kept, so skin does not turn to plastic.
 * The mask is skin chroma × nearness to a face × not an edge (eyes, brows, lips, nostrils and
 * hair edges keep their detail), and it is exactly zero wherever a pixel is not skin-coloured,
 * so clothes, hair and background come back bit for bit.
 */
import { assertBox, assertNumberInRange, invalidParameterError } from '../args.js';
import { detectFaces } from '../faces/detect.js';
import { boxMean } from '../filters/box.js';
import { guidedFilter } from '../filters/guided.js';
import { assertImage16 } from '../image16.js';
import type { Box, Image16 } from '../types.js';
import { skinLikelihood } from './skin-colour.js';

export interface SmoothSkinOptions {
  /** Faces to retouch, in image pixels; detected when omitted. An empty list leaves the image as it is. */
  faces?: Box[];
}

/** Share of the mid band removed and of the fine band kept at full strength. */
const MID_KEPT = 0.1;
const FINE_KEPT = 0.5;
/** Guided-filter regulariser: luma steps well below sqrt(eps) = 0.1 (blemishes, uneven tone) are smoothed, stronger ones kept. */
const BASE_EPS = 0.1 * 0.1;

/**
 * Returns a retouched copy: strength 0..100 scales how far masked skin moves towards its
 * smoothed version (0: unchanged). Without faces (given or detected) nothing changes: skin
 * colour alone also matches sand, wood and brick, which must not be smoothed.
 */
export async function smoothSkin(image: Image16, strength: number, options: SmoothSkinOptions = {}): Promise<Image16> {
  assertImage16(image);
  assertNumberInRange(strength, 'strength', 0, 100);
  if (options.faces !== undefined) {
    if (!Array.isArray(options.faces)) throw invalidParameterError('faces', 'an array of boxes {x, y, width, height}', options.faces);
    for (const [i, face] of options.faces.entries()) assertBox(face, `faces[${i}]`);
  }
  const out: Image16 = { width: image.width, height: image.height, data: image.data.slice() };
  if (strength === 0) return out;
  const faces = (options.faces ?? (await detectFaces(image))).filter((f) => f.width >= 8 && f.height >= 8);
  if (faces.length === 0) return out;
  const roi = retouchRegion(faces, image.width, image.height);
  retouch(image, out, roi, faces, strength / 100);
  return out;
}

/** Where a face's skin may be: the face ellipse widened, and down to the neck. */
function faceReach(f: Box): { cx: number; cy: number; rx: number; ry: number } {
  return { cx: f.x + f.width / 2, cy: f.y + f.height * 0.7, rx: f.width * 0.8, ry: f.height * 1.1 };
}

function retouchRegion(faces: Box[], width: number, height: number): Box {
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (const f of faces) {
    const { cx, cy, rx, ry } = faceReach(f);
    x0 = Math.min(x0, cx - rx);
    y0 = Math.min(y0, cy - ry);
    x1 = Math.max(x1, cx + rx);
    y1 = Math.max(y1, cy + ry);
  }
  const x = Math.max(0, Math.floor(x0));
  const y = Math.max(0, Math.floor(y0));
  return { x, y, width: Math.min(width, Math.ceil(x1)) - x, height: Math.min(height, Math.ceil(y1)) - y };
}

function retouch(src: Image16, dst: Image16, roi: Box, faces: Box[], amount: number): void {
  const { width: w, height: h } = roi;
  if (w < 4 || h < 4) return;
  const n = w * h;
  const channels = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  const luma = new Float32Array(n);
  const skin = new Float32Array(n);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const j = ((roi.y + y) * src.width + roi.x + x) * 3;
      const r = src.data[j]! / 65535;
      const g = src.data[j + 1]! / 65535;
      const b = src.data[j + 2]! / 65535;
      channels[0]![i] = r;
      channels[1]![i] = g;
      channels[2]![i] = b;
      luma[i] = 0.299 * r + 0.587 * g + 0.114 * b;
      skin[i] = skinLikelihood(r, g, b);
    }
  }
  // Scales follow the (largest) face, so the look does not depend on the photo's resolution.
  const faceWidth = Math.max(...faces.map((f) => f.width));
  const baseRadius = Math.max(2, Math.round(faceWidth / 20));
  const fineRadius = Math.max(1, Math.round(faceWidth / 250));
  const mask = skinMask(luma, skin, w, h, roi, faces, faceWidth);
  const smoothed = channels.map((p) => {
    const low = guidedFilter(luma, p, w, h, baseRadius, BASE_EPS);
    const blurred = boxMean(p, w, h, fineRadius);
    // low + kept mid + kept fine, with mid = blurred - low and fine = p - blurred.
    for (let i = 0; i < n; i++) low[i] = low[i]! + MID_KEPT * (blurred[i]! - low[i]!) + FINE_KEPT * (p[i]! - blurred[i]!);
    return low;
  });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const m = mask[i]! * amount;
      if (m <= 0) continue;
      const j = ((roi.y + y) * src.width + roi.x + x) * 3;
      for (let c = 0; c < 3; c++) {
        const v = channels[c]![i]! + m * (smoothed[c]![i]! - channels[c]![i]!);
        dst.data[j + c] = Math.round(Math.max(0, Math.min(1, v)) * 65535);
      }
    }
  }
}

/**
 * Skin chroma (softened over a few pixels, but never above the pixel's own likelihood, so
 * non-skin stays exactly 0) × nearness to a face × (1 - edge strength, widened).
 */
function skinMask(luma: Float32Array, skin: Float32Array, w: number, h: number, roi: Box, faces: Box[], faceWidth: number): Float32Array {
  const n = w * h;
  const soft = boxMean(skin, w, h, Math.max(1, Math.round(faceWidth / 100)));
  // Edges: luma differences across ~1/25 of the face, after averaging over ~1/40 of it:
  // small spots average away, while eyes, brows, lips and the hairline are larger and stay.
  const step = Math.max(1, Math.round(faceWidth / 25));
  const base = boxMean(luma, w, h, Math.max(1, Math.round(faceWidth / 40)));
  const edge = new Float32Array(n);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const gx = base[y * w + Math.min(w - 1, x + step)]! - base[y * w + Math.max(0, x - step)]!;
      const gy = base[Math.min(h - 1, y + step) * w + x]! - base[Math.max(0, y - step) * w + x]!;
      edge[y * w + x] = Math.max(0, Math.min(1, (Math.hypot(gx, gy) - 0.06) / 0.06));
    }
  }
  const wideEdge = boxMean(edge, w, h, Math.max(1, Math.round(faceWidth / 40)));
  const reaches = faces.map(faceReach);
  const mask = new Float32Array(n);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (skin[i]! <= 0) continue;
      let near = 0;
      for (const { cx, cy, rx, ry } of reaches) {
        const d = Math.hypot((roi.x + x + 0.5 - cx) / rx, (roi.y + y + 0.5 - cy) / ry);
        near = Math.max(near, Math.max(0, Math.min(1, (1 - d) / 0.25)));
      }
      const protect = Math.max(edge[i]!, Math.min(1, 2 * wideEdge[i]!));
      mask[i] = Math.min(skin[i]!, soft[i]!) * near * (1 - protect);
    }
  }
  return mask;
}
