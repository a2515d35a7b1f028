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

/** Each pixel's cell of the BINS³ colour histograms: the same for every posterior of one copy, so found once. */
export function colourBins(rgb: Float32Array): Uint16Array {
  const n = rgb.length / 3;
  const bins = new Uint16Array(n);
  const q = (v: number) => Math.min(BINS - 1, Math.floor(v * BINS));
  for (let i = 0; i < n; i++) bins[i] = (q(rgb[i * 3]!) * BINS + q(rgb[i * 3 + 1]!)) * BINS + q(rgb[i * 3 + 2]!);
  return bins;
}

/**
 * P(sky | colour) per pixel from two colour histograms, one of the pixels already taken
 * as sky and one of the rest, with equal priors. Colours neither histogram has seen fall
 * back to the colour prior, weighted as half a uniform bin. bins: colourBins of the pixels.
 */
export function skyColourPosterior(bins: Uint16Array, sky: Uint8Array, prior: Float32Array): Float32Array {
  const n = sky.length;
  const inSky = new Float32Array(CELLS);
  const rest = new Float32Array(CELLS);
  let skyCount = 0;
  for (let i = 0; i < n; i++) {
    if (sky[i]) {
      inSky[bins[i]!]!++;
      skyCount++;
    } else rest[bins[i]!]!++;
  }
  const skyDensity = smoothHistogram(inSky);
  const restDensity = smoothHistogram(rest);
  const ks = 1 / Math.max(1, skyCount);
  const kr = 1 / Math.max(1, n - skyCount);
  const fallback = 0.5 / CELLS;
  // Per cell, the sky's density and the denominator, in doubles as they were per pixel.
  const skyPart = new Float64Array(CELLS);
  const total = new Float64Array(CELLS);
  for (let c = 0; c < CELLS; c++) {
    skyPart[c] = skyDensity[c]! * ks;
    total[c] = skyPart[c]! + restDensity[c]! * kr + fallback;
  }
  const posterior = new Float32Array(n);
  for (let i = 0; i < n; i++) posterior[i] = (skyPart[bins[i]!]! + fallback * prior[i]!) / total[bins[i]!]!;
  return posterior;
}
