import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyGeometry, detectPerspective, detectStraighten, lightroomGeometry, planGeometry } from '../../src/imaging/geometry/index.js';
import { rotationHomography } from '../../src/imaging/geometry/camera.js';
import { planForHomography } from '../../src/imaging/geometry/frame.js';
import { downscaledGrey, downscaledRgb } from '../../src/imaging/geometry/grey.js';
import { verticalTilt } from '../../src/imaging/geometry/tilt.js';
import { resample } from '../../src/imaging/geometry/warp.js';
import { project, rotationX } from '../../src/imaging/matrix.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';

const flat = { straightenAngle: 0, perspective: { vertical: 0, horizontal: 0 }, crop: null };

/** A deterministic noise source, so the scenes are the same on every run. */
function noise(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff - 0.5;
  };
}

/** Draws an image from a colour function of (x, y), with a little sensor-like noise. */
function paint(width: number, height: number, colour: (x: number, y: number) => [number, number, number], seed = 1): Image16 {
  const data = new Uint16Array(width * height * 3);
  const rnd = noise(seed);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colour(x, y);
      for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = Math.max(0, Math.min(65535, Math.round((c[k]! + rnd() * 0.01) * 65535)));
    }
  }
  return { width, height, data };
}

/** A building front: sky, a wall with pillars and a grid of windows, a pavement. */
function facade(width: number, height: number): Image16 {
  return paint(width, height, (x, y) => {
    const u = x / width;
    const v = y / height;
    if (v < 0.1) return [0.55, 0.7, 0.9];
    if (v > 0.93) return [0.35, 0.35, 0.35];
    const pillar = (u * 8) % 1 < 0.06;
    if (pillar) return [0.45, 0.4, 0.35];
    const window = (u * 8) % 1 > 0.25 && (u * 8) % 1 < 0.8 && ((v - 0.1) * 6) % 1 > 0.3 && ((v - 0.1) * 6) % 1 < 0.85;
    return window ? [0.15, 0.18, 0.22] : [0.85, 0.8, 0.7];
  });
}

/** The photo a camera pitched by `degrees` (positive: looking up) with focal length `focal` × the long edge would take, cropped clean. */
function keystone(image: Image16, degrees: number, focal: number): Image16 {
  const f = focal * Math.max(image.width, image.height);
  const toCanvas = rotationHomography(image.width, image.height, rotationX((-degrees * Math.PI) / 180), f);
  const plan = planForHomography(image.width, image.height, toCanvas, null);
  return resample(image, plan.toSource, plan.width, plan.height);
}

/** Sizes and long edges of the block-average copies: several blocks, one row of blocks, one block. */
const BLOCK_CASES = [
  [37, 23, 10],
  [1100, 70, 1024],
  [5, 4, 8],
] as const;

describe('downscaledRgb', () => {
  it('averages whole blocks, an 8-bit photo as its exact widening, number for number', () => {
    const rand = seededRandom(6);
    for (const [width, height, maxEdge] of BLOCK_CASES) {
      const narrow = { width, height, data: Uint8Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 256)) };
      const wide = { width, height, data: Uint16Array.from(narrow.data, (v) => v * 257) };
      const copy = downscaledRgb(wide, maxEdge);
      const factor = Math.max(1, Math.ceil(Math.max(width, height) / maxEdge));
      assert.equal(copy.factor, factor);
      assert.deepEqual([copy.width, copy.height], [Math.floor(width / factor), Math.floor(height / factor)]);
      const expected = new Float32Array(copy.width * copy.height * 3);
      for (let i = 0; i < expected.length; i++) {
        const x = Math.floor(i / 3) % copy.width;
        const y = Math.floor(i / 3 / copy.width);
        let sum = 0;
        for (let dy = 0; dy < factor; dy++) for (let dx = 0; dx < factor; dx++) sum += wide.data[((y * factor + dy) * width + x * factor + dx) * 3 + (i % 3)]!;
        // The JavaScript pass's arithmetic: the sum times 1 / (factor² · 65535), in double precision.
        expected[i] = sum * (1 / (factor * factor * 65535));
      }
      assert.deepEqual(copy.data, expected, `${width}×${height}`);
      assert.deepEqual(downscaledRgb(narrow, maxEdge).data, copy.data, `${width}×${height}: 8 bits as 16`);
    }
  });
});

