import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings, type DevelopSettings } from '../../src/imaging/settings.js';
import { developRows, planDevelop } from '../../src/imaging/tone/pixel-pass.js';
import type { Image16 } from '../../src/imaging/types.js';
import { seededRandom } from '../../src/imaging/random.js';
import { developRowsReference } from '../support/develop-reference.js';
import { testScene } from '../support/photos.js';

/** Full-range noise: every branch of the pass (clipping, skin hues, deep shadows) gets samples. */
function noise(width: number, height: number): Image16 {
  const rnd = seededRandom(3);
  const data = new Uint16Array(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(rnd() * 65536);
  return { width, height, data };
}

const SLIDERS: [string, Partial<DevelopSettings>][] = [
  ['defaults', {}],
  ['an automatic edit', { exposure: 0.4, contrast: 20, temperature: 5200, tint: 6, vibrance: 12 }],
  ['every slider', { exposure: -0.7, contrast: -30, highlights: -60, shadows: 50, whites: 20, blacks: -25, temperature: 7400, tint: -10, vibrance: 40, saturation: -20, clarity: 35, sharpening: 60 }],
];

/** Largest difference and share of samples that differ, after scaling b to a's range. */
function compare(a: Uint16Array, b: Uint8Array | Uint16Array, scale: number): { max: number; share: number } {
  let max = 0;
  let differing = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]! * scale);
    if (d > max) max = d;
    if (d > 0) differing++;
  }
  return { max, share: differing / a.length };
}

describe('develop kernel (WebAssembly, SIMD) against the plain JavaScript pass', () => {
  for (const [name, image] of [
    ['noise', noise(37, 23)],
    ['a scene', testScene(161, 97, 5)],
  ] as const) {
    for (const [label, sliders] of SLIDERS) {
      const settings = { ...defaultSettings(), ...sliders };
      const plan = planDevelop(image, settings);
      const reference = new Uint16Array(image.data.length);
      developRowsReference(plan, image.data, reference, image.width, image.height, 0, image.height);

      it(`${name}, ${label}: 16-bit output within 4 code values of 65535, nearly all exact`, () => {
        const out = new Uint16Array(image.data.length);
        developRows(plan, image.data, out, image.width, image.height, 0, image.height);
        const { max, share } = compare(reference, out, 1);
        // Single precision moves a sqrt-indexed table read by one step now and then.
        assert.ok(max <= 4, `max difference ${max}`);
        assert.ok(share < 0.02, `${(share * 100).toFixed(2)} % of samples differ`);
      });

      it(`${name}, ${label}: 8-bit output is the 16-bit result rounded, within one level`, () => {
        const out = new Uint8Array(image.data.length);
        developRows(plan, image.data, out, image.width, image.height, 0, image.height);
        let max = 0;
        for (let i = 0; i < out.length; i++) max = Math.max(max, Math.abs(out[i]! - Math.round(reference[i]! / 257)));
        assert.ok(max <= 1, `max difference ${max} levels`);
      });

      it(`${name}, ${label}: bands developed apart join into the whole`, () => {
        const whole = new Uint16Array(image.data.length);
        developRows(plan, image.data, whole, image.width, image.height, 0, image.height);
        const banded = new Uint16Array(image.data.length);
        for (const [y0, y1] of [
          [0, 5],
          [5, 6],
          [6, image.height],
        ] as const)
          developRows(plan, image.data, banded, image.width, image.height, y0, y1);
        assert.deepEqual(banded, whole);
      });
    }
  }

  // Without sharpening 8-bit samples take a table of their own, without colour factors the output codes come from tables: every combination.
  for (const [label, sliders] of [
    ['sharpened, colour factors', { vibrance: 20, sharpening: 40 }],
    ['colour factors', { vibrance: 20 }],
    ['sharpened', { sharpening: 40 }],
    ['neither', {}],
  ] as const) {
    const settings = { ...defaultSettings(), exposure: 0.3, shadows: 30, ...sliders };
    const image = testScene(83, 41, 2);
    const narrow = Uint8Array.from(image.data, (v) => Math.round(v / 257));
    const wide = Uint16Array.from(narrow, (v) => v * 257);
    const plan = planDevelop({ ...image, data: wide }, settings);
    const develop = (src: Uint8Array | Uint16Array, depth: 8 | 16) => {
      const out = depth === 8 ? new Uint8Array(src.length) : new Uint16Array(src.length);
      developRows(plan, src, out, image.width, image.height, 0, image.height);
      return out;
    };

    it(`${label}: 8-bit input develops as its exact 16-bit widening`, () => {
      assert.deepEqual(develop(narrow, 16), develop(wide, 16));
      assert.deepEqual(develop(narrow, 8), develop(wide, 8));
    });

    it(`${label}: 8-bit output is exactly the 16-bit output rounded`, () => {
      // Every 16-bit code once (grey, so that the colour factors keep it): near-identity settings give nearly every output code.
      const ramp = Uint16Array.from({ length: 65536 * 3 }, (_, i) => Math.floor(i / 3));
      const near = planDevelop({ width: 256, height: 256, data: ramp }, { ...defaultSettings(), ...sliders });
      const out8 = new Uint8Array(ramp.length);
      const out16 = new Uint16Array(ramp.length);
      developRows(near, ramp, out8, 256, 256, 0, 256);
      developRows(near, ramp, out16, 256, 256, 0, 256);
      assert.deepEqual(
        out8,
        Uint8Array.from(out16, (v) => Math.round(v / 257)),
      );
    });
  }
});
