import { linearToSrgb } from '../../src/imaging/colour.js';
import { boxMean } from '../../src/imaging/filters/box.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';

/** Small generated scenes for the HDR tests: linear-light radiance, exposed and encoded like a camera would. */

export interface Radiance {
  width: number;
  height: number;
  /** Linear RGB, interleaved; 1 is what the 0 EV frame records as white. */
  data: Float32Array;
}

/**
 * Random texture in [-1, 1]: random values on a grid `cell` px apart (`cellY` down), bilinearly
 * interpolated (smooth) or held over each cell (sharp-edged blocks, like pebbles or tiles).
 */
function valueNoise(width: number, height: number, cell: number, smooth: boolean, random: () => number, cellY = cell): Float32Array {
  const gw = Math.ceil(width / cell) + 2;
  const gh = Math.ceil(height / cellY) + 2;
  const grid = Float32Array.from({ length: gw * gh }, () => random() * 2 - 1);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const v = y / cellY;
    const y0 = Math.floor(v);
    const fy = smooth ? v - y0 : 0;
    for (let x = 0; x < width; x++) {
      const u = x / cell;
      const x0 = Math.floor(u);
      const fx = smooth ? u - x0 : 0;
      const a = grid[y0 * gw + x0]! + (grid[y0 * gw + x0 + 1]! - grid[y0 * gw + x0]!) * fx;
      const b = grid[(y0 + 1) * gw + x0]! + (grid[(y0 + 1) * gw + x0 + 1]! - grid[(y0 + 1) * gw + x0]!) * fx;
      out[y * width + x] = a + (b - a) * fy;
    }
  }
  return out;
}

/**
 * A high-dynamic-range scene: the left third in deep shadow (radiance about 0.03), the right
 * third in bright light (about 3, clipped at 0 EV), a ramp between; textured everywhere (smooth
 * noise and sharp-edged 4 px blocks, ±40 %) with a few coloured rectangles, so both alignment
 * and fusion have detail to work with.
 */
export function hdrScene(width: number, height: number, seed = 1): Radiance {
  const random = seededRandom(seed);
  const coarse = valueNoise(width, height, 9, true, random);
  const fine = valueNoise(width, height, 4, false, random);
  const data = new Float32Array(width * height * 3);
  const rects = Array.from({ length: 12 }, () => ({
    x: random() * width,
    y: random() * height,
    w: 10 + random() * width * 0.15,
    h: 10 + random() * height * 0.15,
    tint: [0.4 + random() * 0.8, 0.4 + random() * 0.8, 0.4 + random() * 0.8],
  }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = Math.min(1, Math.max(0, (x / width - 1 / 3) * 3));
      const base = Math.exp(Math.log(0.03) + (Math.log(3) - Math.log(0.03)) * t);
      const p = y * width + x;
      const texture = 1 + 0.25 * coarse[p]! + 0.15 * fine[p]!;
      let tint = [1, 1, 1];
      for (const r of rects) if (x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h) tint = r.tint;
      for (let c = 0; c < 3; c++) data[p * 3 + c] = base * texture * tint[c]!;
    }
  }
  return { width, height, data };
}

/**
 * A streaky grey scene, like soft clouds: horizontal bands (smooth texture 480 px along, 10 px
 * down, ±50 %) with a faint fine texture (4 px, ±8 %), on a 6-stop illumination ramp left to
 * right. Halved, only the bands are left, which fit along x nearly as well at any shift.
 */
export function streakScene(width: number, height: number, seed = 1): Radiance {
  const random = seededRandom(seed);
  const bands = valueNoise(width, height, 480, true, random, 10);
  const fine = valueNoise(width, height, 4, true, random);
  const data = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x;
      const light = 0.08 * 2 ** ((6 * x) / width) * Math.max(0, 1 + 0.5 * bands[p]! + 0.08 * fine[p]!);
      for (let c = 0; c < 3; c++) data[p * 3 + c] = light;
    }
  }
  return { width, height, data };
}

/**
 * The scene with its texture smoothed away (three box passes of the given radius per channel,
 * nearly Gaussian): a low-texture scene of soft shapes on the illumination ramp, like mist or
 * a pastel sky.
 */
export function smoothScene(scene: Radiance, radius: number): Radiance {
  const { width, height } = scene;
  const data = new Float32Array(scene.data.length);
  const plane = new Float32Array(width * height);
  for (let c = 0; c < 3; c++) {
    for (let p = 0; p < plane.length; p++) plane[p] = scene.data[p * 3 + c]!;
    for (let pass = 0; pass < 3; pass++) boxMean(plane, width, height, radius, plane);
    for (let p = 0; p < plane.length; p++) data[p * 3 + c] = plane[p]!;
  }
  return { width, height, data };
}

function encode(linear: number): number {
  return Math.round(65535 * linearToSrgb(Math.min(1, Math.max(0, linear))));
}

/**
 * One exposure of the scene: radiance x gain, clipped, sRGB-encoded, cropped to width x height
 * starting at (left, top). Moving the crop between frames is a hand-held shift.
 */
export function expose(scene: Radiance, gain: number, left: number, top: number, width: number, height: number): Image16 {
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = ((y + top) * scene.width + x + left) * 3;
      const o = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) data[o + c] = encode(scene.data[s + c]! * gain);
    }
  }
  return { width, height, data };
}

/** Rec. 601 luma (0..1) of a rectangle, row-major. */
export function lumaBox(image: Image16, x0: number, y0: number, w: number, h: number): Float64Array {
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const j = ((y + y0) * image.width + x + x0) * 3;
      out[y * w + x] = (0.299 * image.data[j]! + 0.587 * image.data[j + 1]! + 0.114 * image.data[j + 2]!) / 65535;
    }
  }
  return out;
}

/** Local detail of a rectangle: standard deviation of luma minus its 5 x 5 box mean. */
export function detail(image: Image16, x0: number, y0: number, w: number, h: number): number {
  const l = lumaBox(image, x0, y0, w, h);
  let sum = 0;
  let sq = 0;
  let n = 0;
  for (let y = 2; y < h - 2; y++) {
    for (let x = 2; x < w - 2; x++) {
      let mean = 0;
      for (let v = -2; v <= 2; v++) for (let u = -2; u <= 2; u++) mean += l[(y + v) * w + x + u]!;
      const d = l[y * w + x]! - mean / 25;
      sum += d;
      sq += d * d;
      n++;
    }
  }
  return Math.sqrt(Math.max(0, sq / n - (sum / n) ** 2));
}

/**
 * A pastel scene: the scene's soft shapes (smoothScene) without its illumination ramp (each column
 * divided by its mean), their contrast scaled about 1 in linear light, on a ramp of `stops` stops
 * left to right around `level` (linear, 1 = white at 0 EV). Bright and flat, its +2 EV frame is
 * mostly white.
 */
export function pastelScene(scene: Radiance, radius: number, contrast: number, stops: number, level: number): Radiance {
  const smooth = smoothScene(scene, radius);
  const { width, height } = smooth;
  const data = new Float32Array(smooth.data.length);
  for (let x = 0; x < width; x++) {
    let column = 0;
    for (let y = 0; y < height; y++) for (let c = 0; c < 3; c++) column += smooth.data[(y * width + x) * 3 + c]!;
    column /= 3 * height;
    const ramp = level * 2 ** (stops * (x / width - 0.5));
    for (let y = 0; y < height; y++) {
      for (let c = 0, i = (y * width + x) * 3; c < 3; c++, i++) data[i] = ramp * (1 + contrast * (smooth.data[i]! / column - 1));
    }
  }
  return { width, height, data };
}
