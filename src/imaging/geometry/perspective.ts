import { isShared, sharedTask, sharing } from '../bands.js';
import { assertRgbImage } from '../image16.js';
import { applyToVector, multiply, rotationX, rotationZ } from '../matrix.js';
import type { RgbImage } from '../types.js';
import { DEGREES_PER_UNIT, focalLength } from './camera.js';
import { detectSegments, lineAngle, type Segment } from './segments.js';
import { findVanishingPoint, type Direction } from './vanishing.js';

export interface PerspectiveEstimate {
  /** Slider units (see GeometrySettings.perspective); 0 when not confident. */
  vertical: number;
  horizontal: number;
  /** The roll that goes with the correction, degrees (GeometrySettings.straightenAngle); 0 when not confident. */
  straightenAngle: number;
  /** 0..1: how well the photo's lines pin the correction down. */
  confidence: number;
}

/** Segments within this many degrees of vertical (or horizontal) vote for that vanishing point. */
const NEAR_DEGREES = 30;
/** Below this confidence nothing is corrected. */
const MIN_CONFIDENCE = 0.3;
/** Pitch corrections up to this are applied in full; beyond it, half of the excess (the tilt was likely meant). */
const FULL_PITCH_DEGREES = 18;
const MAX_PITCH_DEGREES = 25;
const MAX_ROLL_DEGREES = 10;
/** Horizontal keystone is only corrected for a near-frontal façade: larger yaws are how the building stands. */
const MAX_YAW_DEGREES = 8;

/**
 * Estimates the perspective correction that makes the photo's vertical lines vertical:
 * the vertical vanishing point (where near-vertical segments converge) gives the camera's
 * roll and pitch against the world's vertical; horizontal keystone is corrected only when
 * near-horizontal segments agree on one vanishing point close to frontal. Photos with few
 * straight lines (landscapes, portraits) come back with low confidence and no correction.
 */
export function detectPerspective(image: RgbImage): PerspectiveEstimate {
  assertRgbImage(image);
  return perspectiveFromSegments(detectSegments(image), image.width, image.height);
}

/** detectPerspective on another imaging thread (bands.ts sharedTask): the estimate comes back in shared memory, in PerspectiveEstimate's order. */
const perspectiveTask = sharedTask('perspective', ({ image, out }: { image: RgbImage; out: Float64Array }) => {
  const found = detectPerspective(image);
  out.set([found.vertical, found.horizontal, found.straightenAngle, found.confidence]);
});

/**
 * detectPerspective offered to the other imaging threads while this one goes on (an
 * automatic edit's estimate): the returned function resolves to the estimate, found here
 * unless another thread took it. On a photo whose pixels are not shared it is found here,
 * when asked for: posting would copy them.
 */
export function offerPerspective(image: RgbImage): () => Promise<PerspectiveEstimate> {
  assertRgbImage(image);
  if (!sharing() || !isShared(image.data)) return async () => detectPerspective(image);
  const out = new Float64Array(new SharedArrayBuffer(4 * 8));
  const finish = perspectiveTask({ image, out });
  return async () => {
    await finish();
    return { vertical: out[0]!, horizontal: out[1]!, straightenAngle: out[2]!, confidence: out[3]! };
  };
}

function perspectiveFromSegments(segments: Segment[], width: number, height: number): PerspectiveEstimate {
  const none: PerspectiveEstimate = { vertical: 0, horizontal: 0, straightenAngle: 0, confidence: 0 };
  const f = focalLength(width, height);
  const nearVertical = segments.filter((s) => Math.abs(s.angle - 90) <= NEAR_DEGREES);
  const vp = findVanishingPoint(nearVertical, width, height, f);
  if (!vp) return none;
  const confidence = verticalConfidence(vp.inliers, vp.support, nearVertical, width, height);
  if (confidence < MIN_CONFIDENCE) return { ...none, confidence };

  // Roll about the optical axis brings the vertical direction into the y–z plane, then pitch onto the y axis.
  const u: Direction = vp.direction[1] < 0 ? [-vp.direction[0], -vp.direction[1], -vp.direction[2]] : vp.direction;
  let roll = Math.atan2(u[0], u[1]);
  const rolled = applyToVector(rotationZ(roll), u);
  let pitch = Math.atan2(-rolled[2], rolled[1]);
  roll = clampDegrees(roll, MAX_ROLL_DEGREES);
  pitch = softCapDegrees(pitch);

  const yaw = horizontalYaw(segments, width, height, f, pitch, roll);
  return {
    vertical: -toDegrees(pitch) / DEGREES_PER_UNIT,
    horizontal: toDegrees(yaw) / DEGREES_PER_UNIT,
    straightenAngle: -toDegrees(roll),
    confidence,
  };
}

