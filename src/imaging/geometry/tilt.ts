import type { Image16 } from '../types.js';
import { detectSegments } from './segments.js';

/**
 * How far a photo's near-vertical lines lean: the length-weighted median of |deviation
 * from vertical| over detected segments within maxDegrees of vertical and at least
 * minLength (fraction of the height) long, in degrees; NaN without such segments. The
 * measure the perspective tests and evaluation hold the correction to.
 */
export function verticalTilt(image: Image16, maxDegrees = 20, minLength = 0.05): number {
  const shortest = minLength * image.height;
  const tilts = detectSegments(image)
    .filter((s) => Math.abs(s.angle - 90) <= maxDegrees && s.length >= shortest)
    .map((s) => ({ value: Math.abs(s.angle - 90), weight: s.length }))
    .sort((a, b) => a.value - b.value);
  const total = tilts.reduce((sum, t) => sum + t.weight, 0);
  let acc = 0;
  for (const t of tilts) {
    acc += t.weight;
    if (acc >= total / 2) return t.value;
  }
  return NaN;
}