describe('downscaledGrey', () => {
  it("is the Rec. 709 luma of downscaledRgb's channels, number for number", () => {
    const rand = seededRandom(9);
    for (const [width, height, maxEdge] of BLOCK_CASES) {
      const narrow = { width, height, data: Uint8Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 256)) };
      const wide = { width, height, data: Uint16Array.from({ length: width * height * 3 }, () => Math.floor(rand() * 65536)) };
      for (const image of [narrow, wide]) {
        const rgb = downscaledRgb(image, maxEdge);
        const grey = downscaledGrey(image, maxEdge);
        assert.deepEqual([grey.width, grey.height, grey.factor, grey.channels], [rgb.width, rgb.height, rgb.factor, 1]);
        const expected = Float32Array.from({ length: rgb.width * rgb.height }, (_, i) => 0.2126 * rgb.data[3 * i]! + 0.7152 * rgb.data[3 * i + 1]! + 0.0722 * rgb.data[3 * i + 2]!);
        assert.deepEqual(grey.data, expected, `${width}×${height}, ${image.data.BYTES_PER_ELEMENT * 8} bits`);
      }
    }
  });
});

describe('perspective correction', () => {
  for (const pitch of [6, -4]) {
    it(`straightens verticals of a facade keystoned by ${pitch}°`, async () => {
      const keystoned = keystone(facade(480, 360), pitch, 0.8);
      const before = verticalTilt(keystoned);
      const estimate = detectPerspective(keystoned);
      assert.ok(estimate.confidence >= 0.5, `confidence ${estimate.confidence}`);
      // Looking up makes verticals converge upwards: the correction widens the top (negative, as Lightroom).
      assert.equal(Math.sign(estimate.vertical), -Math.sign(pitch));
      const corrected = await applyGeometry(keystoned, {
        straightenAngle: estimate.straightenAngle,
        perspective: { vertical: estimate.vertical, horizontal: estimate.horizontal },
        crop: null,
      });
      const after = verticalTilt(corrected);
      assert.ok(before > 1, `keystoned tilt ${before}° should be large`);
      assert.ok(after < 0.2, `residual tilt ${after}° (before ${before}°)`);
    });
  }

  it('leaves a photo without straight lines alone', () => {
    const blobs = paint(400, 300, (x, y) => {
      const a = Math.sin(x / 37) * Math.cos(y / 23);
      const b = Math.exp(-((x - 250) ** 2 + (y - 120) ** 2) / 4000);
      return [0.4 + 0.2 * a + 0.3 * b, 0.5 + 0.1 * a, 0.3 + 0.3 * b];
    });
    const estimate = detectPerspective(blobs);
    assert.ok(estimate.confidence < 0.3, `confidence ${estimate.confidence}`);
    assert.deepEqual([estimate.vertical, estimate.horizontal, estimate.straightenAngle], [0, 0, 0]);
    assert.equal(detectStraighten(blobs).angle, 0);
  });
});

describe('straighten', () => {
  /** Sea below a horizon tilted by `degrees` clockwise on screen (right end lower), with a shore line; edges antialiased as a lens would. */
  const seascape = (degrees: number) =>
    paint(480, 320, (x, y) => {
      const slope = Math.tan((degrees * Math.PI) / 180);
      const below = (edge: number) => Math.min(1, Math.max(0, y - edge + 0.5));
      const sea = below(130 + slope * (x - 240));
      const sand = below(250 + slope * (x - 240));
      const sky = [0.6, 0.75, 0.95 - (0.2 * y) / 320];
      const water = [0.1, 0.3, 0.5];
      const beach = [0.8, 0.7, 0.5];
      return [0, 1, 2].map((k) => sky[k]! * (1 - sea) + water[k]! * (sea - sand) + beach[k]! * sand) as [number, number, number];
    });

  it('recovers a 3° tilt of the horizon within 0.3°', () => {
    const estimate = detectStraighten(seascape(3));
    // Tilted clockwise, so it must turn counter-clockwise: positive, as Lightroom's CropAngle.
    assert.ok(Math.abs(estimate.angle - 3) < 0.3, `angle ${estimate.angle}`);
    assert.ok(estimate.confidence > 0.5);
  });

  it('levels what applyGeometry rotated', async () => {
    const rotated = await applyGeometry(seascape(0), { ...flat, straightenAngle: -3 });
    const estimate = detectStraighten(rotated);
    assert.ok(Math.abs(estimate.angle - 3) < 0.3, `angle ${estimate.angle}`);
    const levelled = await applyGeometry(rotated, { ...flat, straightenAngle: estimate.angle });
    assert.ok(Math.abs(detectStraighten(levelled).angle) < 0.3);
  });
});

