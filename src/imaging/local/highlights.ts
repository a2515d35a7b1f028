/** Rolls linear values above 0.8 off towards 1 instead of clipping them, so brightened highlights keep their shape. */
export function shoulder(v: number): number {
  return v < 0.8 ? v : 0.8 + 0.2 * (1 - Math.exp(-(v - 0.8) / 0.2));
}
