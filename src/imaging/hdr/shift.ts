import { sharedFloat32, sharedUint16 } from '../bands.js';
import type { Box, Image16 } from '../types.js';
import type { Offset } from './align.js';
import type { Plane } from './luma.js';
import { blendTowardReference, type Transfer } from './transfer.js';

/**
 * Copies src (width x height, `channels` values per pixel) moved by offset into dst:
 * dst(x, y) = src(x + dx, y + dy), repeating the edge where that falls outside.
 */
function shiftPixels<T extends Uint16Array | Float32Array>(src: T, dst: T, width: number, height: number, channels: number, offset: Offset): void {
  const { dx, dy } = offset;
  const stride = width * channels;
  const x0 = Math.min(width, Math.max(0, -dx));
  const x1 = Math.max(x0, Math.min(width, width - dx));
  for (let y = 0; y < height; y++) {
    const from = Math.min(height - 1, Math.max(0, y + dy)) * stride;
    const to = y * stride;
    if (x1 > x0) dst.set(src.subarray(from + (x0 + dx) * channels, from + (x1 + dx) * channels), to + x0 * channels);
    for (let x = 0; x < x0; x++) dst.copyWithin(to + x * channels, to + x0 * channels, to + (x0 + 1) * channels);
    for (let x = x1; x < width; x++) dst.copyWithin(to + x * channels, to + (x1 - 1) * channels, to + x1 * channels);
  }
}

/** Where a shift by offset leaves real content in a width x height frame. */
function validBox(width: number, height: number, { dx, dy }: Offset): Box {
  const x = Math.max(0, -dx);
  const y = Math.max(0, -dy);
  return { x, y, width: Math.max(0, Math.min(width, width - dx) - x), height: Math.max(0, Math.min(height, height - dy) - y) };
}

/** A frame and its luma, to be filled by shiftFrame or rollFrame. */
export interface FrameBuffers {
  image: Image16;
  luma: Plane;
}

/** Buffers for a width x height frame, in memory other imaging threads can fill. */
export function emptyFrame(width: number, height: number): FrameBuffers {
  return { image: { width, height, data: sharedUint16(width * height * 3) }, luma: { width, height, data: sharedFloat32(width * height) } };
}

/**
 * The frame and its luma moved onto the reference's grid: out(x, y) = frame(x + dx, y + dy).
 * Pixels whose source lies outside the frame repeat its edge; `valid` says where content is real
 * (see fillUncovered for the rest). Into new buffers (`into`), which later steps may change in place.
 */
export function shiftFrame(image: Image16, luma: Plane, offset: Offset, into = emptyFrame(image.width, image.height)): FrameBuffers & { valid: Box } {
  const { width, height } = image;
  shiftPixels(image.data, into.image.data, width, height, 3, offset);
  shiftPixels(luma.data, into.luma.data, width, height, 1, offset);
  return { ...into, valid: validBox(width, height, offset) };
}

/**
 * Fills, in place, the part of a shifted frame its camera did not see (outside `valid`) with
 * the reference's pixels shown at the frame's exposure. Every frame then covers the whole
 * output, so fusion has no bands along the edges where fewer frames would contribute.
 */
export function fillUncovered(frame: { image: Image16; luma: Plane; valid: Box }, reference: Image16, transfer: Transfer): void {
  const { valid } = frame;
  const { width, height } = frame.image;
  for (let y = 0; y < height; y++) {
    const inside = y >= valid.y && y < valid.y + valid.height;
    for (let x = 0; x < width; x++) {
      if (inside && x === valid.x) x += valid.width;
      if (x < width) blendTowardReference(frame, reference, transfer, y * width + x, 0);
    }
  }
}

/**
 * The frame and its luma turned and moved onto the reference's grid, bilinear:
 * out(p) = frame(c + R(angle)(p − c) + (dx, dy)), c the centre. `valid` is a box whose source
 * lies inside the frame everywhere (the shifted box shrunk by the most the roll moves a pixel);
 * outside it the edge is repeated, for fillUncovered to replace.
 */
export function rollFrame(image: Image16, luma: Plane, roll: { angle: number; dx: number; dy: number }, into = emptyFrame(image.width, image.height)): FrameBuffers & { valid: Box } {
  const { width, height, data: src } = image;
  const cos = Math.cos(roll.angle);
  const sin = Math.sin(roll.angle);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const data = into.image.data;
  const lumaData = into.luma.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = Math.min(width - 1, Math.max(0, cx + cos * (x - cx) - sin * (y - cy) + roll.dx));
      const v = Math.min(height - 1, Math.max(0, cy + sin * (x - cx) + cos * (y - cy) + roll.dy));
      const x0 = Math.min(width - 2, Math.floor(u));
      const y0 = Math.min(height - 2, Math.floor(v));
      const fx = u - x0;
      const fy = v - y0;
      const a = y0 * width + x0;
      const o = y * width + x;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      for (let c = 0; c < 3; c++) {
        data[o * 3 + c] = Math.round(w00 * src[a * 3 + c]! + w10 * src[(a + 1) * 3 + c]! + w01 * src[(a + width) * 3 + c]! + w11 * src[(a + width + 1) * 3 + c]!);
      }
      lumaData[o] = w00 * luma.data[a]! + w10 * luma.data[a + 1]! + w01 * luma.data[a + width]! + w11 * luma.data[a + width + 1]!;
    }
  }
  const turn = Math.ceil(Math.abs(sin) * Math.max(cx, cy)) + 1;
  const moved = validBox(width, height, { dx: Math.round(roll.dx), dy: Math.round(roll.dy) });
  const valid = { x: moved.x + turn, y: moved.y + turn, width: Math.max(0, moved.width - 2 * turn), height: Math.max(0, moved.height - 2 * turn) };
  return { ...into, valid };
}
