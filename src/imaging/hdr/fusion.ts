import type { Image16 } from '../types.js';
import { blendFrames, collapseToImage, halfFrame } from './blend.js';
import type { Plane } from './luma.js';
import { qualityWeights } from './weights.js';

/** Per pixel, each frame's share of the total, in place. */
function normalise(weights: Float32Array[]): void {
  const n = weights[0]!.length;
  const sum = new Float32Array(n);
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    for (let p = 0; p < n; p++) sum[p] = sum[p]! + w[p]!;
  }
  for (let p = 0; p < n; p++) sum[p] = sum[p]! > 0 ? 1 / sum[p]! : 0;
  for (let k = 0; k < weights.length; k++) {
    const w = weights[k]!;
    for (let p = 0; p < n; p++) w[p] = w[p]! * sum[p]!;
  }
}

/**
 * Exposure fusion (Mertens, Kautz & Van Reeth 2007) of aligned frames of one size: quality
 * weights, normalised per pixel; each frame's Laplacian pyramid blended with its weights'
 * Gaussian pyramid, for luma and two colour differences; the sums collapsed. Blending band by
 * band hides the seams a per-pixel blend would show. Normalising before blurring matters: a
 * frame that is the only usable one somewhere keeps its full share there, however small its
 * raw weights. The weights are measured at half size (2 x 2 means), where Mertens et al. use
 * full size: on the photo brackets MEF-SSIM is unchanged (0.9785 vs 0.9783), sensor noise in
 * the dark frames sways them less (PSNR against a noise-free fusion 34.6 vs 31.1 dB), and
 * fusion takes 11 % less time.
 */
export function fuseExposures(frames: Image16[], lumas: Plane[]): Image16 {
  const halves = frames.map((frame, i) => halfFrame(frame, lumas[i]!));
  const weights = halves.map((half) => {
    const w = new Float32Array(half.luma.data.length);
    qualityWeights(half.image, half.luma, w);
    return w;
  });
  normalise(weights);
  return collapseToImage(blendFrames(lumas, halves, weights));
}
