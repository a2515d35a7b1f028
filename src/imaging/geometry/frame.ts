import { invert, multiply, project, translation, type Mat3 } from '../matrix.js';
import type { CropRect } from '../types.js';
import { canvasHomography, type GeometrySettings } from './camera.js';

/** An axis-aligned rectangle in canvas coordinates. */
export interface CanvasRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What applyGeometry will do for an image of a given size. */
export interface GeometryPlan {
  /** Output size in pixels. */
  width: number;
  height: number;
  /** The corrected frame (largest valid rectangle, before `crop`) in canvas coordinates. */
  frame: CanvasRect;
  /** The output rectangle (the crop of the frame) in canvas coordinates. */
  output: CanvasRect;
  /** Source pixel coordinates → canvas coordinates. */
  toCanvas: Mat3;
  /** Output pixel index (x, y) → source pixel coordinates (pixel centres at whole numbers). */
  toSource: Mat3;
  /** True when no resampling is needed (no rotation, no perspective): the output is a plain crop. */
  identity: boolean;
}

/**
 * Plans the geometry for a width × height image: the canvas homography, the largest
 * rectangle of the source's aspect ratio inside the warped picture (so no corner is
 * empty), the `crop` fractions of that frame, and the one matrix the resampler needs.
 */
export function planGeometry(width: number, height: number, g: GeometrySettings): GeometryPlan {
  const identity = g.straightenAngle === 0 && g.perspective.vertical === 0 && g.perspective.horizontal === 0;
  // Without rotation or perspective the canvas is the source, centred.
  const toCanvas = identity ? translation(-(width - 1) / 2, -(height - 1) / 2) : canvasHomography(width, height, g);
  return planForHomography(width, height, toCanvas, g.crop, identity);
}

/** A size in pixels. */
export interface Size {
  width: number;
  height: number;
}

/**
 * The plan for the same framed picture at another scale: read from the source resized to
 * `source` (from the plan's source size `from`), written at `output`'s size. Pixel centres map
 * as a resize maps them (outer edges onto outer edges), so rendering it gives the plan's
 * output resized to `output`, within resampling error, without the full-size image.
 */
export function framedAt(plan: GeometryPlan, from: Size, source: Size, output: Size): GeometryPlan {
  const toFullOutput = resizeMap(output, { width: plan.width, height: plan.height });
  const toSmallSource = resizeMap(from, source);
  return {
    ...plan,
    width: output.width,
    height: output.height,
    toCanvas: multiply(plan.toCanvas, invert(toSmallSource)),
    toSource: multiply(toSmallSource, multiply(plan.toSource, toFullOutput)),
  };
}

/** Pixel coordinates of a `from`-sized image to those of the same picture resized to `to` (pixel centres at whole numbers). */
function resizeMap(from: Size, to: Size): Mat3 {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  return [sx, 0, 0.5 * sx - 0.5, 0, sy, 0.5 * sy - 0.5, 0, 0, 1];
}

/** planGeometry for any homography from source pixels to a canvas. */
export function planForHomography(width: number, height: number, toCanvas: Mat3, crop: CropRect | null, identity = false): GeometryPlan {
  const frame = identity ? { x: -width / 2, y: -height / 2, width, height } : largestRectangle(sourceQuad(width, height, toCanvas), width / height);
  const c = crop ?? { left: 0, top: 0, right: 1, bottom: 1 };
  const output = {
    x: frame.x + c.left * frame.width,
    y: frame.y + c.top * frame.height,
    width: (c.right - c.left) * frame.width,
    height: (c.bottom - c.top) * frame.height,
  };
  const outWidth = Math.max(1, Math.round(output.width));
  const outHeight = Math.max(1, Math.round(output.height));
  const sx = output.width / outWidth;
  const sy = output.height / outHeight;
  // Output pixel centres spread evenly over the output rectangle, so every one lies inside the frame.
  const pixelToCanvas: Mat3 = [sx, 0, output.x + 0.5 * sx, 0, sy, output.y + 0.5 * sy, 0, 0, 1];
  return { width: outWidth, height: outHeight, frame, output, toCanvas, toSource: multiply(invert(toCanvas), pixelToCanvas), identity };
}

