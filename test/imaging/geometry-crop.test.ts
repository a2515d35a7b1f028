import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autoCrop, portraitCrop } from '../../src/imaging/geometry/index.js';
import type { CropRect, Image16 } from '../../src/imaging/types.js';

/** Draws an image from a colour function of (x, y), values 0..1. */
function paint(width: number, height: number, colour: (x: number, y: number) => [number, number, number]): Image16 {
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colour(x, y);
      for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = Math.round(Math.max(0, Math.min(1, c[k]!)) * 65535);
    }
  }
  return { width, height, data };
}

/** A quiet grey-blue background with a busy, colourful subject in the given box (fractions). */
function subjectOn(width: number, height: number, box: { x0: number; y0: number; x1: number; y1: number }): Image16 {
  return paint(width, height, (x, y) => {
    const u = x / width;
    const v = y / height;
    if (u >= box.x0 && u < box.x1 && v >= box.y0 && v < box.y1) {
      const check = (Math.floor(x / 6) + Math.floor(y / 6)) % 2;
      return check ? [0.9, 0.3, 0.1] : [0.2, 0.7, 0.2];
    }
    return [0.45, 0.5, 0.55];
  });
}

const ratio = (c: CropRect, w: number, h: number) => ((c.right - c.left) * w) / ((c.bottom - c.top) * h);
const area = (c: CropRect) => (c.right - c.left) * (c.bottom - c.top);
const holds = (c: CropRect, b: { x0: number; y0: number; x1: number; y1: number }) => c.left <= b.x0 && c.right >= b.x1 && c.top <= b.y0 && c.bottom >= b.y1;

describe('aspect crops', () => {
  const plain = paint(600, 400, (x, y) => [0.5 + 0.2 * Math.sin(x / 9), 0.5, 0.5 + 0.2 * Math.cos(y / 7)]);

  for (const [aspect, landscape, portrait] of [
    ['2X3', 3 / 2, 2 / 3],
    ['4X5', 5 / 4, 4 / 5],
    ['5X7', 7 / 5, 5 / 7],
  ] as const) {
    it(`${aspect} has the exact ratio, in the photo's orientation, at maximal size`, () => {
      const wide = autoCrop(plain, { mode: 'aspect', aspect });
      assert.ok(Math.abs(ratio(wide, 600, 400) - landscape) < 1e-9, `ratio ${ratio(wide, 600, 400)}`);
      assert.ok(wide.right - wide.left === 1 || wide.bottom - wide.top === 1, 'one side spans the frame');
      const tall = paint(400, 600, (x, y) => [0.5 + 0.2 * Math.sin(x / 9), 0.5, 0.5 + 0.2 * Math.cos(y / 7)]);
      const upright = autoCrop(tall, { mode: 'aspect', aspect });
      assert.ok(Math.abs(ratio(upright, 400, 600) - portrait) < 1e-9, `ratio ${ratio(upright, 400, 600)}`);
      assert.ok(upright.right - upright.left === 1 || upright.bottom - upright.top === 1);
      for (const c of [wide, upright]) for (const v of Object.values(c)) assert.ok(v >= 0 && v <= 1);
    });
  }

  it('slides the window to the subject', () => {
    const box = { x0: 0.78, y0: 0.3, x1: 0.92, y1: 0.7 };
    const crop = autoCrop(subjectOn(800, 320, box), { mode: 'aspect', aspect: '4X5' });
    assert.ok(holds(crop, box), JSON.stringify(crop));
    assert.ok(crop.left > 0.3);
  });

  it('centres the window when nothing stands out', () => {
    const crop = autoCrop(
      paint(600, 300, () => [0.5, 0.5, 0.5]),
      { mode: 'aspect', aspect: '2X3' },
    );
    assert.ok(Math.abs(crop.left + crop.right - 1) < 0.01, JSON.stringify(crop));
  });
});

