import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REFERENCE_WHITE, ciede2000, linearToSrgb, srgb16ToLinearLut, srgbToLinear, whiteBalanceMatrix, whiteFromIlluminant } from '../../src/imaging/colour.js';
import { applyToVector, invert } from '../../src/imaging/matrix.js';

describe('colour', () => {
  it('CIEDE2000 matches the Sharma, Wu & Dalal test pairs', () => {
    const pairs: [number, number, number, number, number, number, number][] = [
      [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
      [50, 0, 0, 50, -1, 2, 2.3669],
      [50, 2.5, 0, 73, 25, -18, 27.1492],
      [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
      [22.7233, 20.0904, -46.694, 23.0331, 14.973, -42.5619, 2.0373],
    ];
    for (const [L1, a1, b1, L2, a2, b2, expected] of pairs) assert.ok(Math.abs(ciede2000(L1, a1, b1, L2, a2, b2) - expected) < 1e-4, `${expected}`);
  });

  it('the sRGB curve and its 16-bit table are inverse', () => {
    for (const v of [0, 0.001, 0.01, 0.2, 0.5, 1]) assert.ok(Math.abs(srgbToLinear(linearToSrgb(v)) - v) < 1e-9);
    const lut = srgb16ToLinearLut();
    assert.equal(lut[0], 0);
    assert.ok(Math.abs(lut[65535]! - 1) < 1e-6);
  });

  it('white balance: the reference is the identity, lower temperatures turn grey blue, positive tint magenta', () => {
    const id = whiteBalanceMatrix(REFERENCE_WHITE.temperature, REFERENCE_WHITE.tint);
    for (const [i, v] of id.entries()) assert.ok(Math.abs(v - (i % 4 === 0 ? 1 : 0)) < 1e-9);
    const [r, , b] = applyToVector(whiteBalanceMatrix(3200, 0), [0.5, 0.5, 0.5]);
    assert.ok(b > r);
    const [mr, mg, mb] = applyToVector(whiteBalanceMatrix(6500, 30), [0.5, 0.5, 0.5]);
    assert.ok(mr > mg && mb > mg);
  });

  it('finds back the white of a light from its colour', () => {
    for (const [t, tint] of [
      [2500, 0],
      [4500, -10],
      [9000, 20],
      [30000, 5],
    ] as const) {
      const light = applyToVector(invert(whiteBalanceMatrix(t, tint)), [1, 1, 1]);
      const w = whiteFromIlluminant(light);
      assert.ok(Math.abs(1e6 / w.temperature - 1e6 / t) < 0.5, `${t} -> ${w.temperature}`);
      assert.ok(Math.abs(w.tint - tint) < 0.05);
    }
    assert.throws(() => whiteFromIlluminant([0, 1, 1]), /positive illuminant/);
  });
});
