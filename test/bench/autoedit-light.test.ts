import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LIGHT_BINS, LIGHT_CHANNELS, LIGHT_SPEC, blendedWhite, cellCentre, estimateLight, lightHistograms, type LightWeights } from '../../bench/autoedit/light.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { LinearImage } from '../../src/imaging/tone/preview.js';

/** Random patches of surface colours in linear light, each channel times its gain. */
function patches(gains: [number, number, number]): LinearImage {
  const rnd = seededRandom(7);
  const colours = Array.from({ length: 16 }, () => [0.25 + 0.25 * rnd(), 0.25 + 0.25 * rnd(), 0.25 + 0.25 * rnd()]);
  const width = 96;
  const height = 64;
  const data = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = colours[(Math.floor(y / 16) * 6 + Math.floor(x / 16)) % colours.length]!;
      const t = 0.9 + 0.2 * rnd();
      for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = Math.min(0.95, c[k]! * t * gains[k]!);
    }
  return { width, height, data };
}

/** Filters that vote for the light near the pixels' own chroma: a smooth bump about the tap that maps a chroma onto itself. */
function identityWeights(): LightWeights {
  const cells = LIGHT_BINS * LIGHT_BINS;
  const wrapped = (i: number) => Math.min(i, LIGHT_BINS - i);
  const filter = Array.from({ length: cells }, (_, k) => 30 * Math.exp(-(wrapped(k % LIGHT_BINS) ** 2 + wrapped(Math.floor(k / LIGHT_BINS)) ** 2) / 8));
  return { spec: LIGHT_SPEC, filters: Array.from({ length: LIGHT_CHANNELS }, () => [...filter]), bias: new Array<number>(cells).fill(0) };
}

describe('histogram light estimate', () => {
  it('a light shifts the estimate by its own log-chroma (the convolution is equivariant)', () => {
    const weights = identityWeights();
    const neutral = estimateLight(patches([1, 1, 1]), weights);
    const gains: [number, number, number] = [1.4, 1, 0.6];
    const cast = estimateLight(patches(gains), weights);
    const du = cast.mean[0] - neutral.mean[0];
    const dv = cast.mean[1] - neutral.mean[1];
    assert.ok(Math.abs(du - Math.log(1.4)) < 0.05 && Math.abs(dv - Math.log(0.6)) < 0.05, `shift ${du}, ${dv}`);
    assert.ok(neutral.covariance[0] > 0 && neutral.covariance[2] > 0);
  });

  it('the histograms sum to one and the bias alone sets the estimate of an empty picture', () => {
    const black: LinearImage = { width: 8, height: 8, data: new Float32Array(8 * 8 * 3) };
    for (const h of lightHistograms(patches([1, 1, 1]))) assert.ok(Math.abs(h.reduce((s, v) => s + v, 0) - 1) < 1e-9);
    const weights = identityWeights();
    weights.bias[5 * LIGHT_BINS + 9] = 50;
    const e = estimateLight(black, weights);
    assert.ok(Math.abs(e.mean[0] - cellCentre(0, 9)) < 1e-6 && Math.abs(e.mean[1] - cellCentre(1, 5)) < 1e-6, JSON.stringify(e.mean));
  });

  it('the blend leans on the surer white and is surer than either', () => {
    const blend = { features: [[0.01, 1] as [number, number], [0.01, 1] as [number, number]], light: [[0.01, 1] as [number, number], [0.01, 1] as [number, number]] };
    const sure = blendedWhite({ mean: [0.2, -0.4], spread: [0, 0] }, { mean: [0, 0], covariance: [0.09, 0, 0.09] }, blend);
    assert.ok(sure.mean[0] > 0.18 && sure.mean[1] < -0.36, JSON.stringify(sure));
    const even = blendedWhite({ mean: [0.2, -0.4], spread: [0, 0] }, { mean: [0, 0], covariance: [0, 0, 0] }, blend);
    assert.ok(Math.abs(even.mean[0] - 0.1) < 1e-9 && Math.abs(even.spread[0] - Math.sqrt(0.005)) < 1e-9, JSON.stringify(even));
  });
});
