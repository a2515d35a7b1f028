/**
 * A straightforward develop pass to check the WebAssembly kernel against (the kernel
 * works in single precision, with SIMD, on 8- or 16-bit samples).
 */
import { LUMA_B, LUMA_G, LUMA_R, srgb16ToLinearLut } from '../../src/imaging/colour.js';
import { TONE_LUT_SIZE } from '../../src/imaging/tone/curve.js';
import type { DevelopPlan } from '../../src/imaging/tone/pixel-pass.js';

function clampCode(v: number): number {
  return Math.min(65535, Math.max(0, v + 0.5)) | 0;
}

/** Luma of one input row in code values (weights 1/4, 1/2, 1/4: cheap and close enough for a detail signal). */
function lumaRow(data: Uint16Array, width: number, y: number, out: Float32Array): void {
  let i = y * width * 3;
  for (let x = 0; x < width; x++, i += 3) out[x] = 0.25 * data[i]! + 0.5 * data[i + 1]! + 0.25 * data[i + 2]!;
}

/** Horizontal 1 2 1 sum of a row, edges replicated. */
function blurRow(row: Float32Array, out: Float32Array): void {
  const last = row.length - 1;
  for (let x = 0; x <= last; x++) out[x] = row[x > 0 ? x - 1 : 0]! + 2 * row[x]! + row[x < last ? x + 1 : last]!;
}

/**
 * Develops rows y0..y1−1 of src (16-bit) into the same rows of dst, in plain JavaScript
 * and double precision, step by step as tone/pixel-pass.ts describes the pass.
 */
