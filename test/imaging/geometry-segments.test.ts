import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectSegments } from '../../src/imaging/geometry/index.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';

/** Two tilted rectangles and a bar on a grey ground, with a little noise. */
function shapes(width: number, height: number): Image16 {
  const rand = seededRandom(15);
  const data = new Uint16Array(width * height * 3);
  const inside = (x: number, y: number, cx: number, cy: number, hw: number, hh: number, turn: number) => {
    const u = (x - cx) * Math.cos(turn) + (y - cy) * Math.sin(turn);
    const v = -(x - cx) * Math.sin(turn) + (y - cy) * Math.cos(turn);
    return Math.abs(u) < hw && Math.abs(v) < hh;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = 0.5;
      if (inside(x, y, 70, 60, 40, 30, 0.1)) v = 0.85;
      if (inside(x, y, 140, 90, 30, 45, -0.25)) v = 0.2;
      if (inside(x, y, 100, 135, 80, 4, 0.03)) v = 0.7;
      for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = Math.round((v + (rand() - 0.5) * 0.02) * 65535);
    }
  }
  return { width, height, data };
}

/**
 * detectSegments' output on shapes(200, 160) as the detector found it before its passes were
 * made faster (x1, y1, x2, y2, 10 digits): a speed change must find the very same segments.
 */
const PINNED = [
  [158.1665774, 39.84070414, 180.1272892, 125.8477329],
  [28.6456964, 86.03962087, 105.5784617, 93.70729164],
  [34.42226098, 26.29499762, 111.3533219, 33.96454697],
  [99.82788851, 53.73320473, 156.7119819, 39.35729215],
  [99.80609502, 54.08471519, 119.0633816, 129.8510582],
  [27.28092279, 84.57670417, 30.79984594, 49.43029711],
  [34.49422886, 137.1473337, 165.5006877, 140.7887485],
  [34.49875245, 129.0786442, 156.5048245, 132.6749976],
  [169.1274596, 128.9814345, 180.1355413, 126.2990491],
  [21.48731905, 128.4789504, 32.51313559, 128.5137171],
  [168.4884037, 133.5184933, 179.5110281, 133.468133],
  [167.4884831, 141.5113418, 178.511143, 141.4921086],
  [107.3155664, 82.55438681, 108.4048771, 91.79468644],
  [32.50894209, 37.51041688, 32.50279153, 29.48964242],
  [111.4254522, 48.56323184, 111.6478066, 42.3759478],
  [19.45028232, 136.5287109, 25.56489442, 136.4808081],
  [112.4835764, 35.49598884, 112.5327695, 41.50416168],
];

describe('detectSegments', () => {
  it('finds the pinned segments of a generated image, in order, ends within 1e-6 relative', () => {
    const found = detectSegments(shapes(200, 160));
    assert.equal(found.length, PINNED.length);
    found.forEach((s, i) => {
      [s.x1, s.y1, s.x2, s.y2].forEach((v, k) => {
        const pinned = PINNED[i]![k]!;
        assert.ok(Math.abs(v - pinned) <= 1e-6 * Math.abs(pinned), `segment ${i} coordinate ${k}: ${v}, pinned ${pinned}`);
      });
      assert.ok(Math.abs(s.length - Math.hypot(s.x2 - s.x1, s.y2 - s.y1)) < 1e-9, `segment ${i} length`);
    });
  });

  it('puts the long edges of the light rectangle at its tilt', () => {
    // The rectangle turned by 0.1 rad (5.73°): its top and bottom edges are the two ~77 px segments near that angle.
    const long = detectSegments(shapes(200, 160)).filter((s) => s.length > 60 && Math.abs(s.angle - 5.73) < 1);
    assert.equal(long.length, 2);
    for (const s of long) assert.ok(Math.abs(s.angle - (0.1 * 180) / Math.PI) < 0.3, `angle ${s.angle}`);
  });
});
