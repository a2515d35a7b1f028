import { srgb16ToLinearLut } from '../../src/imaging/colour.js';
import type { Image16 } from '../../src/imaging/types.js';

/** Side of the blocks chroma is compared over: averages out sensor and JPEG noise, keeps 16 px JPEG chroma blocks visible. */
const BLOCK = 4;
/** Encoded value from which a channel counts as clipped: its chromaticity says nothing. */
const CLIPPED = Math.round(0.985 * 65535);
/** Mean linear luminance below which a block is too dark for its chromaticity to be trusted. */
const DARK = 0.004;
/** Spurious chroma beyond this (rg chromaticity) is a visible colour that no frame shows (a grey turning cyan by 0.02 is obvious). */
export const SPURIOUS_THRESHOLD = 0.02;

export interface SpuriousChroma {
  /** Mean over compared blocks of the distance from the fusion's chromaticity to the frames'. */
  mean: number;
  /** Share of compared blocks whose distance exceeds SPURIOUS_THRESHOLD. */
  share: number;
  /** 99.9th percentile of the distance. */
  p999: number;
  /** Per block (BLOCK x BLOCK px), the distance; NaN where no frame could be compared. */
  map: Float32Array;
  blocksWide: number;
  blocksHigh: number;
}

/** rg chromaticity of a block's mean linear colour, or null when it is too dark or clipped anywhere. */
function blockChroma(image: Image16, bx: number, by: number, lin: Float32Array): [number, number] | null {
  const { width, height, data } = image;
  let r = 0;
  let g = 0;
  let b = 0;
  for (let y = by * BLOCK; y < Math.min(height, (by + 1) * BLOCK); y++) {
    for (let x = bx * BLOCK, j = (y * width + x) * 3; x < Math.min(width, (bx + 1) * BLOCK); x++, j += 3) {
      if (data[j]! >= CLIPPED || data[j + 1]! >= CLIPPED || data[j + 2]! >= CLIPPED) return null;
      r += lin[data[j]!]!;
      g += lin[data[j + 1]!]!;
      b += lin[data[j + 2]!]!;
    }
  }
  const sum = r + g + b;
  const n = BLOCK * BLOCK;
  if ((0.2126 * r + 0.7152 * g + 0.0722 * b) / n < DARK) return null;
  return [r / sum, g / sum];
}

function distanceToSegment(p: [number, number], a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/**
 * Colour in a fusion that none of its (aligned) frames shows: per 4 x 4 block, the distance in
 * rg chromaticity of linear light (exposure-invariant) from the fusion's colour to the nearest
 * colour a blend of two frames could give there (the segments between the frames' colours),
 * over frames neither clipped nor too dark in that block. A fusion mixes its frames, so an
 * honest one stays near 0 everywhere; blocky cyan/green patches or coloured halos stand out.
 * Needs no reference fusion, so ours and enfuse are scored alike.
 */
export function spuriousChroma(frames: Image16[], fused: Image16): SpuriousChroma {
  const lin = srgb16ToLinearLut();
  const blocksWide = Math.floor(fused.width / BLOCK);
  const blocksHigh = Math.floor(fused.height / BLOCK);
  const map = new Float32Array(blocksWide * blocksHigh).fill(Number.NaN);
  const values: number[] = [];
  for (let by = 0; by < blocksHigh; by++) {
    for (let bx = 0; bx < blocksWide; bx++) {
      const out = blockChroma(fused, bx, by, lin);
      if (!out) continue;
      const seen = frames.map((f) => blockChroma(f, bx, by, lin)).filter((c): c is [number, number] => c !== null);
      if (seen.length === 0) continue;
      let d = Infinity;
      for (let i = 0; i < seen.length; i++) for (let j = i; j < seen.length; j++) d = Math.min(d, distanceToSegment(out, seen[i]!, seen[j]!));
      map[by * blocksWide + bx] = d;
      values.push(d);
    }
  }
  if (values.length === 0) return { mean: 0, share: 0, p999: 0, map, blocksWide, blocksHigh };
  const sorted = Float64Array.from(values).sort();
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return {
    mean,
    share: values.filter((v) => v > SPURIOUS_THRESHOLD).length / values.length,
    p999: sorted[Math.min(sorted.length - 1, Math.floor(0.999 * sorted.length))]!,
    map,
    blocksWide,
    blocksHigh,
  };
}
