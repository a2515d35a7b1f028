import { invert, multiply, rotationX, rotationY, rotationZ, scaling, translation, type Mat3 } from '../matrix.js';
import type { CropRect } from '../types.js';

/** The geometry part of the develop settings. */
export interface GeometrySettings {
  /** Degrees, positive turns the content counter-clockwise (the sign of Lightroom's crs:CropAngle). */
  straightenAngle: number;
  /** Slider units −100..100, DEGREES_PER_UNIT degrees of virtual camera rotation each (see docs/imaging-geometry.md). */
  perspective: { vertical: number; horizontal: number };
  /** Fractions of the geometry-corrected frame, or null for all of it. */
  crop: CropRect | null;
}

/** One perspective slider unit is this many degrees of virtual camera pitch (vertical) or yaw (horizontal); ±100 is ±30°. */
export const DEGREES_PER_UNIT = 0.3;
export const MAX_STRAIGHTEN_DEGREES = 45;

const RADIANS = Math.PI / 180;

/**
 * The focal length the perspective model assumes, in pixels: the long edge, a 36 mm
 * lens on a 36 × 24 mm frame. The correction that makes verticals vertical does not
 * depend on it; only how much the corrected picture is stretched vertically does.
 */
export function focalLength(width: number, height: number): number {
  return Math.max(width, height);
}

/**
 * The virtual camera rotation of the settings: first roll (straighten) about the optical
 * axis, then pitch (vertical) about the levelled horizontal axis, then yaw (horizontal)
 * about the vertical axis, so a correction of one never undoes another.
 */
export function cameraRotation(g: Pick<GeometrySettings, 'straightenAngle' | 'perspective'>): Mat3 {
  const roll = rotationZ(-g.straightenAngle * RADIANS);
  const pitch = rotationX(-g.perspective.vertical * DEGREES_PER_UNIT * RADIANS);
  const yaw = rotationY(g.perspective.horizontal * DEGREES_PER_UNIT * RADIANS);
  return multiply(yaw, multiply(pitch, roll));
}

/** The homography from source pixel coordinates to the corrected canvas for the settings' camera rotation. */
export function canvasHomography(width: number, height: number, g: Pick<GeometrySettings, 'straightenAngle' | 'perspective'>): Mat3 {
  return rotationHomography(width, height, cameraRotation(g), focalLength(width, height));
}

/**
 * The homography a camera rotation induces (focal length f pixels, principal point at
 * the image centre), from source pixel coordinates to a canvas whose origin is where the
 * source centre lands and whose scale is 1 there: the picture keeps its resolution at
 * the centre, where a bare camera turn would slide and magnify it.
 */
export function rotationHomography(width: number, height: number, rotation: Mat3, f: number): Mat3 {
  const k: Mat3 = [f, 0, 0, 0, f, 0, 0, 0, 1];
  const centred = translation(-(width - 1) / 2, -(height - 1) / 2);
  const h0 = multiply(k, multiply(rotation, multiply(invert(k), centred)));
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const w0 = h0[6] * cx + h0[7] * cy + h0[8];
  const x0 = (h0[0] * cx + h0[1] * cy + h0[2]) / w0;
  const y0 = (h0[3] * cx + h0[4] * cy + h0[5]) / w0;
  // The Jacobian of the map at the source centre.
  const j11 = (h0[0] - x0 * h0[6]) / w0;
  const j12 = (h0[1] - x0 * h0[7]) / w0;
  const j21 = (h0[3] - y0 * h0[6]) / w0;
  const j22 = (h0[4] - y0 * h0[7]) / w0;
  const s = 1 / Math.sqrt(Math.abs(j11 * j22 - j12 * j21));
  return multiply(scaling(s, s), multiply(translation(-x0, -y0), h0));
}