/**
 * How well the inliers pin the vertical vanishing point down: enough length of lines
 * (in image heights), spread across the frame (one line's tilt says nothing about
 * convergence), and a clear majority of the near-vertical lines.
 */
function verticalConfidence(inliers: Segment[], support: number, candidates: Segment[], width: number, height: number): number {
  const total = candidates.reduce((s, seg) => s + seg.length, 0);
  let mean = 0;
  for (const s of inliers) mean += ((s.x1 + s.x2) / 2) * s.length;
  mean /= support;
  let spread = 0;
  for (const s of inliers) spread += ((s.x1 + s.x2) / 2 - mean) ** 2 * s.length;
  spread = Math.sqrt(spread / support) / width;
  const amount = clamp01((support / height - 0.5) / 1.5);
  const spreadScore = clamp01((spread - 0.03) / 0.1);
  const majority = clamp01((support / total - 0.15) / 0.3);
  return amount * spreadScore * majority;
}

/**
 * The yaw that makes horizontal lines horizontal, after the vertical correction; 0 unless
 * the near-horizontal lines clearly share one vanishing point within MAX_YAW_DEGREES.
 */
function horizontalYaw(segments: Segment[], width: number, height: number, f: number, pitch: number, roll: number): number {
  const r = multiply(rotationX(pitch), rotationZ(roll));
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  // Re-express the segments as they will look after the vertical correction.
  const corrected: Segment[] = [];
  for (const s of segments) {
    const a = applyToVector(r, [s.x1 - cx, s.y1 - cy, f]);
    const b = applyToVector(r, [s.x2 - cx, s.y2 - cy, f]);
    if (a[2] <= 0 || b[2] <= 0) continue;
    const x1 = (f * a[0]) / a[2] + cx;
    const y1 = (f * a[1]) / a[2] + cy;
    const x2 = (f * b[0]) / b[2] + cx;
    const y2 = (f * b[1]) / b[2] + cy;
    const angle = lineAngle(x1, y1, x2, y2);
    if (angle <= NEAR_DEGREES || angle >= 180 - NEAR_DEGREES) corrected.push({ x1, y1, x2, y2, length: s.length, angle });
  }
  const vp = findVanishingPoint(corrected, width, height, f);
  if (!vp) return 0;
  const total = corrected.reduce((s, seg) => s + seg.length, 0);
  if (vp.support < 1.5 * width || vp.support < 0.6 * total) return 0;
  const h = vp.direction[0] < 0 ? vp.direction.map((v) => -v) : vp.direction;
  const yaw = Math.atan2(h[2]!, h[0]!);
  return Math.abs(toDegrees(yaw)) <= MAX_YAW_DEGREES ? yaw : 0;
}

function softCapDegrees(radians: number): number {
  const d = Math.abs(toDegrees(radians));
  const capped = d <= FULL_PITCH_DEGREES ? d : Math.min(MAX_PITCH_DEGREES, FULL_PITCH_DEGREES + (d - FULL_PITCH_DEGREES) / 2);
  return Math.sign(radians) * capped * (Math.PI / 180);
}

function clampDegrees(radians: number, max: number): number {
  const limit = (max * Math.PI) / 180;
  return Math.max(-limit, Math.min(limit, radians));
}

function toDegrees(radians: number): number {
  return (radians * 180) / Math.PI;
}

function clamp01(v: number): number {
  return v < 0 ? 0 : v > 1 ? 1 : v;
}
