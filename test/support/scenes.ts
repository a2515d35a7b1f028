/**
 * Synthetic photographs for unit tests, built in linear light: patches of known
 * reflectance under a smooth illumination falloff, with a little deterministic texture.
 */
import { LUMA_B, LUMA_G, LUMA_R, linearToLab, linearToSrgb, srgb16ToLinearLut } from '../../src/imaging/colour.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';

export type Rgb = [number, number, number];

/** Builds an image from a function giving linear RGB per pixel. */
export function fromLinear(width: number, height: number, pixel: (x: number, y: number) => Rgb): Image16 {
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const rgb = pixel(x, y);
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.round(linearToSrgb(Math.min(1, Math.max(0, rgb[c]!))) * 65535);
    }
  return { width, height, data };
}

/** Applies f to every pixel's linear RGB. */
export function mapLinear(image: Image16, f: (rgb: Rgb) => Rgb): Image16 {
  const lin = srgb16ToLinearLut();
  return fromLinear(image.width, image.height, (x, y) => {
    const i = (y * image.width + x) * 3;
    return f([lin[image.data[i]!]!, lin[image.data[i + 1]!]!, lin[image.data[i + 2]!]!]);
  });
}

/** Reflectances of a colour chart: six greys, then colours. */
export const CHART: Rgb[] = [
  [0.9, 0.9, 0.9],
  [0.59, 0.59, 0.59],
  [0.36, 0.36, 0.36],
  [0.19, 0.19, 0.19],
  [0.09, 0.09, 0.09],
  [0.03, 0.03, 0.03],
  [0.45, 0.2, 0.12],
  [0.12, 0.2, 0.45],
  [0.15, 0.35, 0.1],
  [0.55, 0.45, 0.08],
  [0.4, 0.1, 0.35],
  [0.08, 0.35, 0.4],
  [0.6, 0.3, 0.05],
  [0.1, 0.12, 0.3],
  [0.5, 0.1, 0.1],
  [0.2, 0.1, 0.25],
  [0.35, 0.45, 0.1],
  [0.6, 0.4, 0.3],
];

/** Index of the 18 % grey patch in CHART. */
export const GREY_PATCH = 3;

/** A chart scene: 6×3 patches under a gentle left-to-right falloff, with fine texture. */
export function chartScene(width = 360, height = 240, seed = 1): Image16 {
  const rnd = seededRandom(seed);
  const noise = Float32Array.from({ length: width * height }, () => 1 + 0.04 * (rnd() - 0.5));
  return fromLinear(width, height, (x, y) => {
    const patch = Math.min(17, Math.floor((y * 3) / height) * 6 + Math.floor((x * 6) / width));
    const light = 0.85 + 0.15 * (1 - x / width);
    const t = noise[y * width + x]!;
    const r = CHART[patch]!;
    return [r[0] * light * t, r[1] * light * t, r[2] * light * t];
  });
}

/** Bounds of a chart patch, inset so edges and falloff matter little. */
export function patchBox(image: Image16, patch: number): { x0: number; y0: number; x1: number; y1: number } {
  const pw = image.width / 6;
  const ph = image.height / 3;
  const px = patch % 6;
  const py = Math.floor(patch / 6);
  return { x0: Math.round(px * pw + pw * 0.25), y0: Math.round(py * ph + ph * 0.25), x1: Math.round(px * pw + pw * 0.75), y1: Math.round(py * ph + ph * 0.75) };
}

/** Mean linear RGB over a box. */
export function meanLinear(image: Image16, box: { x0: number; y0: number; x1: number; y1: number } = { x0: 0, y0: 0, x1: image.width, y1: image.height }): Rgb {
  const lin = srgb16ToLinearLut();
  const sum: Rgb = [0, 0, 0];
  let n = 0;
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) {
      const i = (y * image.width + x) * 3;
      for (let c = 0; c < 3; c++) sum[c] += lin[image.data[i + c]!]!;
      n++;
    }
  return [sum[0] / n, sum[1] / n, sum[2] / n];
}

export function lab(rgb: Rgb): [number, number, number] {
  const out = [0, 0, 0];
  linearToLab(rgb[0], rgb[1], rgb[2], out);
  return out as [number, number, number];
}

export function meanLuminance(image: Image16): number {
  const [r, g, b] = meanLinear(image);
  return LUMA_R * r + LUMA_G * g + LUMA_B * b;
}

/** Mean CIELAB chroma of every pixel. */
export function meanChroma(image: Image16): number {
  const lin = srgb16ToLinearLut();
  const out = [0, 0, 0];
  let sum = 0;
  for (let i = 0; i < image.data.length; i += 3) {
    linearToLab(lin[image.data[i]!]!, lin[image.data[i + 1]!]!, lin[image.data[i + 2]!]!, out);
    sum += Math.hypot(out[1]!, out[2]!);
  }
  return sum / (image.data.length / 3);
}

/** Linear-sRGB gains of a 4500 K blackbody relative to a 6500 K one (luminance kept): a warm cast. */
export const WARM_CAST: Rgb = [1.249, 0.963, 0.633];

/** A von Kries cast in linear sRGB, independent of the engine's Bradford white-balance model. */
export function vonKriesCast(image: Image16, gains: Rgb): Image16 {
  return mapLinear(image, ([r, g, b]) => [r * gains[0], g * gains[1], b * gains[2]]);
}
