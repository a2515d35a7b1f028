/**
 * A street photo for the options that change geometry and sky: a stone facade with
 * pillars and rows of windows under a flat, overcast (near-white) sky, taken by a camera
 * pitched up, so that its verticals converge towards the top as in any real-estate shot.
 */
import { rotationHomography } from '../../src/imaging/geometry/camera.js';
import { planForHomography } from '../../src/imaging/geometry/frame.js';
import { resample } from '../../src/imaging/geometry/warp.js';
import { rotationX } from '../../src/imaging/matrix.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';

/** Rows above this fraction of the height are sky in the scene before the camera's tilt. */
export const SKY_FRACTION = 0.3;

function facadeUnderSky(width: number, height: number, seed: number): Image16 {
  const rand = seededRandom(seed);
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      const grain = (rand() - 0.5) * 0.02;
      let rgb: [number, number, number];
      if (v < SKY_FRACTION) rgb = [0.93, 0.94, 0.95];
      else if (v > 0.92) rgb = [0.35, 0.35, 0.35];
      else if ((u * 8) % 1 < 0.07) rgb = [0.4, 0.36, 0.32];
      else if ((u * 8) % 1 > 0.25 && (u * 8) % 1 < 0.8 && ((v - SKY_FRACTION) * 7) % 1 > 0.3 && ((v - SKY_FRACTION) * 7) % 1 < 0.85) rgb = [0.15, 0.18, 0.22];
      else rgb = [0.78, 0.7, 0.58];
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = Math.round(Math.min(1, Math.max(0, rgb[c]! + grain)) * 65535);
    }
  }
  return { width, height, data };
}

/** The scene as a camera pitched up by `pitch` degrees (focal length 0.8 × the long edge) takes it, cropped clean. */
export function keystonedStreet(width: number, height: number, pitch = 6, seed = 1): Image16 {
  const scene = facadeUnderSky(width, height, seed);
  const toCanvas = rotationHomography(width, height, rotationX((-pitch * Math.PI) / 180), 0.8 * Math.max(width, height));
  const plan = planForHomography(width, height, toCanvas, null);
  return resample(scene, plan.toSource, plan.width, plan.height);
}
