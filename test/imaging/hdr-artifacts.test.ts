import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { spuriousChroma } from '../../bench/metrics/spurious-chroma.js';
import { mergeBrackets } from '../../src/imaging/hdr/index.js';
import { image16FromSharp, sharpFromImage16 } from '../../src/imaging/image16.js';
import type { Image16 } from '../../src/imaging/types.js';
import { seededRandom } from '../../src/imaging/random.js';
import { expose, hdrScene, type Radiance } from './hdr-scenes.js';

const W = 320;
const H = 240;

/** A frame as a camera or an export stores it: 8-bit JPEG, colour at half resolution. */
async function viaJpeg(image: Image16, quality: number): Promise<Image16> {
  return image16FromSharp(sharp(await sharpFromImage16(image).toColourspace('srgb').jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer()));
}

test('spurious chroma: zero for a blend of the frames, high where a fusion paints a colour no frame shows', async () => {
  const scene = hdrScene(W, H, 5);
  const frames = [0.25, 1, 4].map((gain) => expose(scene, gain, 0, 0, W, H));
  assert.equal(spuriousChroma(frames, frames[1]!).share, 0, 'a frame itself');
  // Cyan 16 x 16 blocks, as a deghosting that replaced blocks through a wrong transfer made them.
  const painted = { ...frames[1]!, data: frames[1]!.data.slice() };
  for (let y = 64; y < 128; y++) for (let x = 96; x < 160; x++) painted.data[(y * W + x) * 3] = Math.round(painted.data[(y * W + x) * 3]! * 0.6);
  const measured = spuriousChroma(frames, painted);
  assert.ok(measured.share > 0.04, `share ${measured.share}`);
  assert.ok(measured.p999 > 0.03, `p99.9 ${measured.p999}`);
});

test('a static JPEG bracket is left alone by ghost suppression: no blocks replaced, no colour painted', async () => {
  const scene = hdrScene(W, H, 7);
  const frames = await Promise.all([0.25, 1, 4].map((gain) => viaJpeg(expose(scene, gain, 0, 0, W, H), 85)));
  const on = (await mergeBrackets(frames)).image;
  const off = (await mergeBrackets(frames, { deghost: false })).image;
  const diff = on.data.reduce((sum, v, i) => sum + Math.abs(v - off.data[i]!), 0) / on.data.length / 65535;
  assert.ok(diff < 0.001, `mean difference with and without ghost suppression ${diff}`);
  const spurious = { on: spuriousChroma(frames, on), off: spuriousChroma(frames, off) };
  assert.ok(spurious.on.share <= spurious.off.share + 0.002, `spurious chroma share ${spurious.on.share} with, ${spurious.off.share} without`);
});

/**
 * A sky: blue, brightening 6 stops from left to right, with soft white clouds, so that fusion
 * gives each region the brightness of a mix of frames that differs from every single frame's.
 */
function cloudySky(width: number, height: number): Radiance {
  const data = new Float32Array(width * height * 3);
  const clouds = Array.from({ length: 9 }, (_, i) => ({ x: ((i * 37) % 9) * (width / 9) + 15, y: ((i * 5) % 3) * (height / 3) + 35, r: 22 + ((i * 7) % 4) * 6 }));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const light = 2 ** (6 * (x / width) - 3);
      let cloud = 0;
      for (const c of clouds) cloud = Math.max(cloud, Math.exp(-((x - c.x) ** 2 + (y - c.y) ** 2) / (2 * c.r * c.r)));
      const sky = [0.12, 0.28, 0.75];
      for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = light * (sky[k]! * (1 - cloud) + 0.9 * cloud);
    }
  }
  return { width, height, data };
}

test('fusion keeps each colour at its saturation where it changes brightness, also with chroma noise in the bright frame', async () => {
  const scene = cloudySky(W, H);
  const frames = [0.25, 1, 4].map((gain) => expose(scene, gain, 0, 0, W, H));
  // Chroma noise in the bright frame (R and B pushed apart per 2 x 2 block, luma kept), as a phone's JPEG shows in shadows.
  const random = seededRandom(11);
  const bright = frames[2]!;
  for (let by = 0; by < H; by += 2) {
    for (let bx = 0; bx < W; bx += 2) {
      const d = Math.round((random() - 0.5) * 2400);
      for (let y = by; y < by + 2; y++) {
        for (let x = bx; x < bx + 2; x++) {
          const j = (y * W + x) * 3;
          bright.data[j] = Math.min(65535, Math.max(0, bright.data[j]! + d));
          bright.data[j + 2] = Math.min(65535, Math.max(0, bright.data[j + 2]! - Math.round((d * 0.299) / 0.114)));
        }
      }
    }
  }
  const jpegs = await Promise.all(frames.map((f) => viaJpeg(f, 90)));
  const fused = (await mergeBrackets(jpegs)).image;
  const spurious = spuriousChroma(jpegs, fused);
  // Colour differences blended as they are (not relative to luma): 8.3 % of blocks; relative: 2.0 %.
  assert.ok(spurious.share < 0.04, `share of blocks with a colour no frame shows: ${spurious.share}`);
});
