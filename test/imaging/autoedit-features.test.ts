import assert from 'node:assert/strict';
import { test } from 'node:test';
import { photoFeatures } from '../../src/imaging/autoedit/features.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { LinearImage } from '../../src/imaging/tone/preview.js';

/** Where the white patch (ln r/g, ln b/g at 99.5 % and 99.9 %) and the plateau (share, ln r/g, ln b/g) sit: after the 15 spreads. */
const PATCH = 15;
const PLATEAU = 19;

/** Dim surfaces of random colour, and a white card (a tenth of the frame) lit like them, both by a light of the given gains. */
function castScene(gains: [number, number, number], cardLevel: number): LinearImage {
  const width = 200;
  const height = 100;
  const data = new Float32Array(width * height * 3);
  const rnd = seededRandom(7);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const card = x < 20;
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = (card ? cardLevel : 0.02 + 0.2 * rnd()) * gains[c]!;
    }
  return { width, height, data };
}

test('the white patch and the plateau read the light off a white card', () => {
  const gains: [number, number, number] = [1.3, 1, 0.7];
  const f = photoFeatures(castScene(gains, 0.35));
  const u = Math.log(gains[0] / gains[1]);
  const v = Math.log(gains[2] / gains[1]);
  for (const k of [0, 1]) {
    assert.ok(Math.abs(f[PATCH + 2 * k]! - u) < 0.02, `patch ln r/g ${f[PATCH + 2 * k]} vs ${u}`);
    assert.ok(Math.abs(f[PATCH + 2 * k + 1]! - v) < 0.02, `patch ln b/g ${f[PATCH + 2 * k + 1]} vs ${v}`);
  }
  assert.ok(Math.abs(f[PLATEAU]! - Math.sqrt(0.1)) < 0.01, `plateau share ${f[PLATEAU]}`);
  assert.ok(Math.abs(f[PLATEAU + 1]! - u) < 1e-3 && Math.abs(f[PLATEAU + 2]! - v) < 1e-3, `plateau chroma ${f[PLATEAU + 1]}, ${f[PLATEAU + 2]}`);
});

test('without a light the white patch and the plateau are neutral', () => {
  const neutral = photoFeatures(castScene([1, 1, 1], 0.8));
  for (const k of [0, 1, 2, 3]) assert.ok(Math.abs(neutral[PATCH + k]!) < 0.02, `patch ${neutral[PATCH + k]}`);
  assert.ok(Math.abs(neutral[PLATEAU + 1]!) < 1e-3 && Math.abs(neutral[PLATEAU + 2]!) < 1e-3);
  assert.ok(Math.abs(neutral[PLATEAU]! - Math.sqrt(0.1)) < 0.01);
});
