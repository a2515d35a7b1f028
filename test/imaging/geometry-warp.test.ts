import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareJobs } from '../../src/imaging/bands.js';
import { applyGeometry } from '../../src/imaging/geometry/apply.js';
import { planGeometry } from '../../src/imaging/geometry/frame.js';
import { resample } from '../../src/imaging/geometry/warp.js';
import type { Mat3 } from '../../src/imaging/matrix.js';
import { seededRandom } from '../../src/imaging/random.js';
import { bandHelpers } from '../support/band-helpers.js';
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

describe('resample (WebAssembly kernel, two pixels at a time) against the same arithmetic one pixel at a time', () => {
  // On the larger sizes single and double precision part somewhere: the comparison sees the arithmetic.
  const sizes: [number, number][] = [
    [1, 1],
    [1, 6],
    [6, 1],
    [2, 2],
    [7, 5],
    [13, 9],
    [301, 263],
  ];
  // Identity, a fractional shift, a turn with a keystone, a strong perspective (w reaches 0 and below in the wider outputs).
  const matrices: Mat3[] = [
    [1, 0, 0, 0, 1, 0, 0, 0, 1],
    [1, 0, 0.37, 0, 1, 0.81, 0, 0, 1],
    [0.98, -0.05, 0.3, 0.05, 0.98, -0.2, 0.003, 0.002, 1],
    [0.6, 0.12, -0.4, -0.1, 0.7, 0.25, -0.07, 0.05, 1],
  ];
  for (const [sw, sh] of sizes) {
    it(`${sw}×${sh} source, output widths odd and even, edges and outside: sample for sample`, () => {
      const image = scene(sw, sh);
      for (const m of matrices) {
        const outputs: [number, number][] = [
          [1, 1],
          [2, 3],
          [sw, sh],
          [sw + 3, sh + 2],
          [sw * 2 + 1, sh],
        ];
        for (const [ow, oh] of outputs) {
          const ours = resample(image, m, ow, oh);
          assert.deepEqual(ours.data, resampleReference(image, m, ow, oh, Math.fround).data, `${ow}×${oh} through ${m.join(', ')}`);
        }
      }
    });
  }
});

describe('resample from 8-bit samples', () => {
  it('gives what resampling their exact 16-bit widening gives, sample for sample', () => {
    const rand = seededRandom(4);
    const matrices: Mat3[] = [
      [1, 0, 0.37, 0, 1, 0.81, 0, 0, 1],
      [0.98, -0.05, 0.3, 0.05, 0.98, -0.2, 0.003, 0.002, 1],
      [0.6, 0.12, -0.4, -0.1, 0.7, 0.25, -0.07, 0.05, 1],
    ];
    for (const [sw, sh] of [
      [1, 1],
      [2, 3],
      [13, 9],
      [301, 263],
    ] as const) {
      const narrow = { width: sw, height: sh, data: Uint8Array.from({ length: sw * sh * 3 }, () => Math.floor(rand() * 256)) };
      const wide = { width: sw, height: sh, data: Uint16Array.from(narrow.data, (v) => v * 257) };
      for (const m of matrices) {
        for (const [ow, oh] of [
          [sw, sh],
          [sw * 2 + 1, sh + 2],
        ] as const) {
          assert.deepEqual(resample(narrow, m, ow, oh).data, resample(wide, m, ow, oh).data, `${sw}×${sh} to ${ow}×${oh} through ${m.join(', ')}`);
        }
      }
    }
  });
});

describe('applyGeometry over imaging threads', () => {
  it('resamples in chunks on the other threads, sample for sample as on one thread', async () => {
    // This thread shares its jobs as an imaging thread of the service does.
    shareJobs();
    const { width, height, data } = scene(611, 1231);
    const shared = new Uint16Array(new SharedArrayBuffer(data.byteLength));
    shared.set(data);
    const image = { width, height, data: shared };
    const g = { straightenAngle: 2.5, perspective: { vertical: 15, horizontal: -10 }, crop: null };
    const plan = planGeometry(width, height, g);
    const alone = resample(image, plan.toSource, plan.width, plan.height);
    const helpers = await bandHelpers(2);
    try {
      // A loaded machine may leave the helpers no time to take a chunk in one run; a few runs give them a chance.
      for (let run = 0; run < 5; run++) {
        const banded = await applyGeometry(image, g);
        assert.ok(banded.data.buffer instanceof SharedArrayBuffer, 'resampled into shared memory');
        assert.equal(banded.width, alone.width);
        assert.equal(banded.height, alone.height);
        assert.deepEqual(banded.data, alone.data);
        if ((await Promise.all(helpers.map((h) => h.bandsDone()))).some((n) => n > 0)) break;
      }
      assert.ok(
        (await Promise.all(helpers.map((h) => h.bandsDone()))).some((n) => n > 0),
        'the other threads took chunks',
      );
    } finally {
      await Promise.all(helpers.map((h) => h.worker.terminate()));
    }
  });
});
