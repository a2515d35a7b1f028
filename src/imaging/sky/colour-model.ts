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

/** Each pixel's cell of the BINS³ colour histograms, and how many pixels each cell holds: the same for every posterior of one copy, so found once. */
export interface ColourBins {
  cells: Uint16Array;
  counts: Float32Array;
}

export function colourBins(rgb: Float32Array): ColourBins {
  const n = rgb.length / 3;
  const cells = new Uint16Array(n);
  const counts = new Float32Array(CELLS);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    const r = Math.floor(rgb[j]! * BINS);
    const g = Math.floor(rgb[j + 1]! * BINS);
    const b = Math.floor(rgb[j + 2]! * BINS);
    const cell = ((r < BINS - 1 ? r : BINS - 1) * BINS + (g < BINS - 1 ? g : BINS - 1)) * BINS + (b < BINS - 1 ? b : BINS - 1);
    cells[i] = cell;
    counts[cell]!++;
  }
  return { cells, counts };
}

/**
 * P(sky | colour) from two colour histograms, one of the pixels already taken as sky and
 * one of the rest, with equal priors, per cell: pixel i's posterior is
 * (skyPart[c] + FALLBACK · prior[i]) / total[c] for its cell c. Colours neither histogram
 * has seen fall back to the colour prior, weighted as half a uniform bin.
 */
export interface SkyColourModel {
  skyPart: Float64Array;
  total: Float64Array;
}

const FALLBACK = 0.5 / CELLS;

export function skyColourModel(bins: ColourBins, sky: Uint8Array): SkyColourModel {
  const { cells, counts } = bins;
  const n = sky.length;
  const inSky = new Float32Array(CELLS);
  let skyCount = 0;
  for (let i = 0; i < n; i++) {
    if (sky[i]) {
      inSky[cells[i]!]!++;
      skyCount++;
    }
  }
  // Counts are whole numbers well inside f32's exact range: the rest's are the copy's less the sky's.
  const rest = new Float32Array(CELLS);
  for (let c = 0; c < CELLS; c++) rest[c] = counts[c]! - inSky[c]!;
  const skyDensity = smoothHistogram(inSky);
  const restDensity = smoothHistogram(rest);
  const ks = 1 / Math.max(1, skyCount);
  const kr = 1 / Math.max(1, n - skyCount);
  // Per cell, the sky's density and the denominator, in doubles as they were per pixel.
  const skyPart = new Float64Array(CELLS);
  const total = new Float64Array(CELLS);
  for (let c = 0; c < CELLS; c++) {
    skyPart[c] = skyDensity[c]! * ks;
    total[c] = skyPart[c]! + restDensity[c]! * kr + FALLBACK;
  }
  return { skyPart, total };
}

/** The posterior of a pixel in cell c with colour prior p, in doubles. */
function posteriorIn(model: SkyColourModel, c: number, p: number): number {
  return (model.skyPart[c]! + FALLBACK * p) / model.total[c]!;
}

/** The model's P(sky | colour) per pixel. prior: the pixels' colour prior. */
export function posteriorOf(model: SkyColourModel, bins: ColourBins, prior: Float32Array): Float32Array {
  const { cells } = bins;
  const posterior = new Float32Array(cells.length);
  for (let i = 0; i < cells.length; i++) posterior[i] = posteriorIn(model, cells[i]!, prior[i]!);
  return posterior;
}

/** Marks allowed the pixels of where whose posterior (as posteriorOf stores it, in f32) is above 0.5, the rest not: the posterior found only where it is read. */
export function skyColouredWhere(model: SkyColourModel, bins: ColourBins, prior: Float32Array, where: Uint8Array, allowed: Uint8Array): void {
  const { cells } = bins;
  for (let i = 0; i < cells.length; i++) allowed[i] = where[i] && Math.fround(posteriorIn(model, cells[i]!, prior[i]!)) > 0.5 ? 1 : 0;
}

/** P(sky | colour) per pixel (skyColourModel, posteriorOf) of the sky pixels given. */
export function skyColourPosterior(bins: ColourBins, sky: Uint8Array, prior: Float32Array): Float32Array {
  return posteriorOf(skyColourModel(bins, sky), bins, prior);
}