export function developRowsReference(plan: DevelopPlan, src: Uint16Array, dst: Uint16Array, width: number, height: number, y0: number, y1: number): void {
  const lin = srgb16ToLinearLut();
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = plan.matrix as [number, number, number, number, number, number, number, number, number];
  const { table, tableScale: ts, factors, sharpen, local } = plan;
  const N = TONE_LUT_SIZE;
  // Bilinear upsampling of the local-tone coefficients: per-column indices and weights once,
  // per-row vertical interpolation into two small rows.
  const gw = local?.gridWidth ?? 1;
  const gh = local?.gridHeight ?? 1;
  const x0 = new Int32Array(local ? width : 0);
  const fx = new Float32Array(x0.length);
  for (let x = 0; x < x0.length; x++) {
    const gx = Math.min(gw - 1, Math.max(0, ((x + 0.5) * gw) / width - 0.5));
    x0[x] = Math.min(Math.max(0, gw - 2), Math.floor(gx));
    fx[x] = gx - x0[x]!;
  }
  const rowA = new Float32Array(gw + 1);
  const rowB = new Float32Array(gw + 1);
  const gainTable = local?.gain;
  const boost = local?.boost ?? null;
  const gainScale = local?.scale ?? 0;
  const gainMax = gainTable ? gainTable.length - 1 : 0;
  // Sharpening: the input luma of row y, and rows y−1, y, y+1 blurred horizontally
  // (1 2 1), so the binomial 3×3 blur costs three reads per pixel.
  let luma = new Float32Array(sharpen > 0 ? width : 0);
  let nextLuma = new Float32Array(luma.length);
  let above = new Float32Array(luma.length);
  let here = new Float32Array(luma.length);
  let below = new Float32Array(luma.length);
  if (sharpen > 0) {
    lumaRow(src, width, Math.max(0, y0 - 1), nextLuma);
    blurRow(nextLuma, above);
    lumaRow(src, width, y0, luma);
    blurRow(luma, here);
  }

  for (let y = y0; y < y1; y++) {
    if (sharpen > 0) {
      lumaRow(src, width, Math.min(height - 1, y + 1), nextLuma);
      blurRow(nextLuma, below);
    }
    if (local) {
      const gy = Math.min(gh - 1, Math.max(0, ((y + 0.5) * gh) / height - 0.5));
      const ya = Math.min(Math.max(0, gh - 2), Math.floor(gy));
      const yb = Math.min(gh - 1, ya + 1);
      const fy = gy - ya;
      for (let i = 0; i < gw; i++) {
        rowA[i] = local.a[ya * gw + i]! + fy * (local.a[yb * gw + i]! - local.a[ya * gw + i]!);
        rowB[i] = local.b[ya * gw + i]! + fy * (local.b[yb * gw + i]! - local.b[ya * gw + i]!);
      }
      rowA[gw] = rowA[gw - 1]!;
      rowB[gw] = rowB[gw - 1]!;
    }
    let i = y * width * 3;
    for (let x = 0; x < width; x++, i += 3) {
      let ri = src[i]!;
      let gi = src[i + 1]!;
      let bi = src[i + 2]!;
      if (sharpen > 0) {
        const d = sharpen * (luma[x]! - (above[x]! + 2 * here[x]! + below[x]!) * 0.0625);
        ri = clampCode(ri + d);
        gi = clampCode(gi + d);
        bi = clampCode(bi + d);
      }
      const r0 = lin[ri]!;
      const g0 = lin[gi]!;
      const b0 = lin[bi]!;
      let r = m0 * r0 + m1 * g0 + m2 * b0;
      let g = m3 * r0 + m4 * g0 + m5 * b0;
      let b = m6 * r0 + m7 * g0 + m8 * b0;
      if (gainTable) {
        const yl = LUMA_R * r + LUMA_G * g + LUMA_B * b;
        const l = Math.sqrt(yl > 0 ? yl : 0);
        const xi = x0[x]!;
        const wx = fx[x]!;
        const a = rowA[xi]! + wx * (rowA[xi + 1]! - rowA[xi]!);
        const bb = rowB[xi]! + wx * (rowB[xi + 1]! - rowB[xi]!);
        const base = Math.max(0, a * l + bb);
        const k = Math.min(gainMax, (base * gainScale + 0.5) | 0);
        let gain = gainTable[k]!;
        if (boost !== null && l > 1e-4) {
          const l2 = Math.max(0, l + boost[k]! * (l - base));
          gain *= (l2 * l2) / (l * l);
        }
        r *= gain;
        g *= gain;
        b *= gain;
      }
      let k = Math.sqrt(r > 0 ? r : 0) * ts + 0.5;
      let ro = table[k < N ? k | 0 : N]!;
      k = Math.sqrt(g > 0 ? g : 0) * ts + 0.5;
      let go = table[k < N ? k | 0 : N]!;
      k = Math.sqrt(b > 0 ? b : 0) * ts + 0.5;
      let bo = table[k < N ? k | 0 : N]!;
      if (factors) {
        const ci = ((Math.max(ro, go, bo) - Math.min(ro, go, bo)) * 255 + 0.5) | 0;
        // Skin: red ≥ green ≥ blue with green 20–75 % of the way from blue to red (orange hues).
        const gb = go - bo;
        const rb = ro - bo;
        const skin = (+(ro >= go) & +(gb > 0.2 * rb) & +(gb < 0.75 * rb)) << 8;
        const f = factors[skin + ci]!;
        const yl = 0.2126 * ro + 0.7152 * go + 0.0722 * bo;
        ro = Math.min(1, Math.max(0, yl + f * (ro - yl)));
        go = Math.min(1, Math.max(0, yl + f * (go - yl)));
        bo = Math.min(1, Math.max(0, yl + f * (bo - yl)));
      }
      dst[i] = ro * 65535 + 0.5;
      dst[i + 1] = go * 65535 + 0.5;
      dst[i + 2] = bo * 65535 + 0.5;
    }
    if (sharpen > 0) {
      const spare = above;
      above = here;
      here = below;
      below = spare;
      const previous = luma;
      luma = nextLuma;
      nextLuma = previous;
    }
  }
}
