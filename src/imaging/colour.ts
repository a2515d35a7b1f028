/**
 * Colour science shared by estimate, render and XMP: the sRGB transfer curve, white
 * points on the Planckian locus (temperature in kelvin, tint in Adobe-like units),
 * the chromatic adaptation that white balance applies, CIELAB and CIEDE2000.
 */
import { invalidParameterError } from './args.js';
import { applyToVector, invert, multiply, type Mat3, type Vec3 } from './matrix.js';

/** Linear sRGB to CIE XYZ (D65), row-major. */
export const SRGB_TO_XYZ: Readonly<Mat3> = [0.4124564, 0.3575761, 0.1804375, 0.2126729, 0.7151522, 0.072175, 0.0193339, 0.119192, 0.9503041];
/** CIE XYZ (D65) to linear sRGB, row-major: the exact inverse, so round trips are lossless. */
export const XYZ_TO_SRGB: Readonly<Mat3> = invert(SRGB_TO_XYZ);
/** Rec. 709 luminance weights of linear sRGB. */
export const LUMA_R = 0.2126729;
export const LUMA_G = 0.7151522;
export const LUMA_B = 0.072175;

/** Bradford cone response matrix and its inverse. */
const BRADFORD: Readonly<Mat3> = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296];
const BRADFORD_INV = invert(BRADFORD);

/**
 * The white a decoded image is taken to be balanced for. White balance settings are
 * absolute like Lightroom's RAW sliders, measured against this reference: temperature
 * 6500 K and tint 0 leave the image exactly as decoded.
 */
export const REFERENCE_WHITE = { temperature: 6500, tint: 0 } as const;

/** Temperatures the white balance model covers, in kelvin. */
export const TEMPERATURE_RANGE = { min: 2000, max: 50000 } as const;
/** Adobe's tint unit: one tint step is 1/3000 of a CIE 1960 uv unit off the locus. */
const TINT_SCALE = 3000;

export function srgbToLinear(v: number): number {
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}

export function linearToSrgb(v: number): number {
  return v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
}

let linearLut: Float32Array | null = null;

/** 65536 entries: 16-bit sRGB code value to linear light (0..1). Built once; hot loops fetch it before they start. */
export function srgb16ToLinearLut(): Float32Array {
  if (!linearLut) {
    linearLut = new Float32Array(65536);
    for (let i = 0; i < 65536; i++) linearLut[i] = srgbToLinear(i / 65535);
  }
  return linearLut;
}

let linearLut8: Float32Array | null = null;

/** 256 entries: 8-bit sRGB code value to linear light, the same values as srgb16ToLinearLut at v × 257. */
export function srgb8ToLinearLut(): Float32Array {
  if (!linearLut8) {
    const wide = srgb16ToLinearLut();
    linearLut8 = Float32Array.from({ length: 256 }, (_, v) => wide[v * 257]!);
  }
  return linearLut8;
}

/** An sRGB-encoded value 0..1 (as in analysis copies) to linear light, to 16-bit precision, by the table. */
export function encodedToLinear(value: number): number {
  return srgb16ToLinearLut()[Math.round(Math.min(1, Math.max(0, value)) * 65535)]!;
}

/** encodedToLinear of every value, the table fetched once. */
export function encodedToLinearAll(values: Float32Array): Float32Array {
  const lut = srgb16ToLinearLut();
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = lut[Math.round(Math.min(1, Math.max(0, values[i]!)) * 65535)]!;
  return out;
}

const ENCODE_STEPS = 4096;
/** linearToSrgb16's table, indexed by sqrt(linear) so the steep toe near black gets as many entries as the highlights. */
const encodeTable: Float32Array = (() => {
  const table = new Float32Array(ENCODE_STEPS + 2);
  for (let i = 0; i <= ENCODE_STEPS + 1; i++) table[i] = 65535 * linearToSrgb(Math.min(1, (i / ENCODE_STEPS) ** 2));
  return table;
})();

/** Linear light (clamped to 0..1) to an sRGB-encoded 16-bit code value, rounded: a table read, no power per pixel. */
export function linearToSrgb16(value: number): number {
  if (!(value > 0)) return 0;
  if (value >= 1) return 65535;
  const at = Math.sqrt(value) * ENCODE_STEPS;
  const i = Math.floor(at);
  const t = at - i;
  return Math.round(encodeTable[i]! + (encodeTable[i + 1]! - encodeTable[i]!) * t);
}

/** linearToSrgb16's table and its steps, for kernels that encode as it does. */
export function linearToSrgb16Table(): { table: Float32Array; steps: number } {
  return { table: encodeTable, steps: ENCODE_STEPS };
}