describe('applyGeometry', () => {
  const grey = (w: number, h: number) => paint(w, h, () => [0.5, 0.5, 0.5]);

  it('turns content counter-clockwise for a positive straighten angle', async () => {
    // A bright dot right of centre must move up.
    const image = paint(201, 101, (x, y) => (Math.hypot(x - 150, y - 50) < 3 ? [1, 1, 1] : [0.2, 0.2, 0.2]));
    const out = await applyGeometry(image, { ...flat, straightenAngle: 10 });
    let sy = 0;
    let sx = 0;
    let n = 0;
    for (let y = 0; y < out.height; y++) {
      for (let x = 0; x < out.width; x++) {
        if (out.data[(y * out.width + x) * 3]! > 40000) {
          sx += x - (out.width - 1) / 2;
          sy += y - (out.height - 1) / 2;
          n++;
        }
      }
    }
    assert.ok(n > 0);
    const angle = (Math.atan2(-sy / n, sx / n) * 180) / Math.PI;
    assert.ok(Math.abs(angle - 10) < 1, `dot at ${angle}° above the horizontal`);
  });

  it('positive vertical narrows the top, positive horizontal narrows the left (Lightroom signs)', () => {
    const edge = (g: typeof flat, a: [number, number], b: [number, number]) => {
      const p = planGeometry(300, 200, g);
      const [x1, y1] = project(p.toCanvas, ...a);
      const [x2, y2] = project(p.toCanvas, ...b);
      return Math.hypot(x2 - x1, y2 - y1);
    };
    const v = { ...flat, perspective: { vertical: 20, horizontal: 0 } };
    assert.ok(edge(v, [0, 0], [299, 0]) < edge(v, [0, 199], [299, 199]));
    const h = { ...flat, perspective: { vertical: 0, horizontal: 20 } };
    assert.ok(edge(h, [0, 0], [0, 199]) < edge(h, [299, 0], [299, 199]));
  });

  it('crops a rotation to the largest rectangle of the same aspect, with no empty pixels', async () => {
    for (const degrees of [3, -7, 20]) {
      const out = await applyGeometry(grey(300, 200), { ...flat, straightenAngle: degrees });
      for (let i = 0; i < out.data.length; i++) assert.ok(out.data[i]! > 0, `empty pixel at ${i} for ${degrees}°`);
      const t = (Math.abs(degrees) * Math.PI) / 180;
      const height = 200 / (Math.cos(t) + 1.5 * Math.sin(t));
      assert.ok(Math.abs(out.height - height) <= 1, `height ${out.height}, largest ${height}`);
      assert.ok(Math.abs(out.width / out.height - 1.5) < 0.02, `aspect ${out.width / out.height}`);
    }
  });

  it('fills every pixel under strong perspective and rotation together', async () => {
    const out = await applyGeometry(grey(240, 320), { straightenAngle: 4, perspective: { vertical: -60, horizontal: 35 }, crop: null });
    for (let i = 0; i < out.data.length; i++) assert.ok(out.data[i]! > 0, `empty pixel at ${i}`);
    assert.ok(Math.abs(out.width / out.height - 0.75) < 0.02);
    // Largest: growing the frame 2 % would reach outside the warped photo.
    const plan = planGeometry(240, 320, { straightenAngle: 4, perspective: { vertical: -60, horizontal: 35 }, crop: null });
    assert.ok(plan.frame.width > 0.5 * 240);
  });

  it('applies crop fractions exactly', async () => {
    const image = paint(200, 100, (x, y) => [x / 200, y / 100, 0.5]);
    const out = await applyGeometry(image, { ...flat, crop: { left: 0.25, top: 0.1, right: 0.75, bottom: 0.6 } });
    assert.deepEqual([out.width, out.height], [100, 50]);
    for (const [x, y] of [
      [0, 0],
      [99, 49],
      [37, 21],
    ] as const) {
      for (let k = 0; k < 3; k++) assert.equal(out.data[(y * 100 + x) * 3 + k], image.data[((y + 10) * 200 + x + 50) * 3 + k]);
    }
  });

  it('applies crop fractions to the corrected frame', async () => {
    const image = paint(300, 200, (x, y) => [x / 300, y / 200, 0.5]);
    const g = { ...flat, straightenAngle: 5 };
    const whole = await applyGeometry(image, g);
    const crop = { left: 0.2, top: 0.3, right: 0.9, bottom: 0.8 };
    const part = await applyGeometry(image, { ...g, crop });
    assert.equal(part.width, Math.round(0.7 * planGeometry(300, 200, g).frame.width));
    assert.equal(part.height, Math.round(0.5 * planGeometry(300, 200, g).frame.height));
    // The crop's top-left pixel shows what the whole frame shows there.
    const x = Math.round(0.2 * whole.width);
    const y = Math.round(0.3 * whole.height);
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(part.data[k]! - whole.data[(y * whole.width + x) * 3 + k]!) < 600);
  });

  it('rejects bad settings with a precise message', async () => {
    await assert.rejects(applyGeometry(grey(10, 10), { ...flat, straightenAngle: 60 }), /between -45 and 45 for geometry\.straightenAngle/);
    await assert.rejects(applyGeometry(grey(10, 10), { ...flat, crop: { left: 0.5, top: 0, right: 0.4, bottom: 1 } }), /geometry\.crop\.right/);
    await assert.rejects(applyGeometry({ width: 10, height: 10, data: new Uint16Array(5) }, flat), /image\.data\.length/);
  });
});

