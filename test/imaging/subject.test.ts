import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applySubjectEmphasis, subjectMask } from '../../src/imaging/local/subject-mask.js';
import type { Image16 } from '../../src/imaging/types.js';
import { seededRandom } from '../../src/imaging/random.js';
import { boxIou, Canvas } from '../support/portrait.js';

/** A red-orange vase shape left of centre on a plain, slightly noisy grey-blue backdrop, with its true mask. */
function stillLife(): { image: Image16; truth: Uint8Array } {
  const w = 480;
  const h = 360;
  const canvas = new Canvas(w, h);
  canvas.texture([0.55, 0.58, 0.62], 0.08, 30, seededRandom(21));
  const truthCanvas = new Canvas(w, h);
  const shapes: [number, number, number, number][] = [
    [200, 200, 70, 95],
    [200, 110, 30, 40],
  ];
  for (const [cx, cy, rx, ry] of shapes) {
    canvas.ellipse(cx, cy, rx, ry, [0.78, 0.3, 0.15], { shade: 0.3 });
    truthCanvas.ellipse(cx, cy, rx, ry, [1, 1, 1]);
  }
  const truth = new Uint8Array(w * h);
  for (let i = 0; i < truth.length; i++) truth[i] = truthCanvas.data[i * 3]! >= 0.5 ? 1 : 0;
  return { image: canvas.toImage16(), truth };
}

test('subjectMask finds a salient object on a plain background with IoU >= 0.8', async () => {
  const { image, truth } = stillLife();
  const subject = await subjectMask(image);
  const { mask, width, height } = subject;
  assert.ok(width <= 384 && height <= 384 && mask.length === width * height);
  let inter = 0;
  let union = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = truth[Math.floor(((y + 0.5) * image.height) / height) * image.width + Math.floor(((x + 0.5) * image.width) / width)]!;
      const m = mask[y * width + x]! > 0.5 ? 1 : 0;
      inter += t & m;
      union += t | m;
    }
  }
  assert.ok(inter / union >= 0.8, `mask IoU ${(inter / union).toFixed(3)}`);
  const truthBox = { x: 130, y: 70, width: 140, height: 225 };
  assert.ok(boxIou(subject.box, truthBox) >= 0.8, `box ${JSON.stringify(subject.box)}`);
  assert.ok(subject.confidence > 0.5, `confidence ${subject.confidence}`);
});

test('applySubjectEmphasis lifts the subject, lowers the background, and keeps black and white', async () => {
  const { image, truth } = stillLife();
  const subject = await subjectMask(image);
  const out = await applySubjectEmphasis(image, subject, 100);
  let subjectGain = 0;
  let backgroundGain = 0;
  let ns = 0;
  let nb = 0;
  for (let i = 0; i < truth.length; i++) {
    const d = out.data[i * 3 + 1]! - image.data[i * 3 + 1]!;
    if (truth[i]) {
      subjectGain += d;
      ns++;
    } else {
      backgroundGain += d;
      nb++;
    }
  }
  assert.ok(subjectGain / ns > 0.01 * 65535, `subject green moved by ${(subjectGain / ns).toFixed(0)}`);
  assert.ok(backgroundGain / nb < -0.02 * 65535, `background green moved by ${(backgroundGain / nb).toFixed(0)}`);
  const extremes: Image16 = { width: 2, height: 1, data: Uint16Array.of(0, 0, 0, 65535, 65535, 65535) };
  const flat = await applySubjectEmphasis(extremes, { mask: Float32Array.of(1), width: 1, height: 1, box: { x: 0, y: 0, width: 2, height: 1 }, confidence: 1 }, 100);
  assert.deepEqual([...flat.data], [0, 0, 0, 65535, 65535, 65535]);
  assert.deepEqual((await applySubjectEmphasis(image, subject, 0)).data, image.data);
  await assert.rejects(applySubjectEmphasis(image, subject, -1), /amount/);
});
