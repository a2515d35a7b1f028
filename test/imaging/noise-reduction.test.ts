import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reduceNoise } from '../../src/imaging/tone/detail.js';
import { seededRandom } from '../../src/imaging/random.js';
import { testScene } from '../support/photos.js';
import { reduceNoiseReference } from '../support/tools-reference.js';

describe('reduceNoise (blend in the WebAssembly kernel) against the double-precision blend', () => {
  // A scene with edges, noise on top: both ends of the weight (noise blurred, edges kept) occur.
  const image = testScene(211, 97, 4);
  const rand = seededRandom(2);
  for (let i = 0; i < image.data.length; i++) image.data[i] = Math.min(65535, Math.max(0, image.data[i]! + Math.round((rand() - 0.5) * 3000)));
  for (const amount of [10, 60, 100]) {
    it(`amount ${amount}: within one code value, nearly all exact, and noise is reduced`, async () => {
      const ours = await reduceNoise(image, amount);
      const reference = await reduceNoiseReference(image, amount);
      let max = 0;
      let differing = 0;
      let changed = 0;
      for (let i = 0; i < ours.data.length; i++) {
        const d = Math.abs(ours.data[i]! - reference.data[i]!);
        max = Math.max(max, d);
        if (d > 0) differing++;
        if (ours.data[i] !== image.data[i]) changed++;
      }
      assert.ok(max <= 1, `max difference ${max}`);
      assert.ok(differing < 0.02 * ours.data.length, `${differing} samples differ`);
      assert.ok(changed > 0.5 * ours.data.length, 'the blur is blended in');
    });
  }
});
