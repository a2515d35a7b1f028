/**
 * Degradations of a photo in linear light, for training and evaluating the automatic
 * edit: exposure, a blackbody light shown on a 6500 K white (von Kries in linear sRGB), a
 * green–magenta tint, log-contrast about 18 % grey, a gamma, lost saturation and a black
 * lift. inverseTargets gives, for each, the target vector (imaging/autoedit/targets.ts)
 * of the rendering that undoes it.
 */
import { LUMA_B, LUMA_G, LUMA_R, XYZ_TO_SRGB, linearToSrgb16, luminance, planckianUv, srgb16ToLinearLut } from '../../src/imaging/colour.js';
import { applyToVector } from '../../src/imaging/matrix.js';
import type { TargetVector } from '../../src/imaging/autoedit/model.js';
import type { Image16 } from '../../src/imaging/types.js';

const MID_GREY = 0.18;

export interface Degradation {
  /** Exposure change, EV. */
  ev: number;
  /** The light, kelvin, shown on a 6500 K white. */
  kelvin: number;
  /** ln of the green gain (> 0: a green cast), luminance kept. */
  tint: number;
  /** Log-space contrast factor about 18 % grey (< 1: flatter). */
  contrast: number;
  /** Power on linear light after clipping (> 1: darker mid-tones). */
  gamma: number;
  /** Saturation factor in linear light (< 1: muted). */
  saturation: number;
  /** Linear light added to black. */
  lift: number;
}

export const NO_DEGRADATION: Degradation = { ev: 0, kelvin: 6500, tint: 0, contrast: 1, gamma: 1, saturation: 1, lift: 0 };
/** The example: −1.5 EV, a 4500 K light on a 6500 K white, −30 % contrast. */
export const CANONICAL: Degradation = { ...NO_DEGRADATION, ev: -1.5, kelvin: 4500, contrast: 0.7 };

/** Linear sRGB of a blackbody light, luminance 1. */
export function blackbodyRgb(kelvin: number): [number, number, number] {
  const [u, v] = planckianUv(kelvin);
  const x = (3 * u) / (2 * u - 8 * v + 4);
  const y = (2 * v) / (2 * u - 8 * v + 4);
  const rgb = applyToVector(XYZ_TO_SRGB, [x / y, 1, (1 - x - y) / y]);
  const l = luminance(...rgb);
  return [rgb[0] / l, rgb[1] / l, rgb[2] / l];
}

/** Per-channel linear gains of exposure, light and tint. */
function channelGains(d: Degradation): [number, number, number] {
  const light = blackbodyRgb(d.kelvin);
  const white = blackbodyRgb(6500);
  const cast = [0, 1, 2].map((c) => (light[c]! / white[c]!) * (c === 1 ? Math.exp(d.tint) : 1));
  const l = luminance(cast[0]!, cast[1]!, cast[2]!);
  const gain = 2 ** d.ev / l;
  return [cast[0]! * gain, cast[1]! * gain, cast[2]! * gain];
}

/**
 * A random degradation over the ranges: exposure −2.5..+1.5 EV, lights
 * 2500..10000 K (uniform in mired), tint, contrast −40..+30 %, saturation −50..0 %,
 * black lift, gamma. Each part is present with probability 0.7; a share `none` of the
 * draws is no degradation at all, so the model learns to leave good photos alone.
 */
export function randomDegradation(rnd: () => number, none = 0.15): Degradation {
  if (rnd() < none) return { ...NO_DEGRADATION };
  const on = () => rnd() < 0.7;
  const between = (a: number, b: number) => a + (b - a) * rnd();
  return {
    ev: on() ? between(-2.5, 1.5) : 0,
    kelvin: on() ? 1e6 / between(1e6 / 10000, 1e6 / 2500) : 6500,
    tint: on() ? between(-0.12, 0.12) : 0,
    contrast: on() ? 1 + between(-0.4, 0.3) : 1,
    gamma: on() ? Math.exp(between(-0.2, 0.2)) : 1,
    saturation: on() ? 1 - between(0, 0.5) : 1,
    lift: on() ? between(0, 0.015) : 0,
  };
}

export function degrade(image: Image16, d: Degradation): Image16 {
  const lin = srgb16ToLinearLut();
  const gains = channelGains(d);
  // Everything before saturation acts on one channel: a table per channel over the 16-bit codes.
  const tables = gains.map((gain) => {
    const t = new Float32Array(65536);
    for (let i = 0; i < 65536; i++) {
      const v = lin[i]! * gain;
      const c = v > 0 ? MID_GREY * (v / MID_GREY) ** d.contrast : 0;
      t[i] = Math.min(1, c) ** d.gamma;
    }
    return t;
  });
  const [tr, tg, tb] = tables as [Float32Array, Float32Array, Float32Array];
  const out = new Uint16Array(image.data.length);
  const src = image.data;
  for (let i = 0; i < src.length; i += 3) {
    let r = tr[src[i]!]!;
    let g = tg[src[i + 1]!]!;
    let b = tb[src[i + 2]!]!;
    const y = LUMA_R * r + LUMA_G * g + LUMA_B * b;
    r = d.lift + (1 - d.lift) * (y + d.saturation * (r - y));
    g = d.lift + (1 - d.lift) * (y + d.saturation * (g - y));
    b = d.lift + (1 - d.lift) * (y + d.saturation * (b - y));
    out[i] = linearToSrgb16(r);
    out[i + 1] = linearToSrgb16(g);
    out[i + 2] = linearToSrgb16(b);
  }
  return { width: image.width, height: image.height, data: out };
}

/**
 * What the renderer must do to undo d (see imaging/autoedit/targets.ts). Contrast and
 * gamma combine into one log slope K = contrast·gamma, the gamma adding an exposure
 * shift; white balance and exposure act before the tone curve, so the gains to undo are
 * the degradation's raised to −K, and the light as it appears is their inverse. Saturation
 * is restored after white balance, so the cast to balance is the muted one.
 */
export function inverseTargets(d: Degradation): TargetVector {
  const k = d.contrast * d.gamma;
  const shift = MID_GREY ** ((d.gamma - 1) / k);
  const light = channelGains(d).map((g) => (g * shift) ** k) as [number, number, number];
  // Lost saturation also mutes the cast: the renderer balances the muted cast, then restores saturation.
  return {
    illuminantU: d.saturation * Math.log(light[0] / light[1]),
    illuminantV: d.saturation * Math.log(light[2] / light[1]),
    exposure: -Math.log2(luminance(...light)),
    logContrast: Math.log(k),
    logSaturation: Math.log(d.saturation),
    blackLift: d.lift,
  };
}

/** To 8 bits, as a JPEG would hold the degraded photo. */
export function to8(image: Image16): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) data[i] = (image.data[i]! + 128) / 257;
  return { width: image.width, height: image.height, data };
}
