import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { spuriousChroma } from '../../bench/metrics/spurious-chroma.js';
import { mergeBrackets } from '../../src/imaging/hdr/index.js';
import { image16FromSharp, sharpFromImage16 } from '../../src/imaging/image16.js';
import type { Image16 } from '../../src/imaging/types.js';
import { expose, hdrScene } from './hdr-scenes.js';

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
