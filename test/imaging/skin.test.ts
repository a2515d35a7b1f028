import assert from 'node:assert/strict';
import { test } from 'node:test';
import { skinLikelihood } from '../../src/imaging/local/skin-colour.js';
import { smoothSkin } from '../../src/imaging/local/skin.js';
import type { Box, Image16 } from '../../src/imaging/types.js';
import { seededRandom } from '../../src/imaging/random.js';
import { Canvas, paintHead, SKIN_TONES } from '../support/portrait.js';

/** A blemished face with pore-scale noise on a blue-grey background. */
function blemishedPortrait(): { image: Image16; face: Box } {
  const canvas = new Canvas(360, 320);
  canvas.texture([0.3, 0.36, 0.5], 0.4, 8, seededRandom(11));
  const face = paintHead(canvas, 180, 140, { faceWidth: 140, skin: SKIN_TONES.medium!, blemishes: 40, seed: 3 });
  const rnd = seededRandom(12);
  for (let i = 0; i < canvas.data.length; i++) canvas.data[i] = canvas.data[i]! * (1 + (rnd() - 0.5) * 0.06);
  return { image: canvas.toImage16(), face };
}

/** Mean squared difference between each green value and its 5 × 5 neighbourhood mean, over the given pixels. */
function highFrequencyEnergy(image: Image16, pixels: number[]): number {
  const { width, data } = image;
  let sum = 0;
  for (const p of pixels) {
    const x = p % width;
    const y = (p - x) / width;
    let mean = 0;
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) mean += data[((y + dy) * width + x + dx) * 3 + 1]!;
    sum += (data[p * 3 + 1]! - mean / 25) ** 2;
  }
  return sum / pixels.length;
}

test('smoothSkin lowers high-frequency energy on the cheeks and leaves non-skin pixels unchanged', async () => {
  const { image, face } = blemishedPortrait();
  const out = await smoothSkin(image, 80, { faces: [face] });
  // Cheeks and forehead: skin, away from eyes, brows, lips and the face's rim.
  const cheeks: number[] = [];
  for (let y = face.y + Math.round(face.height * 0.55); y < face.y + face.height * 0.68; y++) {
    for (let x = face.x + Math.round(face.width * 0.15); x < face.x + face.width * 0.35; x++) cheeks.push(y * image.width + x);
    for (let x = face.x + Math.round(face.width * 0.65); x < face.x + face.width * 0.85; x++) cheeks.push(y * image.width + x);
  }
  const before = highFrequencyEnergy(image, cheeks);
  const after = highFrequencyEnergy(out, cheeks);
  assert.ok(after < 0.6 * before, `high-frequency energy ${before.toFixed(0)} -> ${after.toFixed(0)}`);
  let nonSkin = 0;
  let changed = 0;
  for (let i = 0; i < image.width * image.height; i++) {
    const j = i * 3;
    if (skinLikelihood(image.data[j]! / 65535, image.data[j + 1]! / 65535, image.data[j + 2]! / 65535) > 0) continue;
    nonSkin++;
    if (out.data[j] !== image.data[j] || out.data[j + 1] !== image.data[j + 1] || out.data[j + 2] !== image.data[j + 2]) changed++;
  }
  assert.ok(nonSkin > image.width * image.height * 0.5, `only ${nonSkin} non-skin pixels`);
  assert.equal(changed, 0, `${changed} of ${nonSkin} non-skin pixels changed`);
  // The mean colour of the cheeks stays (a retouch, not a recolour).
  const mean = (img: Image16) => cheeks.reduce((s, p) => s + img.data[p * 3]!, 0) / cheeks.length;
  assert.ok(Math.abs(mean(out) - mean(image)) < 0.01 * 65535, `cheek red ${mean(image).toFixed(0)} -> ${mean(out).toFixed(0)}`);
});

test('smoothSkin scales with strength, keeps eyes sharp, and does nothing without faces', async () => {
  const { image, face } = blemishedPortrait();
  const diff = (a: Image16, b: Image16) => a.data.reduce((s, v, i) => s + Math.abs(v - b.data[i]!), 0);
  const weak = await smoothSkin(image, 30, { faces: [face] });
  const strong = await smoothSkin(image, 90, { faces: [face] });
  assert.ok(diff(strong, image) > 2 * diff(weak, image), 'strength 90 should change about three times as much as 30');
  // Iris of the left eye: an edge region the mask protects.
  const eye = { x: face.x + Math.round(face.width * 0.25), y: face.y + Math.round(face.height * 0.35), width: Math.round(face.width * 0.1), height: Math.round(face.height * 0.06) };
  let eyeChange = 0;
  for (let y = eye.y; y < eye.y + eye.height; y++)
    for (let x = eye.x; x < eye.x + eye.width; x++) for (let c = 0; c < 3; c++) eyeChange = Math.max(eyeChange, Math.abs(strong.data[(y * image.width + x) * 3 + c]! - image.data[(y * image.width + x) * 3 + c]!));
  assert.ok(eyeChange < 0.03 * 65535, `eye pixels moved by up to ${eyeChange}`);
  assert.deepEqual((await smoothSkin(image, 80, { faces: [] })).data, image.data);
  assert.deepEqual((await smoothSkin(image, 0, { faces: [face] })).data, image.data);
  const landscape = new Canvas(200, 120);
  landscape.texture([0.8, 0.6, 0.42], 0.3, 9, seededRandom(3));
  const sand = landscape.toImage16();
  assert.deepEqual((await smoothSkin(sand, 100)).data, sand.data, 'skin-coloured sand without faces must stay as it is');
  await assert.rejects(smoothSkin(image, 101), /strength/);
  await assert.rejects(smoothSkin(image, 50, { faces: [{ x: 0, y: 0, width: -1, height: 2 }] }), /faces/);
});