describe('composition crop', () => {
  it('trims empty borders around a subject and keeps it whole', () => {
    const box = { x0: 0.55, y0: 0.3, x1: 0.8, y1: 0.75 };
    const crop = autoCrop(subjectOn(600, 400, box), { mode: 'composition' });
    assert.ok(area(crop) < 0.95, `area ${area(crop)}`);
    assert.ok(holds(crop, box), JSON.stringify(crop));
    assert.ok(Math.abs(ratio(crop, 600, 400) - 1.5) < 1e-9, 'keeps the photo ratio');
  });

  it('leaves an evenly busy photo whole', () => {
    const busy = paint(600, 400, (x, y) => [0.5 + 0.4 * Math.sin(x / 3) * Math.cos(y / 4), 0.5, 0.5 + 0.3 * Math.sin((x + y) / 5)]);
    assert.deepEqual(autoCrop(busy, { mode: 'composition' }), { left: 0, top: 0, right: 1, bottom: 1 });
  });

  it('takes a ratio when asked', () => {
    const crop = autoCrop(subjectOn(600, 400, { x0: 0.3, y0: 0.3, x1: 0.6, y1: 0.7 }), { mode: 'composition', aspect: '5X7' });
    assert.ok(Math.abs(ratio(crop, 600, 400) - 7 / 5) < 1e-9);
  });

  it('rejects bad options with a precise message', () => {
    const image = paint(20, 20, () => [0.5, 0.5, 0.5]);
    assert.throws(() => autoCrop(image, { mode: 'aspect' }), /options\.aspect/);
    assert.throws(() => autoCrop(image, { mode: 'square' as 'aspect', aspect: '2X3' }), /options\.mode/);
    assert.throws(() => autoCrop(image, { mode: 'aspect', aspect: '1X1' as '2X3' }), /options\.aspect/);
  });
});

describe('portrait crops', () => {
  const size = { width: 1200, height: 800 };
  const face = { x: 520, y: 220, width: 100, height: 130 };
  const faceBox = { x0: face.x / 1200, y0: face.y / 800, x1: (face.x + face.width) / 1200, y1: (face.y + face.height) / 800 };

  it('frames head and shoulders with headroom, eyes on the upper third', () => {
    const crop = portraitCrop(size, [face], { mode: 'portrait' });
    assert.ok(holds(crop, faceBox), JSON.stringify(crop));
    const top = crop.top * 800;
    const height = (crop.bottom - crop.top) * 800;
    assert.ok(face.y - top > 0.3 * face.height, `headroom ${face.y - top}px`);
    assert.ok(Math.abs((face.y + 0.4 * face.height - top) / height - 1 / 3) < 0.02, 'eye line on the upper third');
    assert.ok(Math.abs(ratio(crop, 1200, 800) - 4 / 5) < 1e-9, 'a 4:5 upright frame');
    assert.ok(height > 3 * face.height, 'shows shoulders');
  });

  it('crops a headshot tight, still with headroom', () => {
    const portrait = portraitCrop(size, [face], { mode: 'portrait' });
    const headshot = portraitCrop(size, [face], { mode: 'headshot', aspect: '2X3' });
    assert.ok(holds(headshot, faceBox));
    assert.ok(area(headshot) < area(portrait) / 2);
    assert.ok(face.y - headshot.top * 800 > 0.05 * face.height);
    assert.ok(Math.abs(ratio(headshot, 1200, 800) - 2 / 3) < 1e-9);
  });

  it('keeps a face at the frame edge whole', () => {
    const high = { x: 1100, y: 4, width: 90, height: 110 };
    const crop = portraitCrop(size, [high], { mode: 'portrait' });
    assert.ok(crop.top === 0 && crop.right <= 1 && crop.left * 1200 <= high.x && crop.right * 1200 >= high.x + high.width, JSON.stringify(crop));
  });

  it('frames a group and ignores small faces in the background', () => {
    const group = [face, { x: 700, y: 230, width: 95, height: 125 }, { x: 50, y: 100, width: 20, height: 25 }];
    const crop = portraitCrop(size, group, { mode: 'portrait' });
    assert.ok(crop.left * 1200 <= 520 && crop.right * 1200 >= 795, JSON.stringify(crop));
    assert.ok(crop.left * 1200 > 70, 'the small background face is not framed');
  });

  it('falls back to the composition crop without faces', () => {
    const image = subjectOn(600, 400, { x0: 0.55, y0: 0.3, x1: 0.8, y1: 0.75 });
    assert.deepEqual(portraitCrop({ width: 600, height: 400 }, [], { mode: 'portrait', image }), autoCrop(image, { mode: 'composition', aspect: '4X5' }));
    const centred = portraitCrop(size, [], { mode: 'headshot' });
    assert.ok(Math.abs(centred.left + centred.right - 1) < 1e-9 && Math.abs(ratio(centred, 1200, 800) - 5 / 4) < 1e-9);
  });

  it('rejects bad faces with a precise message', () => {
    assert.throws(() => portraitCrop(size, [{ x: 0, y: 0, width: -1, height: 5 }], { mode: 'portrait' }), /faces\[0\]/);
    assert.throws(() => portraitCrop(size, [], { mode: 'selfie' as 'portrait' }), /options\.mode/);
  });
});
