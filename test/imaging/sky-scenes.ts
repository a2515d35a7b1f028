/** Generated scenes with known sky, shared by the sky tests. */
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';

/** Smooth 2-D noise from a few sines at odd angles: enough for clouds, independent of the library's noise. */
function cloudiness(x: number, y: number): number {
  return (Math.sin(x * 0.045 + y * 0.021) + Math.sin(x * 0.017 - y * 0.052 + 1.3) + 0.6 * Math.sin(x * 0.09 + y * 0.07 + 2.1)) / 2.6;
}

export interface Scene {
  image: Image16;
  /** 1 where the scene is sky. */
  truth: Uint8Array;
}

/**
 * An outdoor scene: a blue gradient sky with soft white clouds above a skyline of
 * buildings of different heights with a jagged (tree-line) stretch, textured ground and
 * facades with windows.
 */
export function outdoorScene(width: number, height: number, seed: number): Scene {
  const rand = seededRandom(seed);
  const skyline = new Float32Array(width);
  let x = 0;
  while (x < width) {
    const span = 20 + Math.floor(rand() * 50);
    const top = height * (0.35 + rand() * 0.3);
    const jagged = rand() < 0.35;
    for (let k = x; k < Math.min(width, x + span); k++) skyline[k] = jagged ? top + (rand() - 0.5) * 16 : top;
    x += span;
  }
  const data = new Uint16Array(width * height * 3);
  const truth = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let r: number, g: number, b: number;
      if (y < skyline[x]!) {
        truth[i] = 1;
        const t = y / height;
        r = 0.25 + 0.45 * t;
        g = 0.45 + 0.35 * t;
        b = 0.85 + 0.08 * t;
        const cloud = Math.max(0, cloudiness(x, y) - 0.25) * 1.6;
        r += (0.95 - r) * Math.min(1, cloud);
        g += (0.95 - g) * Math.min(1, cloud);
        b += (0.97 - b) * Math.min(1, cloud);
      } else {
        // Facades: warm stone with dark window grid; grain everywhere.
        const window = x % 14 < 6 && y % 18 < 8;
        const base = window ? 0.18 : 0.55;
        const grain = (rand() - 0.5) * 0.16;
        r = base + grain + 0.05;
        g = base * 0.85 + grain;
        b = base * 0.7 + grain;
      }
      data[i * 3] = Math.round(Math.min(1, Math.max(0, r)) * 65535);
      data[i * 3 + 1] = Math.round(Math.min(1, Math.max(0, g)) * 65535);
      data[i * 3 + 2] = Math.round(Math.min(1, Math.max(0, b)) * 65535);
    }
  }
  return { image: { width, height, data }, truth };
}

/**
 * An interior: a white ceiling across the top (lamp-warm or daylight-neutral), beige
 * walls, a textured wooden floor, a sofa, and optionally a blown-out window in the wall.
 */
export function indoorScene(width: number, height: number, seed: number, ceiling: 'warm' | 'neutral', window: boolean): Image16 {
  const rand = seededRandom(seed);
  const white = ceiling === 'warm' ? [0.84, 0.82, 0.77] : [0.84, 0.84, 0.85];
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      let rgb: [number, number, number];
      const grain = (rand() - 0.5) * 0.02;
      const shade = 0.1 * (1 - y / (0.22 * height));
      if (y < 0.22 * height) rgb = [white[0]! - shade, white[1]! - shade, white[2]! - shade];
      else if (y > 0.75 * height) rgb = [0.45 + (rand() - 0.5) * 0.2, 0.3 + (rand() - 0.5) * 0.15, 0.18];
      else if (window && x > 0.55 * width && x < 0.85 * width && y > 0.3 * height && y < 0.62 * height) rgb = [1, 1, 1];
      else if (x > 0.1 * width && x < 0.45 * width && y > 0.55 * height) rgb = [0.35, 0.38, 0.5];
      else rgb = [0.78, 0.72, 0.62];
      for (let c = 0; c < 3; c++) data[i + c] = Math.round(Math.min(1, Math.max(0, rgb[c]! + grain)) * 65535);
    }
  }
  return { width, height, data };
}

export function iou(mask: Float32Array, truth: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < truth.length; i++) {
    const a = mask[i]! >= 0.5;
    const b = truth[i] === 1;
    if (a && b) inter++;
    if (a || b) union++;
  }
  return inter / union;
}
