const BINS = 16;
const CELLS = BINS * BINS * BINS;

/** Smooths a BINS³ histogram with a 3-bin box along each axis, so near colours share evidence. */
function smoothHistogram(hist: Float32Array): Float32Array {
  let src = hist;
  for (const stride of [1, BINS, BINS * BINS]) {
    const out = new Float32Array(CELLS);
    for (let i = 0; i < CELLS; i++) {
      const coordinate = Math.floor(i / stride) % BINS;
      let sum = src[i]!;
      if (coordinate > 0) sum += src[i - stride]!;
      if (coordinate < BINS - 1) sum += src[i + stride]!;
      out[i] = sum / 3;
    }
    src = out;
  }
  return src;
}

/**
 * P(sky | colour) per pixel from two colour histograms, one of the pixels already taken
 * as sky and one of the rest, with equal priors. Colours neither histogram has seen fall
 * back to the colour prior, weighted as half a uniform bin.
 */
export function skyColourPosterior(rgb: Float32Array, sky: Uint8Array, prior: Float32Array): Float32Array {
  const n = sky.length;
  const bins = new Uint16Array(n);
  const inSky = new Float32Array(CELLS);
  const rest = new Float32Array(CELLS);
  let skyCount = 0;
  const q = (v: number) => Math.min(BINS - 1, Math.floor(v * BINS));
  for (let i = 0; i < n; i++) {
    const bin = (q(rgb[i * 3]!) * BINS + q(rgb[i * 3 + 1]!)) * BINS + q(rgb[i * 3 + 2]!);
    bins[i] = bin;
    if (sky[i]) {
      inSky[bin]!++;
      skyCount++;
    } else rest[bin]!++;
  }
  const skyDensity = smoothHistogram(inSky);
  const restDensity = smoothHistogram(rest);
  const ks = 1 / Math.max(1, skyCount);
  const kr = 1 / Math.max(1, n - skyCount);
  const fallback = 0.5 / CELLS;
  const posterior = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = skyDensity[bins[i]!]! * ks;
    const r = restDensity[bins[i]!]! * kr;
    posterior[i] = (s + fallback * prior[i]!) / (s + r + fallback);
  }
  return posterior;
}
