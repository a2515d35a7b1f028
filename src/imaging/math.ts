/** Scalar helpers for tables and analysis (hot per-pixel loops inline their own arithmetic). */

/** value limited to min..max (min wins should the bounds cross). */
export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}

/** Hermite step from 0 (x <= edge0) to 1 (x >= edge1). */
export function smoothstep(edge0: number, edge1: number, x: number): number {
  const t = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)));
  return t * t * (3 - 2 * t);
}
