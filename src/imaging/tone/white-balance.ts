/**
 * Automatic white balance: which light, as it appears in the image, should become
 * neutral. Gray-world fails on scenes dominated by one colour (grass, sky, sand), so the
 * estimate votes instead: every reasonably bright, unclipped pixel votes for its own
 * chromaticity; candidate lights along the daylight (Planckian) locus, a little off it in
 * tint, score by how many pixels they would turn near-neutral, minus a prior that
 * prefers the reference white (a decoded photo is usually balanced already), minus their
 * distance to a gray-edge estimate (van de Weijer et al.), a cue independent of surface
 * colours. A coloured surface only wins when it is common AND its colour lies where real
 * lights lie AND the edges agree. The winner is refined by the mean of the pixels near it.
 */
import { REFERENCE_WHITE, mired, whiteBalanceMatrix, whiteFromIlluminant } from '../colour.js';
import { applyToVector, invert } from '../matrix.js';
import type { LinearImage } from './preview.js';

/** Log-chromaticity histogram: ln(r/g) and ln(b/g) over ±RANGE in BINS² cells. */
const RANGE = 2;
const BINS = 160;
const CELL = (2 * RANGE) / BINS;
/** Candidate lights: mireds 20..500 (50000 K..2000 K), tints −40..40. */
const MIRED_STEP = 4;
const TINT_STEP = 5;
const TINT_LIMIT = 40;
/**
 * Prior widths: how far from the reference white a light may plausibly be. Warm lights
 * (tungsten, sunset) are common and far; cool ones rarely pass open shade, while blue sky
 * and water are common surfaces that would pass for a cool light, so the cool side is narrow.
 */
const SIGMA_MIRED_WARM = 70;
const SIGMA_MIRED_COOL = 35;
const SIGMA_TINT = 6;
/** Uncertainty of a measured tint. */
const TINT_NOISE = 6;
/** Typical error of gray-edge in log-chroma: its estimate is a soft third term of the score. */
const SIGMA_EDGE = 0.15;
/** How far the refinement may move from the winning candidate, in log-chroma. */
const REFINE_LIMIT = 0.04;
/** Pixels within this log-chroma distance of a light count as neutral under it. */
const NEUTRAL_RADIUS = 0.06;

export interface WhiteEstimate {
  temperature: number;
  tint: number;
  /** Fraction of the voting weight that lies near the chosen light (0..1). */
  neutralShare: number;
}

/** The chromaticity in log space that a neutral surface has under the light (temperature, tint). */
function lightChroma(temperature: number, tint: number): [number, number] {
  const [r, g, b] = applyToVector(invert(whiteBalanceMatrix(temperature, tint)), [1, 1, 1]);
  return [Math.log(r / g), Math.log(b / g)];
}

function gaussianBlur2d(h: Float64Array, n: number, sigma: number): Float64Array {
  const radius = Math.ceil(3 * sigma);
  const kernel = new Float64Array(2 * radius + 1);
  for (let i = -radius; i <= radius; i++) kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  const tmp = new Float64Array(n * n);
  const out = new Float64Array(n * n);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++) if (x + k >= 0 && x + k < n) s += h[y * n + x + k]! * kernel[k + radius]!;
      tmp[y * n + x] = s;
    }
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      let s = 0;
      for (let k = -radius; k <= radius; k++) if (y + k >= 0 && y + k < n) s += tmp[(y + k) * n + x]! * kernel[k + radius]!;
      out[y * n + x] = s;
    }
  return out;
}

/** Gray-edge (first order, Minkowski p = 6): the light is the p-norm of the channel gradients. */
function grayEdge(image: LinearImage): [number, number, number] | null {
  const { width, height, data } = image;
  const sum = [0, 0, 0];
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const i = (y * width + x) * 3;
      let clipped = false;
      for (let c = 0; c < 3; c++) if (data[i + c]! > 0.97) clipped = true;
      if (clipped) continue;
      for (let c = 0; c < 3; c++) {
        const gx = data[i + 3 + c]! - data[i - 3 + c]!;
        const gy = data[i + width * 3 + c]! - data[i - width * 3 + c]!;
        const m2 = gx * gx + gy * gy;
        sum[c]! += m2 * m2 * m2;
      }
    }
  if (!(sum[0]! > 0 && sum[1]! > 0 && sum[2]! > 0)) return null;
  return [sum[0]! ** (1 / 6), sum[1]! ** (1 / 6), sum[2]! ** (1 / 6)];
}

