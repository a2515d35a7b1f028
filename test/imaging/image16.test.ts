import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareJobs } from '../../src/imaging/bands.js';
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

  it('widens a large photo straight into shared memory on a thread that shares its jobs (the bands need not copy it)', () => {
    // This thread shares its jobs as an imaging thread of the service does.
    shareJobs();
    const rand = seededRandom(6);
    const large = { width: 1733, height: 1157, data: Uint8Array.from({ length: 1733 * 1157 * 3 }, () => Math.floor(rand() * 256)) };
    const wide = image16Of(large);
    assert.ok(wide.data.buffer instanceof SharedArrayBuffer, 'a 2 MP photo is widened into shared memory');
    for (let i = 0; i < large.data.length; i++) if (wide.data[i] !== large.data[i]! * 257) assert.fail(`sample ${i}`);
    const small = { width: 300, height: 200, data: new Uint8Array(300 * 200 * 3).fill(7) };
    assert.ok(!(image16Of(small).data.buffer instanceof SharedArrayBuffer), 'a small one stays on this thread');
  });
});
