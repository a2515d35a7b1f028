import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectFaces } from '../../src/imaging/faces/detect.js';
import { seededRandom } from '../../src/imaging/random.js';
import { boxIou, Canvas, paintHead, SKIN_TONES } from '../support/portrait.js';

/** A head on a textured green-grey background, as a 400 × 300 image. */
function portrait(faceWidth: number, skin = SKIN_TONES.light!, seed = 1) {
  const canvas = new Canvas(400, 300);
  canvas.texture([0.35, 0.42, 0.33], 0.45, 10, seededRandom(seed));
  const truth = paintHead(canvas, 200, 130, { faceWidth, skin, seed });
  return { image: canvas.toImage16(), truth };
}

// The dark tone is left out: its eyes do not stand out enough for this detector (see docs/imaging-portrait.md).
test('finds a synthetic frontal face of light, medium and tan skin with IoU >= 0.5', async () => {
  for (const tone of ['light', 'medium', 'tan']) {
    const skin = SKIN_TONES[tone]!;
    const { image, truth } = portrait(90, skin);
    const faces = await detectFaces(image);
    assert.equal(faces.length, 1, `${tone}: expected one face, found ${JSON.stringify(faces)}`);
    const face = faces[0]!;
    assert.ok(boxIou(face, truth) >= 0.5, `${tone}: IoU ${boxIou(face, truth).toFixed(2)} of ${JSON.stringify(face)} with ${JSON.stringify(truth)}`);
    assert.ok(face.confidence > 0 && face.confidence <= 1, `confidence ${face.confidence}`);
  }
});

test('finds small and large faces, and two faces side by side', async () => {
  for (const width of [40, 160]) {
    const { image, truth } = portrait(width, SKIN_TONES.medium, 3);
    const faces = await detectFaces(image);
    assert.ok(
      faces.some((f) => boxIou(f, truth) >= 0.5),
      `width ${width}: ${JSON.stringify(faces)} vs ${JSON.stringify(truth)}`,
    );
  }
  const canvas = new Canvas(480, 260);
  canvas.texture([0.5, 0.5, 0.55], 0.3, 14, seededRandom(5));
  const left = paintHead(canvas, 130, 110, { faceWidth: 70, skin: SKIN_TONES.tan! });
  const right = paintHead(canvas, 350, 120, { faceWidth: 80, skin: SKIN_TONES.light! });
  const faces = await detectFaces(canvas.toImage16());
  assert.equal(faces.length, 2, JSON.stringify(faces));
  for (const truth of [left, right])
    assert.ok(
      faces.some((f) => boxIou(f, truth) >= 0.5),
      `${JSON.stringify(truth)} not in ${JSON.stringify(faces)}`,
    );
});

test('rejects skin-coloured regions without the face pattern', async () => {
  // A flat face-sized skin-toned ellipse, and a wooden table top with grain and knots.
  // (A sphere-shaded ellipse on dark texture is still taken for a face: docs/imaging-portrait.md.)
  const blob = new Canvas(400, 300);
  blob.texture([0.35, 0.42, 0.33], 0.45, 10, seededRandom(2));
  blob.ellipse(200, 130, 45, 56, SKIN_TONES.light!);
  assert.deepEqual(await detectFaces(blob.toImage16()), []);
  const wood = new Canvas(400, 300);
  wood.texture([0.3, 0.35, 0.45], 0.3, 20, seededRandom(4));
  const rnd = seededRandom(9);
  const table = new Canvas(400, 300);
  table.texture([0.72, 0.5, 0.33], 0.25, 6, rnd);
  for (let y = 60; y < 260; y++) {
    for (let x = 20; x < 380; x++) {
      const grain = 0.88 + 0.12 * Math.sin(y * 0.9 + 6 * Math.sin(x * 0.02));
      for (let c = 0; c < 3; c++) wood.data[(y * 400 + x) * 3 + c] = table.data[(y * 400 + x) * 3 + c]! * grain;
    }
  }
  wood.ellipse(150, 140, 12, 7, [0.4, 0.26, 0.16]);
  wood.ellipse(260, 200, 9, 6, [0.4, 0.26, 0.16]);
  assert.deepEqual(await detectFaces(wood.toImage16()), []);
});

test('validates its arguments', async () => {
  const { image } = portrait(60);
  await assert.rejects(detectFaces({ width: 10, height: 10, data: new Uint16Array(5) }), /Expected 300 \(width x height x 3\) for image\.data\.length/);
  await assert.rejects(detectFaces(image, { minFaceFraction: 0 }), /minFaceFraction/);
});
