/** sRGB transfer curve both ways, through tables: hot loops must not call Math.pow per pixel. */

/** sRGB-encoded 16-bit code value -> linear light 0..1. */
export const srgb16ToLinear: Float32Array = (() => {
  const table = new Float32Array(65536);
  for (let i = 0; i < 65536; i++) {
    const v = i / 65535;
    table[i] = v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
  }
  return table;
})();

/** An sRGB-encoded value 0..1 (as in analysis copies) -> linear light, to 16-bit precision. */
export function encodedToLinear(value: number): number {
  return srgb16ToLinear[Math.round(Math.min(1, Math.max(0, value)) * 65535)]!;
}

const ENCODE_STEPS = 4096;
/** Indexed by sqrt(linear) so the steep toe near black gets as many entries as the highlights. */
const encodeTable: Float32Array = (() => {
  const table = new Float32Array(ENCODE_STEPS + 2);
  for (let i = 0; i <= ENCODE_STEPS + 1; i++) {
    const v = Math.min(1, (i / ENCODE_STEPS) ** 2);
    table[i] = 65535 * (v <= 0.0031308 ? v * 12.92 : 1.055 * Math.pow(v, 1 / 2.4) - 0.055);
  }
  return table;
})();

/** Linear light (clamped to 0..1) -> sRGB-encoded 16-bit code value, rounded. */
export function linearToSrgb16(value: number): number {
  if (!(value > 0)) return 0;
  if (value >= 1) return 65535;
  const at = Math.sqrt(value) * ENCODE_STEPS;
  const i = Math.floor(at);
  const t = at - i;
  return Math.round(encodeTable[i]! + (encodeTable[i + 1]! - encodeTable[i]!) * t);
}
