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

  it('8-bit input develops as its exact 16-bit widening', () => {
    const image = testScene(83, 41, 2);
    const narrow = Uint8Array.from(image.data, (v) => Math.round(v / 257));
    const wide = Uint16Array.from(narrow, (v) => v * 257);
    const plan = planDevelop({ ...image, data: wide }, { ...defaultSettings(), exposure: 0.3, vibrance: 20, sharpening: 40, shadows: 30 });
    const fromWide = new Uint16Array(wide.length);
    const fromNarrow = new Uint16Array(wide.length);
    developRows(plan, wide, fromWide, image.width, image.height, 0, image.height);
    developRows(plan, narrow, fromNarrow, image.width, image.height, 0, image.height);
    assert.deepEqual(fromNarrow, fromWide);
  });
});