export function estimateWhite(image: LinearImage): WhiteEstimate {
  const { data } = image;
  const n = data.length / 3;
  const hist = new Float64Array(BINS * BINS);
  const chroma = new Float32Array(n * 2);
  const weight = new Float32Array(n);
  let total = 0;
  for (let p = 0; p < n; p++) {
    const r = data[p * 3]!;
    const g = data[p * 3 + 1]!;
    const b = data[p * 3 + 2]!;
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    // Dark pixels are noise and JPEG chroma loss; clipped ones lie about their colour.
    if (y < 0.01 || r > 0.97 || g > 0.97 || b > 0.97 || r <= 0 || g <= 0 || b <= 0) continue;
    const u = Math.log(r / g);
    const v = Math.log(b / g);
    const w = Math.sqrt(y);
    chroma[p * 2] = u;
    chroma[p * 2 + 1] = v;
    weight[p] = w;
    total += w;
    const iu = Math.floor((u + RANGE) / CELL);
    const iv = Math.floor((v + RANGE) / CELL);
    if (iu >= 0 && iu < BINS && iv >= 0 && iv < BINS) hist[iv * BINS + iu] += w;
  }
  const reference: WhiteEstimate = { temperature: REFERENCE_WHITE.temperature, tint: REFERENCE_WHITE.tint, neutralShare: 0 };
  if (total === 0) return reference;
  const density = gaussianBlur2d(hist, BINS, NEUTRAL_RADIUS / CELL);
  const refMired = mired(REFERENCE_WHITE.temperature);
  const edge = grayEdge(image);
  const edgeU = edge ? Math.log(edge[0] / edge[1]) : 0;
  const edgeV = edge ? Math.log(edge[2] / edge[1]) : 0;
  let best = { score: -Infinity, u: 0, v: 0 };
  for (let m = 20; m <= 500; m += MIRED_STEP) {
    for (let tint = -TINT_LIMIT; tint <= TINT_LIMIT; tint += TINT_STEP) {
      const [u, v] = lightChroma(1e6 / m, tint);
      const iu = Math.round((u + RANGE) / CELL - 0.5);
      const iv = Math.round((v + RANGE) / CELL - 0.5);
      const vote = iu >= 0 && iu < BINS && iv >= 0 && iv < BINS ? density[iv * BINS + iu]! / total : 0;
      const prior = ((m - refMired) / (m > refMired ? SIGMA_MIRED_WARM : SIGMA_MIRED_COOL)) ** 2 / 2 + (tint / SIGMA_TINT) ** 2 / 2;
      // Cauchy, not Gaussian: an edge estimate far from every plausible light (a scene of
      // one colour) should barely rank the candidates, leaving the decision to the prior.
      const agreement = edge ? Math.log(1 + ((u - edgeU) ** 2 + (v - edgeV) ** 2) / (SIGMA_EDGE * SIGMA_EDGE)) : 0;
      const score = Math.log(vote + 1e-3) - prior - agreement;
      if (score > best.score) best = { score, u, v };
    }
  }
  // Refine: the weighted mean chroma of the pixels the winner makes near-neutral.
  let su = 0;
  let sv = 0;
  let sw = 0;
  const r2 = NEUTRAL_RADIUS * NEUTRAL_RADIUS * 4;
  for (let p = 0; p < n; p++) {
    const w = weight[p]!;
    if (w === 0) continue;
    const du = chroma[p * 2]! - best.u;
    const dv = chroma[p * 2 + 1]! - best.v;
    if (du * du + dv * dv > r2) continue;
    su += w * chroma[p * 2]!;
    sv += w * chroma[p * 2 + 1]!;
    sw += w;
  }
  const share = sw / total;
  // The refinement may move the light within the candidate's neighbourhood, not leave it
  // for the colour of a big surface next to it.
  const limit = (mean: number, centre: number) => centre + Math.max(-REFINE_LIMIT, Math.min(REFINE_LIMIT, mean - centre));
  const u = sw > 0 ? limit(su / sw, best.u) : best.u;
  const v = sw > 0 ? limit(sv / sw, best.v) : best.v;
  const white = whiteFromIlluminant([Math.exp(u), 1, Math.exp(v)]);
  // Little neutral evidence means the answer rests on the prior and gray-edge alone: move
  // only part of the way (shrinkage), since a wrong correction costs more than a missed one.
  const trust = 0.5 + 0.5 * Math.min(1, share / 0.1);
  const m = refMired + trust * (mired(white.temperature) - refMired);
  // The measured tint is noisy (foliage and painted walls sit just off the locus): combine
  // it with the prior as two Gaussians of equal width, i.e. halve it.
  const posterior = SIGMA_TINT ** 2 / (SIGMA_TINT ** 2 + TINT_NOISE ** 2);
  const tint = Math.max(-TINT_LIMIT, Math.min(TINT_LIMIT, trust * posterior * white.tint));
  return { temperature: 1e6 / m, tint, neutralShare: share };
}
