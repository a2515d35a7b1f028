import type { Box, CropRect, Image16 } from '../types.js';

/** The precise error every public function throws for a bad argument: what, expected, actual. */
export function invalidArgument(name: string, expected: string, actual: unknown): Error {
  const shown = typeof actual === 'object' && actual !== null ? JSON.stringify(actual)?.slice(0, 120) : String(actual);
  return new Error(`Expected ${expected} for ${name} but received ${shown} of type ${typeof actual}`);
}

export function checkImage(name: string, image: Image16): void {
  if (typeof image !== 'object' || image === null) throw invalidArgument(name, 'an Image16 object', image);
  checkSize(name, image);
  const { width, height, data } = image;
  if (!(data instanceof Uint16Array)) throw invalidArgument(`${name}.data`, 'a Uint16Array', data);
  if (data.length !== width * height * 3) throw invalidArgument(`${name}.data.length`, `${width * height * 3} (width × height × 3)`, data.length);
}

export function checkNumber(name: string, value: number, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw invalidArgument(name, `a number between ${min} and ${max}`, value);
  }
}

export function checkSize(name: string, size: { width: number; height: number }): void {
  if (typeof size !== 'object' || size === null) throw invalidArgument(name, 'an object with width and height', size);
  if (!Number.isInteger(size.width) || size.width < 1) throw invalidArgument(`${name}.width`, 'a positive integer', size.width);
  if (!Number.isInteger(size.height) || size.height < 1) throw invalidArgument(`${name}.height`, 'a positive integer', size.height);
}

export function checkCrop(name: string, crop: CropRect): void {
  if (typeof crop !== 'object' || crop === null) throw invalidArgument(name, 'a CropRect or null', crop);
  for (const side of ['left', 'top', 'right', 'bottom'] as const) checkNumber(`${name}.${side}`, crop[side], 0, 1);
  if (crop.right <= crop.left) throw invalidArgument(`${name}.right`, `a fraction greater than left (${crop.left})`, crop.right);
  if (crop.bottom <= crop.top) throw invalidArgument(`${name}.bottom`, `a fraction greater than top (${crop.top})`, crop.bottom);
}

export function checkBox(name: string, box: Box): void {
  if (typeof box !== 'object' || box === null) throw invalidArgument(name, 'a Box', box);
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    if (typeof box[key] !== 'number' || !Number.isFinite(box[key])) throw invalidArgument(`${name}.${key}`, 'a finite number', box[key]);
  }
  if (box.width <= 0 || box.height <= 0) throw invalidArgument(name, 'a box with positive width and height', box);
}
