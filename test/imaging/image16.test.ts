import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { image16Of } from '../../src/imaging/image16.js';
import { seededRandom } from '../../src/imaging/random.js';

describe('image16Of', () => {
  it('widens every 8-bit sample exactly (v × 257), past the kernel chunk and a length not a multiple of 16', () => {
    const rand = seededRandom(5);
    const width = 701,
      height = 503;
    const data = Uint8Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 256));
    data[0] = 255;
    data[data.length - 1] = 254;
    const wide = image16Of({ width, height, data });
    assert.equal(wide.data.length, data.length);
    for (let i = 0; i < data.length; i++) if (wide.data[i] !== data[i]! * 257) assert.fail(`sample ${i}: ${wide.data[i]} for ${data[i]}`);
  });

  it('returns a 16-bit image itself, and one widening per 8-bit image', () => {
    const image16 = { width: 1, height: 1, data: Uint16Array.of(1, 2, 3) };
    assert.equal(image16Of(image16), image16);
    const image8 = { width: 1, height: 1, data: Uint8Array.of(1, 2, 3) };
    assert.equal(image16Of(image8), image16Of(image8));
  });
});