/** The source's outer pixel edges, warped to the canvas: a convex quadrilateral, clockwise on screen. */
function sourceQuad(width: number, height: number, toCanvas: Mat3): [number, number][] {
  const corners: [number, number][] = [
    [-0.5, -0.5],
    [width - 0.5, -0.5],
    [width - 0.5, height - 0.5],
    [-0.5, height - 0.5],
  ];
  for (const [x, y] of corners) {
    if (toCanvas[6] * x + toCanvas[7] * y + toCanvas[8] <= 0) throw new Error('perspective too strong: a corner of the photo passes behind the virtual camera');
  }
  return corners.map(([x, y]) => project(toCanvas, x, y));
}

/**
 * The largest axis-aligned rectangle of the given aspect ratio inside a convex polygon.
 * A linear programme in (centre x, centre y, half width): each rectangle corner must lie
 * on the inner side of each edge. Solved by visiting the vertices of the feasible set (a
 * few hundred 3×3 systems); when several centres are optimal, their mean is taken, so
 * the rectangle sits in the middle of the room it has.
 */
function largestRectangle(polygon: [number, number][], aspect: number): CanvasRect {
  // Constraints a·(cx, cy, w) ≤ b, from "corner inside edge" for every corner and edge.
  const rows: [number, number, number, number][] = [];
  let area = 0;
  for (let i = 0; i < polygon.length; i++) {
    const [x1, y1] = polygon[i]!;
    const [x2, y2] = polygon[(i + 1) % polygon.length]!;
    area += x1 * y2 - x2 * y1;
  }
  const orientation = Math.sign(area);
  for (let i = 0; i < polygon.length; i++) {
    const [x1, y1] = polygon[i]!;
    const [x2, y2] = polygon[(i + 1) % polygon.length]!;
    // Outward normal of the edge, for either winding.
    let nx = (y2 - y1) * orientation;
    let ny = -(x2 - x1) * orientation;
    const len = Math.hypot(nx, ny);
    nx /= len;
    ny /= len;
    const b = nx * x1 + ny * y1;
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) rows.push([nx, ny, nx * sx + (ny * sy) / aspect, b]);
  }
  rows.push([0, 0, -1, 0]);
  const feasible = (cx: number, cy: number, w: number) => rows.every(([a, b, c, d]) => a * cx + b * cy + c * w <= d + 1e-7);
  let best = -Infinity;
  let optima: [number, number][] = [];
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      for (let k = j + 1; k < rows.length; k++) {
        const v = solve3(rows[i]!, rows[j]!, rows[k]!);
        if (!v || !feasible(v[0], v[1], v[2])) continue;
        if (v[2] > best + 1e-7) {
          best = v[2];
          optima = [[v[0], v[1]]];
        } else if (v[2] > best - 1e-7) optima.push([v[0], v[1]]);
      }
    }
  }
  if (!(best > 0)) throw new Error('the corrected picture holds no rectangle');
  const cx = optima.reduce((s, p) => s + p[0], 0) / optima.length;
  const cy = optima.reduce((s, p) => s + p[1], 0) / optima.length;
  // A hair inside, so rounding never lets an output pixel centre fall outside the picture.
  const w = best * (1 - 1e-9);
  return { x: cx - w, y: cy - w / aspect, width: 2 * w, height: (2 * w) / aspect };
}

function solve3(r0: number[], r1: number[], r2: number[]): [number, number, number] | null {
  const m: [number, number, number, number, number, number, number, number, number] = [r0[0]!, r0[1]!, r0[2]!, r1[0]!, r1[1]!, r1[2]!, r2[0]!, r2[1]!, r2[2]!];
  const det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  if (Math.abs(det) < 1e-12) return null;
  const inv = invert(m);
  const b = [r0[3]!, r1[3]!, r2[3]!];
  return [inv[0] * b[0]! + inv[1] * b[1]! + inv[2] * b[2]!, inv[3] * b[0]! + inv[4] * b[1]! + inv[5] * b[2]!, inv[6] * b[0]! + inv[7] * b[1]! + inv[8] * b[2]!];
}
