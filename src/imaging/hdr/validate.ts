import type { Image16 } from '../types.js';

/** A precise argument error in sharp's style: what was wrong, what was expected, what was given. */
export function invalidParameter(name: string, expected: string, actual: unknown): Error {
  const shown = typeof actual === 'object' && actual !== null ? (Array.isArray(actual) ? `array of length ${actual.length}` : 'object') : `${typeof actual} ${String(actual)}`;
  return new Error(`Expected ${expected} for ${name} but received ${shown}`);
}

/** Throws unless image is a well-formed Image16 (positive integer size, RGB data of the right length). */
export function assertImage16(image: unknown, name: string): asserts image is Image16 {
  if (typeof image !== 'object' || image === null) throw invalidParameter(name, 'an Image16 object', image);
  const { width, height, data } = image as Partial<Image16>;
  if (!Number.isInteger(width) || (width as number) < 1) throw invalidParameter(`${name}.width`, 'a positive integer', width);
  if (!Number.isInteger(height) || (height as number) < 1) throw invalidParameter(`${name}.height`, 'a positive integer', height);
  if (!(data instanceof Uint16Array)) throw invalidParameter(`${name}.data`, 'a Uint16Array', data);
  const expected = (width as number) * (height as number) * 3;
  if (data.length !== expected) throw invalidParameter(`${name}.data.length`, `${expected} (width x height x 3)`, data.length);
}