export function mired(kelvin: number): number {
  return 1e6 / kelvin;
}

/** CIE 1960 uv of a blackbody at the given temperature (Krystek's rational approximation). */
export function planckianUv(kelvin: number): [number, number] {
  const t = kelvin;
  const t2 = t * t;
  const u = (0.860117757 + 1.54118254e-4 * t + 1.28641212e-7 * t2) / (1 + 8.42420235e-4 * t + 7.08145163e-7 * t2);
  const v = (0.317398726 + 4.22806245e-5 * t + 4.20481691e-8 * t2) / (1 - 2.89741816e-5 * t + 1.61456053e-7 * t2);
  return [u, v];
}

/** Unit normal to the locus at this temperature, pointing to the green side (positive tint). */
function greenNormal(kelvin: number): [number, number] {
  // Differentiate in mireds: the locus is smoother there than in kelvin.
  const m = mired(kelvin);
  const [u1, v1] = planckianUv(1e6 / (m - 0.5));
  const [u2, v2] = planckianUv(1e6 / (m + 0.5));
  const du = u1 - u2;
  const dv = v1 - v2;
  const n = Math.hypot(du, dv);
  // Of the two normals to the tangent, green is the one towards higher v.
  return du > 0 ? [-dv / n, du / n] : [dv / n, -du / n];
}

/**
 * uv of the white (temperature, tint): the locus point moved along its normal; positive
 * tint is a greener light, which white balance answers by making the image more magenta.
 */
export function whiteUv(temperature: number, tint: number): [number, number] {
  const [u, v] = planckianUv(temperature);
  const [nu, nv] = greenNormal(temperature);
  return [u + (nu * tint) / TINT_SCALE, v + (nv * tint) / TINT_SCALE];
}

/** XYZ with Y = 1 of a CIE 1960 uv chromaticity. */
function uvToXyz(u: number, v: number): [number, number, number] {
  const x = (3 * u) / (2 * u - 8 * v + 4);
  const y = (2 * v) / (2 * u - 8 * v + 4);
  return [x / y, 1, (1 - x - y) / y];
}

function xyzToUv(X: number, Y: number, Z: number): [number, number] {
  const d = X + 15 * Y + 3 * Z;
  return [(4 * X) / d, (6 * Y) / d];
}

/**
 * Linear sRGB to linear sRGB matrix (row-major) that white-balances for the light
 * (temperature, tint): a Bradford adaptation by the cone-space ratio between the
 * reference white and that light, so the reference leaves the image unchanged. Scaled so
 * a surface that was neutral under the light keeps its luminance.
 */
export function whiteBalanceMatrix(temperature: number, tint: number): Mat3 {
  const src = cone(uvToXyz(...whiteUv(temperature, tint)));
  const ref = cone(uvToXyz(...whiteUv(REFERENCE_WHITE.temperature, REFERENCE_WHITE.tint)));
  const diag: Mat3 = [ref[0] / src[0], 0, 0, 0, ref[1] / src[1], 0, 0, 0, ref[2] / src[2]];
  const m = multiply(XYZ_TO_SRGB, multiply(BRADFORD_INV, multiply(diag, multiply(BRADFORD, SRGB_TO_XYZ))));
  // The light as it appears in the image is the inverse image of white; keep its luminance.
  const lit = applyToVector(invert(m), [1, 1, 1]);
  const scale = luminance(lit[0], lit[1], lit[2]) / luminance(1, 1, 1);
  return m.map((x) => x * scale) as Mat3;
}

/**
 * The white balance (temperature, tint) that makes the given linear-sRGB colour neutral:
 * the inverse of whiteBalanceMatrix, for an estimated illuminant.
 */
export function whiteFromIlluminant(rgb: readonly [number, number, number]): { temperature: number; tint: number } {
  const [r, g, b] = rgb;
  if (!(r > 0 && g > 0 && b > 0)) throw invalidParameterError('rgb', 'a positive illuminant colour', rgb);
  // The cone ratio of the light to reference D65 equals that of white(T, tint) to the reference white.
  const e = cone(applyToVector(SRGB_TO_XYZ, [r, g, b]));
  const d65 = cone(applyToVector(SRGB_TO_XYZ, [1, 1, 1]));
  const ref = cone(uvToXyz(...whiteUv(REFERENCE_WHITE.temperature, REFERENCE_WHITE.tint)));
  const lms: Vec3 = [(ref[0] * e[0]) / d65[0], (ref[1] * e[1]) / d65[1], (ref[2] * e[2]) / d65[2]];
  const [u, v] = xyzToUv(...applyToVector(BRADFORD_INV, lms));
  return whiteFromUv(u, v);
}

