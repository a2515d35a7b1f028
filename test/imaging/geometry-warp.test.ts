import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resample } from '../../src/imaging/geometry/warp.js';
import type { Mat3 } from '../../src/imaging/matrix.js';
import { seededRandom } from '../../src/imaging/random.js';
import { resampleReference } from '../support/tools-reference.js';

/** Smooth gradients with noise on top: every tap weight matters. */
function scene(width: number, height: number): { width: number; height: number; data: Uint16Array } {
  const rand = seededRandom(9);
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.min(65535, Math.floor(((x + c * 50) / width) * 40000 + (y / height) * 20000 + rand() * 5000));
    }
  }
  return { width, height, data };
}

describe('resample (WebAssembly kernel) against a double-precision resampling', () => {
  const image = scene(301, 263);
  const rad = (3 * Math.PI) / 180;
  const cases: [string, Mat3, number, number][] = [
    // Turned 3° about the centre, a little smaller, with a keystone: output pixels reach past the photo (left 0).
    ['rotation and perspective', [Math.cos(rad), -Math.sin(rad), 20, Math.sin(rad), Math.cos(rad), 5, 0.0004, 0.0002, 1] as Mat3, 280, 300],
    ['a shift by a fraction of a pixel', [1, 0, 0.37, 0, 1, 0.81, 0, 0, 1] as Mat3, 300, 262],
  ];
  for (const [name, m, ow, oh] of cases) {
    it(`${name}: within one code value, nearly all exact, the same pixels left 0`, () => {
      const ours = resample(image, m, ow, oh);
      const reference = resampleReference(image, m, ow, oh);
      let max = 0;
      let differing = 0;
      let outside = 0;
      for (let i = 0; i < ours.data.length; i += 3) {
        const zero = (d: Uint16Array) => d[i] === 0 && d[i + 1] === 0 && d[i + 2] === 0;
        assert.equal(zero(ours.data), zero(reference.data), `pixel ${i / 3}`);
        if (zero(reference.data)) outside++;
        for (let c = 0; c < 3; c++) {
          const d = Math.abs(ours.data[i + c]! - reference.data[i + c]!);
          max = Math.max(max, d);
          if (d > 0) differing++;
        }
      }
      assert.ok(max <= 1, `max difference ${max}`);
      assert.ok(differing < 0.05 * ours.data.length, `${differing} samples differ`);
      if (name.startsWith('rotation')) assert.ok(outside > 0, 'some output falls outside the photo');
    });
  }
});