describe('lightroomGeometry', () => {
  it('passes a plain crop through', () => {
    const crop = { left: 0.1, top: 0.2, right: 0.7, bottom: 0.9 };
    const lr = lightroomGeometry(300, 200, { ...flat, crop });
    const got = [lr.cropLeft, lr.cropTop, lr.cropRight, lr.cropBottom];
    for (const [i, v] of [0.1, 0.2, 0.7, 0.9].entries()) assert.ok(Math.abs(got[i]! - v) < 1e-12, `${got[i]} vs ${v}`);
    assert.deepEqual([lr.cropAngle, lr.hasCrop], [0, true]);
    assert.equal(lightroomGeometry(300, 200, flat).hasCrop, false);
  });

  it('writes a straightened crop as Lightroom corner pairs', () => {
    // Lightroom: (Left, Top) = centre + R(CropAngle)·(−p, −q), (Right, Bottom) = centre + R(CropAngle)·(p, q), in pixels.
    const g = { ...flat, straightenAngle: 6, crop: { left: 0.1, top: 0.1, right: 0.8, bottom: 0.9 } };
    const lr = lightroomGeometry(300, 200, g);
    const plan = planGeometry(300, 200, g);
    const cx = ((lr.cropLeft + lr.cropRight) / 2) * 300;
    const cy = ((lr.cropTop + lr.cropBottom) / 2) * 200;
    const t = (-lr.cropAngle * Math.PI) / 180;
    const dx = lr.cropRight * 300 - cx;
    const dy = lr.cropBottom * 200 - cy;
    const p = dx * Math.cos(t) - dy * Math.sin(t);
    const q = dx * Math.sin(t) + dy * Math.cos(t);
    assert.ok(Math.abs(2 * p - plan.output.width) < 1e-6, `width ${2 * p} vs ${plan.output.width}`);
    assert.ok(Math.abs(2 * q - plan.output.height) < 1e-6, `height ${2 * q} vs ${plan.output.height}`);
    for (const v of [lr.cropLeft, lr.cropTop, lr.cropRight, lr.cropBottom]) assert.ok(v > 0 && v < 1);
  });
});
