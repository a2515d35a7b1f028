/**
 * Features of a photo for the learned automatic edit, computed on a small linear-light
 * preview: where its colours and its edges lie in log-chromaticity (a light's cast moves
 * both by the same offset, while edges between surfaces cancel most surface colour), how
 * its luminance is distributed (exposure, contrast, black level) and how saturated it is.
 * The training script and the service call the same function, so they cannot disagree;
 * FEATURE_SPEC names the layout and is hashed into the weights.
 */
import { LUMA_B, LUMA_G, LUMA_R } from '../colour.js';
import { linearPreview, type LinearImage } from '../tone/preview.js';
import type { RgbImage } from '../types.js';

/** Long edge of the preview the features are computed on. */
export const FEATURE_EDGE = 256;

/** Log-chroma histograms: BINS² cells over ±RANGE of ln(r/g) and ln(b/g), soft-binned. */
const BINS = 6;
const RANGE = 1.6;
const CHROMA_QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95];
const LUMA_QUANTILES = [0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.98, 0.995];
/** Histogram of log2 luminance: LUMA_BINS cells from −LUMA_STOPS to 0. */
const LUMA_BINS = 12;
const LUMA_STOPS = 12;
const SATURATION_QUANTILES = [0.5, 0.9];
/** Quantiles of log2 max(R, G, B): where the highlights sit, the cue auto-level and auto-exposure tools read. */
const PEAK_QUANTILES = [0.5, 0.9, 0.98, 0.995, 0.999];
/** Per-channel quantiles for the white patch: the brightest level of each channel is the light's, where something white was lit. */
const PATCH_QUANTILES = [0.995, 0.999];
/** A plateau: pixels within this factor of the brightest max(R, G, B), what a clipped highlight leaves after a later darkening. */
const PLATEAU = 0.99;

/** Changes whenever the layout or the meaning of a feature changes; the weights record it. */
export const FEATURE_SPEC = `chroma${BINS}x${RANGE}+edge+q${CHROMA_QUANTILES.join(',')}+luma${LUMA_QUANTILES.join(',')}+lh${LUMA_BINS}/${LUMA_STOPS}+sat${SATURATION_QUANTILES.join(',')}+peak${PEAK_QUANTILES.join(',')}+spreads+bright+loglmean+patch${PATCH_QUANTILES.join(',')}+plateau${PLATEAU}-v5`;

/** Floors of the logs: black pixels and flat regions carry no chroma. */
const EPS = 1e-4;
/** Pixels darker than this are JPEG chroma noise; brighter than CLIP lie about their colour. */
const DARK = 0.004;
const CLIP = 0.98;

/** Adds weight w at (u, v) into a BINS² histogram by bilinear splatting, edges clamped. */
function splat(hist: Float64Array, u: number, v: number, w: number): void {
  const fu = Math.min(BINS - 1, Math.max(0, ((u + RANGE) / (2 * RANGE)) * BINS - 0.5));
  const fv = Math.min(BINS - 1, Math.max(0, ((v + RANGE) / (2 * RANGE)) * BINS - 0.5));
  const iu = Math.min(BINS - 2, Math.floor(fu));
  const iv = Math.min(BINS - 2, Math.floor(fv));
  const tu = fu - iu;
  const tv = fv - iv;
  hist[iv * BINS + iu] += w * (1 - tu) * (1 - tv);
  hist[iv * BINS + iu + 1] += w * tu * (1 - tv);
  hist[(iv + 1) * BINS + iu] += w * (1 - tu) * tv;
  hist[(iv + 1) * BINS + iu + 1] += w * tu * tv;
}

/**
 * Weighted quantiles of values in lo..hi through a histogram of `bins` cells, linear within a
 * cell: exact to a cell's width and far cheaper than sorting.
 */
function quantiles(values: Float32Array, weights: Float32Array | null, n: number, lo: number, hi: number, bins: number, qs: readonly number[]): number[] {
  if (n === 0) return qs.map(() => 0);
  const hist = new Float64Array(bins);
  const scale = bins / (hi - lo);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i]! : 1;
    hist[Math.min(bins - 1, Math.max(0, Math.floor((values[i]! - lo) * scale)))] += w;
    total += w;
  }
  const out: number[] = [];
  let acc = 0;
  let k = 0;
  for (const q of qs) {
    const target = q * total;
    while (k < bins - 1 && acc + hist[k]! < target) acc += hist[k++]!;
    const within = hist[k]! > 0 ? Math.min(1, Math.max(0, (target - acc) / hist[k]!)) : 0.5;
    out.push(lo + (k + within) / scale);
  }
  return out;
}

