/**
 * The colour of the light a RAW's as-shot white balance neutralises, as CIE xy and as the
 * correlated colour temperature and tint that Adobe Camera Raw shows ("As Shot 5200 K, +8").
 */
import type { LibRawInfo } from './libraw-protocol.js';

export interface WhitePoint {
  /** CIE 1931 chromaticity. */
  x: number;
  y: number;
  /** Correlated colour temperature in kelvin (Robertson's method). */
  temperature: number;
  /** Distance from the Planckian locus on Adobe's scale: positive towards green light (magenta correction). */
  tint: number;
}

/** Linear sRGB -> XYZ (D65), IEC 61966-2-1. */
const srgbToXyz = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.072175, 0.0193339, 0.119192, 0.9503041];

/**
 * The as-shot white point, or null when the camera recorded no white balance. A grey
 * under the as-shot light reads 1/cameraMultipliers in camera RGB; balancing that for
 * daylight instead (daylightMultipliers) and converting to sRGB gives the light's colour.
 */
export function asShotWhitePoint(info: LibRawInfo): WhitePoint | null {
  const cam = info.cameraMultipliers;
  const day = info.daylightMultipliers;
  const channels = info.colors === 4 && cam[3]! > 0 && day[3]! > 0 ? 4 : 3;
  for (let c = 0; c < channels; c++) if (!(cam[c]! > 0 && day[c]! > 0)) return null;
  const rgb = [0, 0, 0];
  for (let r = 0; r < 3; r++) for (let c = 0; c < channels; c++) rgb[r]! += info.rgbCam[r]![c]! * (day[c]! / cam[c]!);
  const xyz = [0, 1, 2].map((r) => srgbToXyz[r * 3]! * rgb[0]! + srgbToXyz[r * 3 + 1]! * rgb[1]! + srgbToXyz[r * 3 + 2]! * rgb[2]!);
  const sum = xyz[0]! + xyz[1]! + xyz[2]!;
  if (!(sum > 0) || xyz.some((v) => v < 0)) return null;
  const x = xyz[0]! / sum;
  const y = xyz[1]! / sum;
  return { x, y, ...temperatureTint(x, y) };
}

/**
 * Isotherms of the Planckian locus in CIE 1960 uv: reciprocal megakelvin, u, v, slope.
 * Wyszecki & Stiles, Color Science, 2nd ed., table 1(3.11), as used by Robertson (1968).
 */
const isotherms: readonly (readonly [number, number, number, number])[] = [
  [0, 0.18006, 0.26352, -0.24341],
  [10, 0.18066, 0.26589, -0.25479],
  [20, 0.18133, 0.26846, -0.26876],
  [30, 0.18208, 0.27119, -0.28539],
  [40, 0.18293, 0.27407, -0.3047],
  [50, 0.18388, 0.27709, -0.32675],
  [60, 0.18494, 0.28021, -0.35156],
  [70, 0.18611, 0.28342, -0.37915],
  [80, 0.1874, 0.28668, -0.40955],
  [90, 0.1888, 0.28997, -0.44278],
  [100, 0.19032, 0.29326, -0.47888],
  [125, 0.19462, 0.30141, -0.58204],
  [150, 0.19962, 0.30921, -0.70471],
  [175, 0.20525, 0.31647, -0.84901],
  [200, 0.21142, 0.32312, -1.0182],
  [225, 0.21807, 0.32909, -1.2168],
  [250, 0.22511, 0.33439, -1.4512],
  [275, 0.23247, 0.33904, -1.7298],
  [300, 0.2401, 0.34308, -2.0637],
  [325, 0.24792, 0.34655, -2.4681],
  [350, 0.25591, 0.34951, -2.9641],
  [375, 0.264, 0.352, -3.5814],
  [400, 0.27218, 0.35407, -4.3633],
  [425, 0.28039, 0.35577, -5.3762],
  [450, 0.28863, 0.35714, -6.7262],
  [475, 0.29685, 0.35823, -8.5955],
  [500, 0.30505, 0.35907, -11.324],
  [525, 0.3132, 0.35968, -15.628],
  [550, 0.32129, 0.36011, -23.325],
  [575, 0.32931, 0.36038, -40.77],
  [600, 0.33724, 0.36051, -116.45],
];

/** Adobe's scale from uv distance to tint units. */
const tintPerUv = 3000;

/** Correlated colour temperature (K) and tint of an xy chromaticity; temperatures are clamped to 1667 K..infinity's table end. */
export function temperatureTint(x: number, y: number): { temperature: number; tint: number } {
  const den = -2 * x + 12 * y + 3;
  const u = (4 * x) / den;
  const v = (6 * y) / den;
  // Signed distance from each isotherm; the point lies between the two where it changes sign.
  const distance = (i: number) => {
    const [, ui, vi, ti] = isotherms[i]!;
    return (v - vi - ti * (u - ui)) / Math.hypot(1, ti);
  };
  let i = 1;
  let before = distance(0);
  let after = distance(1);
  while (i < isotherms.length - 1 && Math.sign(before) === Math.sign(after)) {
    i++;
    before = after;
    after = distance(i);
  }
  const f = before === after ? 0 : Math.min(1, Math.max(0, before / (before - after)));
  const [r0, u0, v0, t0] = isotherms[i - 1]!;
  const [r1, u1, v1, t1] = isotherms[i]!;
  const mired = r0 + f * (r1 - r0);
  // Offset from the locus along the interpolated isotherm, whose unit direction (1, t) points to the magenta side.
  const l0 = Math.hypot(1, t0);
  const l1 = Math.hypot(1, t1);
  let du = (1 - f) / l0 + f / l1;
  let dv = ((1 - f) * t0) / l0 + (f * t1) / l1;
  const len = Math.hypot(du, dv);
  du /= len;
  dv /= len;
  const offset = (u - (u0 + f * (u1 - u0))) * du + (v - (v0 + f * (v1 - v0))) * dv;
  return { temperature: mired > 0 ? 1e6 / mired : Number.POSITIVE_INFINITY, tint: -offset * tintPerUv };
}