/** Nearest point of the locus in mireds (scan, then golden-section refinement), and the signed normal offset as tint. */
function whiteFromUv(u: number, v: number): { temperature: number; tint: number } {
  const lo = mired(TEMPERATURE_RANGE.max);
  const hi = mired(TEMPERATURE_RANGE.min);
  const dist = (m: number) => {
    const [pu, pv] = planckianUv(1e6 / m);
    return (u - pu) ** 2 + (v - pv) ** 2;
  };
  let best = lo;
  for (let m = lo; m <= hi; m += 2) if (dist(m) < dist(best)) best = m;
  let a = Math.max(lo, best - 2);
  let b = Math.min(hi, best + 2);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const c = b - phi * (b - a);
    const d = a + phi * (b - a);
    if (dist(c) < dist(d)) b = d;
    else a = c;
  }
  const temperature = 1e6 / ((a + b) / 2);
  const [pu, pv] = planckianUv(temperature);
  const [nu, nv] = greenNormal(temperature);
  return { temperature, tint: ((u - pu) * nu + (v - pv) * nv) * TINT_SCALE };
}

export function luminance(r: number, g: number, b: number): number {
  return LUMA_R * r + LUMA_G * g + LUMA_B * b;
}

function cone(xyz: Readonly<Vec3>): Vec3 {
  return applyToVector(BRADFORD, xyz);
}

const XN = 0.95047;
const ZN = 1.08883;

function labF(t: number): number {
  return t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116;
}

/** CIELAB (D65) of a linear sRGB colour, written into out. */
export function linearToLab(r: number, g: number, b: number, out: Float64Array | number[]): void {
  const X = SRGB_TO_XYZ[0] * r + SRGB_TO_XYZ[1] * g + SRGB_TO_XYZ[2] * b;
  const Y = SRGB_TO_XYZ[3] * r + SRGB_TO_XYZ[4] * g + SRGB_TO_XYZ[5] * b;
  const Z = SRGB_TO_XYZ[6] * r + SRGB_TO_XYZ[7] * g + SRGB_TO_XYZ[8] * b;
  const fx = labF(X / XN);
  const fy = labF(Y);
  const fz = labF(Z / ZN);
  out[0] = 116 * fy - 16;
  out[1] = 500 * (fx - fy);
  out[2] = 200 * (fy - fz);
}

const DEG = Math.PI / 180;

/** CIEDE2000 colour difference (kL = kC = kH = 1), after Sharma, Wu & Dalal (2005). */
export function ciede2000(L1: number, a1: number, b1: number, L2: number, a2: number, b2: number): number {
  const C1 = Math.hypot(a1, b1);
  const C2 = Math.hypot(a2, b2);
  const Cm7 = ((C1 + C2) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cm7 / (Cm7 + 25 ** 7)));
  const a1p = (1 + G) * a1;
  const a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1);
  const C2p = Math.hypot(a2p, b2);
  const h1p = C1p === 0 ? 0 : (Math.atan2(b1, a1p) / DEG + 360) % 360;
  const h2p = C2p === 0 ? 0 : (Math.atan2(b2, a2p) / DEG + 360) % 360;
  const dLp = L2 - L1;
  const dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * DEG);
  const Lpm = (L1 + L2) / 2;
  const Cpm = (C1p + C2p) / 2;
  let hpm = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hpm /= 2;
    else hpm = h1p + h2p < 360 ? (hpm + 360) / 2 : (hpm - 360) / 2;
  }
  const T = 1 - 0.17 * Math.cos((hpm - 30) * DEG) + 0.24 * Math.cos(2 * hpm * DEG) + 0.32 * Math.cos((3 * hpm + 6) * DEG) - 0.2 * Math.cos((4 * hpm - 63) * DEG);
  const dTheta = 30 * Math.exp(-(((hpm - 275) / 25) ** 2));
  const Cpm7 = Cpm ** 7;
  const RC = 2 * Math.sqrt(Cpm7 / (Cpm7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lpm - 50) ** 2) / Math.sqrt(20 + (Lpm - 50) ** 2);
  const SC = 1 + 0.045 * Cpm;
  const SH = 1 + 0.015 * Cpm * T;
  const RT = -Math.sin(2 * dTheta * DEG) * RC;
  const l = dLp / SL;
  const c = dCp / SC;
  const h = dHp / SH;
  return Math.sqrt(l * l + c * c + h * h + RT * c * h);
}