/** Square roots of a normalised histogram: differences between histograms then weigh evenly. */
function normalisedRoots(hist: Float64Array): number[] {
  let sum = 0;
  for (const h of hist) sum += h;
  return Array.from(hist, (h) => (sum > 0 ? Math.sqrt(h / sum) : 0));
}

export function photoFeatures(preview: LinearImage): Float64Array {
  const { width, height, data } = preview;
  const n = width * height;
  const chroma = new Float64Array(BINS * BINS);
  const edges = new Float64Array(BINS * BINS);
  const us = new Float32Array(n);
  const vs = new Float32Array(n);
  const ws = new Float32Array(n);
  /** log2 luminance of the pixels that have a chroma, for the chroma of the brightest. */
  const ls = new Float32Array(n);
  const eus = new Float32Array(n);
  const evs = new Float32Array(n);
  const ews = new Float32Array(n);
  const lumas = new Float32Array(n);
  const peaks = new Float32Array(n);
  const channels = [new Float32Array(n), new Float32Array(n), new Float32Array(n)] as const;
  const sats = new Float32Array(n);
  const mean = [0, 0, 0];
  const edgeNorm = [0, 0, 0];
  let nc = 0;
  let ne = 0;
  let ns = 0;
  let clipped = 0;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const r = Math.max(0, data[i]!);
      const g = Math.max(0, data[i + 1]!);
      const b = Math.max(0, data[i + 2]!);
      const l = LUMA_R * r + LUMA_G * g + LUMA_B * b;
      lumas[y * width + x] = l;
      mean[0]! += r;
      mean[1]! += g;
      mean[2]! += b;
      const mx = Math.max(r, g, b);
      const lr = Math.log2(r + EPS);
      const lg = Math.log2(g + EPS);
      const lb = Math.log2(b + EPS);
      channels[0][y * width + x] = lr;
      channels[1][y * width + x] = lg;
      channels[2][y * width + x] = lb;
      // The log of the largest channel, log2(mx + EPS), without a fourth log.
      peaks[y * width + x] = Math.max(lr, lg, lb);
      if (mx > CLIP) clipped++;
      if (mx > DARK) {
        // Saturation as the eye sees it: on square roots, a stand-in for the display encoding.
        sats[ns++] = 1 - Math.sqrt(Math.min(r, g, b) / mx);
      }
      if (l > DARK && mx <= CLIP) {
        const u = Math.log((r + EPS) / (g + EPS));
        const v = Math.log((b + EPS) / (g + EPS));
        const w = Math.sqrt(l);
        splat(chroma, u, v, w);
        us[nc] = u;
        vs[nc] = v;
        ls[nc] = Math.log2(l + EPS);
        ws[nc++] = w;
      }
      if (x + 1 < width && y + 1 < height) {
        const j = i + 3;
        const k = i + width * 3;
        const dr = Math.abs(data[j]! - r) + Math.abs(data[k]! - r);
        const dg = Math.abs(data[j + 1]! - g) + Math.abs(data[k + 1]! - g);
        const db = Math.abs(data[j + 2]! - b) + Math.abs(data[k + 2]! - b);
        const m = LUMA_R * dr + LUMA_G * dg + LUMA_B * db;
        if (m > DARK * 0.5 && mx <= CLIP) {
          const u = Math.log((dr + EPS) / (dg + EPS));
          const v = Math.log((db + EPS) / (dg + EPS));
          splat(edges, u, v, m);
          eus[ne] = u;
          evs[ne] = v;
          ews[ne++] = m;
          const r2 = dr * dr;
          const g2 = dg * dg;
          const b2 = db * db;
          edgeNorm[0]! += r2 * r2 * r2;
          edgeNorm[1]! += g2 * g2 * g2;
          edgeNorm[2]! += b2 * b2 * b2;
        }
      }
    }
  const logRatio = (a: number, b: number) => Math.log((a + EPS) / (b + EPS));
  let lumaSum = 0;
  for (let p = 0; p < n; p++) {
    lumaSum += lumas[p]!;
    lumas[p] = Math.log2(lumas[p]! + EPS);
  }
  const luma = quantiles(lumas, null, n, -14, 1, 1500, LUMA_QUANTILES);
  const lumaHist = new Float64Array(LUMA_BINS);
  for (let p = 0; p < n; p++) lumaHist[Math.min(LUMA_BINS - 1, Math.max(0, Math.floor(((lumas[p]! + LUMA_STOPS) / LUMA_STOPS) * LUMA_BINS)))] += 1;
  // Logs of spreads: contrast and saturation multiply them, so their logs move linearly with the targets.
  const spread = (hi: number, lo: number) => Math.log(Math.max(1e-3, hi - lo));
  const [u5, u25, , u75, u95] = quantiles(us, ws, nc, -3, 3, 1200, CHROMA_QUANTILES) as [number, number, number, number, number];
  const [v5, v25, , v75, v95] = quantiles(vs, ws, nc, -3, 3, 1200, CHROMA_QUANTILES) as [number, number, number, number, number];
  const [l05, l2, l5, l10, l25, l50, l75, l90, l95, l98, l995] = luma as [number, number, number, number, number, number, number, number, number, number, number];
  const [s50, s90] = quantiles(sats, null, ns, 0, 1, 500, SATURATION_QUANTILES) as [number, number];
  const spreads = [
    spread(l95, l5),
    spread(l75, l25),
    spread(l995, l50),
    spread(l50, l2),
    spread(l90, l10),
    spread(u95, u5),
    spread(u75, u25),
    spread(v95, v5),
    spread(v75, v25),
    Math.log(s50 + 1e-3),
    Math.log(s90 + 1e-3),
    // Black level in linear light: a lift adds to it.
    2 ** l05,
    2 ** l2,
    2 ** l5,
    l98,
  ];
  // The brightest surfaces are most often white or grey (clouds, walls, highlights): their chroma is the light's.
  const bright = (threshold: number): [number, number] => {
    let su = 0;
    let sv = 0;
    let sw = 0;
    for (let p = 0; p < nc; p++)
      if (ls[p]! >= threshold) {
        su += us[p]!;
        sv += vs[p]!;
        sw++;
      }
    return sw > 0 ? [su / sw, sv / sw] : [0, 0];
  };
  const [rPatch, gPatch, bPatch] = channels.map((c) => quantiles(c, null, n, -14, 1, 1500, PATCH_QUANTILES)) as [number[], number[], number[]];
  const patch = PATCH_QUANTILES.flatMap((_, k) => [(rPatch[k]! - gPatch[k]!) * Math.LN2, (bPatch[k]! - gPatch[k]!) * Math.LN2]);
  const features = [
    ...spreads,
    ...patch,
    ...plateau(data, n),
    ...bright(l90),
    ...bright(l98),
    ...normalisedRoots(chroma),
    ...normalisedRoots(edges),
    ...quantiles(us, ws, nc, -3, 3, 1200, CHROMA_QUANTILES),
    ...quantiles(vs, ws, nc, -3, 3, 1200, CHROMA_QUANTILES),
    ...quantiles(eus, ews, ne, -3, 3, 1200, CHROMA_QUANTILES),
    ...quantiles(evs, ews, ne, -3, 3, 1200, CHROMA_QUANTILES),
    // Gray-world and a gray-edge-like p-norm: classic cues a model can weigh.
    logRatio(mean[0]!, mean[1]!),
    logRatio(mean[2]!, mean[1]!),
    logRatio(edgeNorm[0]! ** (1 / 6), edgeNorm[1]! ** (1 / 6)),
    logRatio(edgeNorm[2]! ** (1 / 6), edgeNorm[1]! ** (1 / 6)),
    ...luma,
    ...normalisedRoots(lumaHist),
    lumas.reduce((sum, l) => sum + l, 0) / Math.max(1, n),
    Math.log2(lumaSum / Math.max(1, n) + EPS),
    ...quantiles(peaks, null, n, -14, 1, 1500, PEAK_QUANTILES),
    clipped / Math.max(1, n),
    s50,
    s90,
    ns > 0 ? sats.subarray(0, ns).reduce((s, v) => s + v, 0) / ns : 0,
    nc / Math.max(1, n),
  ];
  return Float64Array.from(features, (f) => (Number.isFinite(f) ? f : 0));
}

/** The share of pixels on the brightest plateau and their mean log-chroma. */
function plateau(data: Float32Array, n: number): [number, number, number] {
  let top = 0;
  for (let p = 0; p < n; p++) top = Math.max(top, data[3 * p]!, data[3 * p + 1]!, data[3 * p + 2]!);
  let count = 0;
  let su = 0;
  let sv = 0;
  for (let p = 0; p < n; p++) {
    const r = Math.max(0, data[3 * p]!);
    const g = Math.max(0, data[3 * p + 1]!);
    const b = Math.max(0, data[3 * p + 2]!);
    if (Math.max(r, g, b) < PLATEAU * top) continue;
    count++;
    su += Math.log((r + EPS) / (g + EPS));
    sv += Math.log((b + EPS) / (g + EPS));
  }
  return count > 0 ? [Math.sqrt(count / n), su / count, sv / count] : [0, 0, 0];
}

/** The linear preview the features (and the guards) are computed on. */
export function featurePreview(image: RgbImage): LinearImage {
  return linearPreview(image, FEATURE_EDGE);
}
