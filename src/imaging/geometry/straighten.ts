import { assertRgbImage } from '../image16.js';
import type { RgbImage } from '../types.js';
import { detectSegments, type Segment } from './segments.js';

export interface StraightenEstimate {
  /** Degrees to turn the content counter-clockwise (GeometrySettings.straightenAngle); 0 when not confident. */
  angle: number;
  /** 0..1: how much line length agrees on the angle. */
  confidence: number;
}

/** Tilts beyond this are taken for diagonals in the scene, not a crooked camera. */
const MAX_TILT_DEGREES = 10;
const STEP = 0.02;
/** Kernel width of the vote, about the accuracy of one long segment. */
const BANDWIDTH = 0.25;
/** Segments within this of the vote's peak make the final estimate. */
const WINDOW = 0.6;
const MIN_CONFIDENCE = 0.3;

/**
 * The rotation that levels the photo: near-horizontal and near-vertical segments each
 * vote for the tilt they show (a horizon tilted by t, or a vertical edge leaning by t),
 * weighted by length; the peak of the votes, refined by the weighted mean of the
 * segments near it, is the tilt. Rotation only: converging verticals (camera pitch) are
 * the perspective correction's business, and their symmetric fan leaves the peak alone.
 */
export function detectStraighten(image: RgbImage): StraightenEstimate {
  assertRgbImage(image);
  return straightenFromSegments(detectSegments(image), image.width, image.height);
}

function straightenFromSegments(segments: Segment[], width: number, height: number): StraightenEstimate {
  const votes: { tilt: number; weight: number }[] = [];
  for (const s of segments) {
    const fromHorizontal = s.angle > 90 ? s.angle - 180 : s.angle;
    const fromVertical = s.angle - 90;
    if (Math.abs(fromHorizontal) <= MAX_TILT_DEGREES) votes.push({ tilt: fromHorizontal, weight: s.length });
    else if (Math.abs(fromVertical) <= MAX_TILT_DEGREES) votes.push({ tilt: fromVertical, weight: s.length });
  }
  if (votes.length === 0) return { angle: 0, confidence: 0 };

  const bins = Math.round((2 * MAX_TILT_DEGREES) / STEP) + 1;
  const density = new Float64Array(bins);
  const reach = Math.ceil((3 * BANDWIDTH) / STEP);
  for (const { tilt, weight } of votes) {
    const centre = Math.round((tilt + MAX_TILT_DEGREES) / STEP);
    for (let b = Math.max(0, centre - reach); b <= Math.min(bins - 1, centre + reach); b++) {
      const d = (b * STEP - MAX_TILT_DEGREES - tilt) / BANDWIDTH;
      density[b]! += weight * Math.exp(-0.5 * d * d);
    }
  }
  let peak = 0;
  for (let b = 1; b < bins; b++) if (density[b]! > density[peak]!) peak = b;
  const mode = peak * STEP - MAX_TILT_DEGREES;

  let sum = 0;
  let weightSum = 0;
  for (const { tilt, weight } of votes) {
    if (Math.abs(tilt - mode) <= WINDOW) {
      sum += tilt * weight;
      weightSum += weight;
    }
  }
  const tilt = sum / weightSum;
  // Agreeing length, in units of the frame's longer side: one clean horizon across the frame is enough.
  const confidence = Math.min(1, weightSum / Math.max(width, height) / 1.2);
  return confidence < MIN_CONFIDENCE ? { angle: 0, confidence } : { angle: tilt, confidence };
}
