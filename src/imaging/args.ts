/**
 * Argument checks for the public functions of imaging/, worded like sharp's: every error
 * names the parameter, what was expected and what was received.
 */
import type { Box } from './types.js';

/** The error for a bad argument: `Expected <expected> for <name> but received <actual>`. */
export function invalidParameterError(name: string, expected: string, actual: unknown): Error {
  return new Error(`Expected ${expected} for ${name} but received ${describe(actual)}`);
}

/** A received value as errors show it: its type and enough content to recognise it, never a whole pixel array. */
function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value !== 'object') return `${typeof value} ${String(value)}`;
  if (ArrayBuffer.isView(value)) return `${value.constructor.name} of ${value.byteLength} bytes`;
  if (Array.isArray(value)) {
    return value.length <= 8 && value.every((v) => typeof v === 'number') ? `array [${value.join(', ')}]` : `array of length ${value.length}`;
  }
  const fields = Object.entries(value)
    .slice(0, 8)
    .map(([key, v]) => `${key}: ${typeof v === 'object' && v !== null ? (v.constructor?.name ?? 'object') : typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  return `object {${fields.join(', ')}}`;
}

export function assertNumberInRange(value: unknown, name: string, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw invalidParameterError(name, `a number between ${min} and ${max}`, value);
}

/** An integer from min to max (no upper bound when max is omitted). */
export function assertIntegerInRange(value: unknown, name: string, min: number, max = Infinity): asserts value is number {
  if (Number.isInteger(value) && (value as number) >= min && (value as number) <= max) return;
  const expected = max !== Infinity ? `an integer between ${min} and ${max}` : min === 1 ? 'a positive integer' : `an integer >= ${min}`;
  throw invalidParameterError(name, expected, value);
}

/** A box of finite coordinates with positive width and height. */
export function assertBox(box: unknown, name: string): asserts box is Box {
  if (typeof box !== 'object' || box === null) throw invalidParameterError(name, 'a Box {x, y, width, height}', box);
  const b = box as Record<keyof Box, unknown>;
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    if (typeof b[key] !== 'number' || !Number.isFinite(b[key])) throw invalidParameterError(`${name}.${key}`, 'a finite number', b[key]);
  }
  if ((b.width as number) <= 0 || (b.height as number) <= 0) throw invalidParameterError(name, 'a box with positive width and height', box);
}
