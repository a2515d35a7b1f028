import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareJobs } from '../../src/imaging/bands.js';
import { image16FromSharp, image16Of, resizeImage16, sharpFromImage16 } from '../../src/imaging/image16.js';
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

describe('resizeImage16', () => {
  it('shrinks a large image in bands of rows to the very samples of one libvips pipeline', async () => {
    const rand = seededRandom(7);
    // Above the 2 MP at which the bands start; an odd size, each band's height not a multiple of the scale.
    const width = 1811,
      height = 1237;
    const data = Uint16Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 65536));
    const image = { width, height, data };
    for (const [w, h] of [
      [640, 437],
      [1500, 1201],
      [333, 1000],
    ] as const) {
      const banded = await resizeImage16(image, w, h);
      const one = await image16FromSharp(sharpFromImage16(image).resize(w, h, { fit: 'fill', kernel: 'lanczos3' }));
      assert.deepEqual([banded.width, banded.height], [w, h]);
      assert.ok(Buffer.from(banded.data.buffer, banded.data.byteOffset, banded.data.byteLength).equals(Buffer.from(one.data.buffer, one.data.byteOffset, one.data.byteLength)), `${w} × ${h}: the bands differ from one pipeline`);
    }
  });
});
