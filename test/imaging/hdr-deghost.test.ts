import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeBrackets } from '../../src/imaging/hdr/index.js';
import type { Image16 } from '../../src/imaging/types.js';
import { expose, hdrScene, lumaBox, type Radiance } from './hdr-scenes.js';

const W = 300;
const H = 200;
const SIZE = 36;
/** Where the object stands in the reference (A) and where the +2 EV frame caught it (B): mid-tones, unclipped at +2 EV. */
const A = { x: 70, y: 40 };
const B = { x: 70, y: 120 };

/** The scene with a dark object (a person in a doorway, say) pasted in at (x, y). */
function withObject(scene: Radiance, at: { x: number; y: number }): Radiance {
  const data = scene.data.slice();
  for (let y = at.y; y < at.y + SIZE; y++) {
    for (let x = at.x; x < at.x + SIZE; x++) for (let c = 0; c < 3; c++) data[(y * W + x) * 3 + c] = 0.004;
  }
  return { ...scene, data };
}

function meanLumaDifference(a: Image16, b: Image16, at: { x: number; y: number }): number {
  const la = lumaBox(a, at.x, at.y, SIZE, SIZE);
  const lb = lumaBox(b, at.x, at.y, SIZE, SIZE);
  return la.reduce((sum, v, i) => sum + Math.abs(v - lb[i]!), 0) / la.length;
}

test('an object that moved between exposures appears once, where the reference shows it', async () => {
  const scene = hdrScene(W, H, 11);
  const still = withObject(scene, A);
  const moved = withObject(scene, B);
  const staticBracket = [expose(still, 0.25, 0, 0, W, H), expose(still, 1, 0, 0, W, H), expose(still, 4, 0, 0, W, H)];
  const ghostBracket = [staticBracket[0]!, staticBracket[1]!, expose(moved, 4, 0, 0, W, H)];

  const before = ghostBracket.map((f) => f.data.slice());
  const truth = (await mergeBrackets(staticBracket)).image;
  const deghosted = (await mergeBrackets(ghostBracket)).image;
  for (const [i, f] of ghostBracket.entries()) assert.deepEqual(f.data, before[i], `input frame ${i} must be left as it was`);
  const naive = (await mergeBrackets(ghostBracket, { deghost: false })).image;

  // Without ghost suppression the +2 EV frame prints a dark copy at B and lightens the object at A.
  const ghostNaive = meanLumaDifference(naive, truth, B);
  const ghost = meanLumaDifference(deghosted, truth, B);
  assert.ok(ghostNaive > 0.05, `the test scene must produce a visible ghost without suppression (${ghostNaive.toFixed(3)})`);
  assert.ok(ghost < 0.25 * ghostNaive, `ghost at B: ${ghost.toFixed(3)} with suppression, ${ghostNaive.toFixed(3)} without`);
  const objectNaive = meanLumaDifference(naive, truth, A);
  const object = meanLumaDifference(deghosted, truth, A);
  assert.ok(object < 0.25 * objectNaive, `object at A: ${object.toFixed(3)} with suppression, ${objectNaive.toFixed(3)} without`);
});

test('a static bracket is fused the same with and without ghost suppression', async () => {
  const scene = hdrScene(W, H, 12);
  const bracket = [0.25, 1, 4].map((gain) => expose(scene, gain, 0, 0, W, H));
  const on = (await mergeBrackets(bracket)).image;
  const off = (await mergeBrackets(bracket, { deghost: false })).image;
  const diff = on.data.reduce((sum, v, i) => sum + Math.abs(v - off.data[i]!), 0) / on.data.length / 65535;
  assert.ok(diff < 0.002, `mean difference ${diff}`);
});
