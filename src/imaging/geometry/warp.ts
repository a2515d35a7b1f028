import type { Mat3 } from '../matrix.js';
import type { Image16 } from '../types.js';
import type { GeometryPlan } from './frame.js';

/** How far outside the outer pixel edge a sample may land and still count as inside (float slack). */
const EDGE_SLACK = 1e-6;

/**
 * Renders a plan: one bilinear resampling of the source through the plan's homography,
 * in 16 bits. Samples landing outside the photo are left 0 (the frame is chosen so none
 * do); within half a pixel of the edge they take the edge pixel. A plan without rotation
 * or perspective whose crop falls on whole pixels is a plain copy of rows.
 */
export function renderPlan(image: Image16, plan: GeometryPlan): Image16 {
  const m = plan.toSource;
  const { width: ow, height: oh } = plan;
  const startX = m[2] / m[8];
  const startY = m[5] / m[8];
  if (plan.identity && isWhole(startX) && isWhole(startY) && Math.abs(m[0] - 1) < 1e-9 && Math.abs(m[4] - 1) < 1e-9) {
    const x0 = Math.round(startX);
    const y0 = Math.round(startY);
    const out = new Uint16Array(ow * oh * 3);
    for (let y = 0; y < oh; y++) {
      const from = ((y0 + y) * image.width + x0) * 3;
      out.set(image.data.subarray(from, from + ow * 3), y * ow * 3);
    }
    return { width: ow, height: oh, data: out };
  }
  return resample(image, m, ow, oh);
}

/**
 * Bilinear resampling through a homography from output pixel (x, y) to source pixel
 * coordinates: the one loop every geometric correction goes through. Incremental along
 * each row (three additions and one division a pixel), no allocation inside.
 */
export function resample(image: Image16, toSource: Mat3, ow: number, oh: number): Image16 {
  const m = toSource;
  const { width: sw, height: sh, data: src } = image;
  const out = new Uint16Array(ow * oh * 3);
  const minX = -0.5 - EDGE_SLACK;
  const maxX = sw - 0.5 + EDGE_SLACK;
  const minY = -0.5 - EDGE_SLACK;
  const maxY = sh - 0.5 + EDGE_SLACK;
  const lastX = sw - 1;
  const lastY = sh - 1;
  const stride = sw * 3;
  let o = 0;
  for (let j = 0; j < oh; j++) {
    let u = m[1] * j + m[2];
    let v = m[4] * j + m[5];
    let w = m[7] * j + m[8];
    for (let i = 0; i < ow; i++, u += m[0], v += m[3], w += m[6], o += 3) {
      const iw = 1 / w;
      let x = u * iw;
      let y = v * iw;
      if (x < minX || x > maxX || y < minY || y > maxY) continue;
      x = x < 0 ? 0 : x > lastX ? lastX : x;
      y = y < 0 ? 0 : y > lastY ? lastY : y;
      const xi = Math.min(Math.floor(x), Math.max(0, lastX - 1));
      const yi = Math.min(Math.floor(y), Math.max(0, lastY - 1));
      const fx = x - xi;
      const fy = y - yi;
      const p00 = yi * stride + xi * 3;
      const p01 = xi < lastX ? p00 + 3 : p00;
      const p10 = yi < lastY ? p00 + stride : p00;
      const p11 = xi < lastX ? p10 + 3 : p10;
      const w00 = (1 - fx) * (1 - fy);
      const w01 = fx * (1 - fy);
      const w10 = (1 - fx) * fy;
      const w11 = fx * fy;
      out[o] = w00 * src[p00]! + w01 * src[p01]! + w10 * src[p10]! + w11 * src[p11]! + 0.5;
      out[o + 1] = w00 * src[p00 + 1]! + w01 * src[p01 + 1]! + w10 * src[p10 + 1]! + w11 * src[p11 + 1]! + 0.5;
      out[o + 2] = w00 * src[p00 + 2]! + w01 * src[p01 + 2]! + w10 * src[p10 + 2]! + w11 * src[p11 + 2]! + 0.5;
    }
  }
  return { width: ow, height: oh, data: out };
}

/**
 * A plan rendered on one plane of floats (a mask at the image's size) instead of an image:
 * the same bilinear sampling as resample, so the plane stays on the pixels renderPlan
 * moves. Samples landing outside the source are 0.
 */
export function resamplePlane(plane: Float32Array, width: number, height: number, plan: GeometryPlan): Float32Array {
  const m = plan.toSource;
  const { width: ow, height: oh } = plan;
  const out = new Float32Array(ow * oh);
  const minX = -0.5 - EDGE_SLACK;
  const maxX = width - 0.5 + EDGE_SLACK;
  const minY = -0.5 - EDGE_SLACK;
  const maxY = height - 0.5 + EDGE_SLACK;
  const lastX = width - 1;
  const lastY = height - 1;
  let o = 0;
  for (let j = 0; j < oh; j++) {
    let u = m[1] * j + m[2];
    let v = m[4] * j + m[5];
    let w = m[7] * j + m[8];
    for (let i = 0; i < ow; i++, u += m[0], v += m[3], w += m[6], o++) {
      const iw = 1 / w;
      let x = u * iw;
      let y = v * iw;
      if (x < minX || x > maxX || y < minY || y > maxY) continue;
      x = x < 0 ? 0 : x > lastX ? lastX : x;
      y = y < 0 ? 0 : y > lastY ? lastY : y;
      const xi = Math.min(Math.floor(x), Math.max(0, lastX - 1));
      const yi = Math.min(Math.floor(y), Math.max(0, lastY - 1));
      const fx = x - xi;
      const fy = y - yi;
      const p00 = yi * width + xi;
      const p01 = xi < lastX ? p00 + 1 : p00;
      const p10 = yi < lastY ? p00 + width : p00;
      const p11 = xi < lastX ? p10 + 1 : p10;
      out[o] = (1 - fy) * ((1 - fx) * plane[p00]! + fx * plane[p01]!) + fy * ((1 - fx) * plane[p10]! + fx * plane[p11]!);
    }
  }
  return out;
}

function isWhole(v: number): boolean {
  return Math.abs(v - Math.round(v)) < 1e-6;
}
