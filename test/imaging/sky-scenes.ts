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
 * walls, a textured wooden floor, a sofa, and optionally a blown-out window in the wall
 * (true) or in the wall reaching the right edge of the frame ('side').
 */
export function indoorScene(width: number, height: number, seed: number, ceiling: 'warm' | 'neutral', window: boolean | 'side'): Image16 {
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
      else if (window && x > (window === 'side' ? 0.75 : 0.55) * width && x < (window === 'side' ? width : 0.85 * width) && y > 0.3 * height && y < 0.62 * height) rgb = [1, 1, 1];
      else if (x > 0.1 * width && x < 0.45 * width && y > 0.55 * height) rgb = [0.35, 0.38, 0.5];
      else rgb = [0.78, 0.72, 0.62];
      for (let c = 0; c < 3; c++) data[i + c] = Math.round(Math.min(1, Math.max(0, rgb[c]! + grain)) * 65535);
    }
  }
  return { width, height, data };
}

/** Encoded RGB (clamped to 0..1 when drawn) and 1 where the pixel is sky, 0 where not. */
type ScenePixel = [number, number, number, number];

/** A scene drawn pixel by pixel, row by row (so seeded grain is reproducible). */
function drawScene(width: number, height: number, pixel: (x: number, y: number) => ScenePixel): Scene {
  const data = new Uint16Array(width * height * 3);
  const truth = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const [r, g, b, sky] = pixel(x, y);
      data[i * 3] = Math.round(Math.min(1, Math.max(0, r)) * 65535);
      data[i * 3 + 1] = Math.round(Math.min(1, Math.max(0, g)) * 65535);
      data[i * 3 + 2] = Math.round(Math.min(1, Math.max(0, b)) * 65535);
      truth[i] = sky;
    }
  }
  return { image: { width, height, data }, truth };
}

/** Facades below a skyline: warm stone with a dark window grid and grain, as in outdoorScene. */
function facade(x: number, y: number, rand: () => number): ScenePixel {
  const base = x % 14 < 6 && y % 18 < 8 ? 0.18 : 0.55;
  const grain = (rand() - 0.5) * 0.16;
  return [base + grain + 0.05, base * 0.85 + grain, base * 0.7 + grain, 0];
}

/**
 * A walkway under a concrete overhang whose underside slopes up towards the right: an
 * overcast sky (near-white, slightly cool) is seen only past its edge, between it and the
 * rooftops, reaching the right edge of the frame, never the top. A shaded shopfront
 * stands under the overhang on the left.
 */
export function overhangScene(width: number, height: number, seed: number): Scene {
  const rand = seededRandom(seed);
  return drawScene(width, height, (x, y) => {
    const t = y / height;
    if (y < height * (0.42 - (0.3 * x) / width)) {
      // Board-marked concrete: neutral grey, darker beams every 24 rows.
      const grey = 0.62 - (y % 24 < 3 ? 0.12 : 0) - 0.1 * t + (rand() - 0.5) * 0.03;
      return [grey, grey, grey + 0.01, 0];
    }
    if (x < 0.62 * width) {
      const shade = (x % 60 < 12 ? 0.5 : 0.3) + (rand() - 0.5) * 0.14;
      return [shade + 0.03, shade, shade - 0.03, 0];
    }
    if (y < height * (x % 90 < 40 ? 0.46 : 0.52)) return [0.88 + 0.05 * t, 0.91 + 0.04 * t, 0.94 + 0.02 * t, 1];
    return facade(x, y, rand);
  });
}

/** Linear interpolation between colours a and b. */
function mix(a: readonly number[], b: readonly number[], t: number): [number, number, number] {
  return [a[0]! + (b[0]! - a[0]!) * t, a[1]! + (b[1]! - a[1]!) * t, a[2]! + (b[2]! - a[2]!) * t];
}

/**
 * A sunset seen through a tree: a dusk-blue zenith turning violet, pink, then orange at
 * the horizon (at 72 % of the height), over a dark hedge. A canopy hangs across the top:
 * a bough across the whole width at about a quarter of the height, so the warm sky below
 * it never touches the blue above, and twigs, 1-3 px wide, crossing the sky around it.
 */
export function sunsetScene(width: number, height: number, seed: number): Scene {
  const rand = seededRandom(seed);
  const horizon = 0.72 * height;
  const branch = new Uint8Array(width * height);
  const paint = (cx: number, cy: number, radius: number) => {
    for (let y = Math.max(0, Math.floor(cy - radius)); y <= Math.min(height - 1, Math.ceil(cy + radius)); y++) {
      for (let x = Math.max(0, Math.floor(cx - radius)); x <= Math.min(width - 1, Math.ceil(cx + radius)); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= radius * radius) branch[y * width + x] = 1;
      }
    }
  };
  for (let x = 0; x < width; x++) paint(x, height * (0.24 + 0.03 * Math.sin(x * 0.03)), 2.5);
  for (let twig = 0; twig < 70; twig++) {
    let x = rand() * width;
    let y = height * (0.02 + rand() * 0.36);
    const angle = rand() * Math.PI;
    const length = 15 + rand() * 40;
    const radius = 0.6 + rand() * 0.9;
    for (let step = 0; step < length; step++) {
      paint(x, y, radius);
      x += Math.cos(angle) + (rand() - 0.5) * 0.6;
      y += Math.sin(angle) * 0.6 + (rand() - 0.5) * 0.6;
    }
  }
  const zenith = [0.2, 0.22, 0.45];
  const violet = [0.5, 0.38, 0.56];
  const pink = [0.8, 0.5, 0.5];
  const orange = [0.98, 0.66, 0.36];
  return drawScene(width, height, (x, y) => {
    if (y >= horizon + 5 * Math.sin(x * 0.11)) {
      const leaf = 0.12 + rand() * 0.16;
      return [leaf * 0.8, leaf, leaf * 0.6, 0];
    }
    if (branch[y * width + x]) {
      const bark = 0.1 + (rand() - 0.5) * 0.06;
      return [bark, bark * 0.9, bark * 0.8, 0];
    }
    const t = y / horizon;
    return [...(t < 0.35 ? mix(zenith, violet, t / 0.35) : t < 0.7 ? mix(violet, pink, (t - 0.35) / 0.35) : mix(pink, orange, (t - 0.7) / 0.3)), 1];
  });
}

/**
 * A blue sky over facades on the left and, on the right, a smooth sunlit peach wall that
 * rises higher and reaches the right edge: warm, large, high and bright, but flat in
 * colour, so it is no sunset.
 */
export function warmWallScene(width: number, height: number, seed: number): Scene {
  const rand = seededRandom(seed);
  return drawScene(width, height, (x, y) => {
    const t = y / height;
    const wall = x >= 0.6 * width;
    if (y < height * (wall ? 0.22 : 0.4)) return [0.25 + 0.45 * t, 0.45 + 0.35 * t, 0.85 + 0.08 * t, 1];
    if (wall) {
      const grain = (rand() - 0.5) * 0.02;
      return [0.93 + grain, 0.72 + grain, 0.56 + grain, 0];
    }
    return facade(x, y, rand);
  });
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
