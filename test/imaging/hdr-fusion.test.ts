import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeBrackets } from '../../src/imaging/hdr/index.js';
import type { Image16 } from '../../src/imaging/types.js';
import { detail, expose, hdrScene, lumaBox } from './hdr-scenes.js';

const W = 300;
const H = 200;
const scene = hdrScene(W, H, 5);
const frames = [0.25, 1, 4].map((gain) => expose(scene, gain, 0, 0, W, H));
const SHADOWS = [8, 8, 80, H - 16] as const;
const HIGHLIGHTS = [W - 88, 8, 80, H - 16] as const;

/** Share of a region's pixels with luma within 1 % of black or white. */
function clipped(image: Image16, [x, y, w, h]: readonly [number, number, number, number]): number {
  const l = lumaBox(image, x, y, w, h);
  return l.filter((v) => v < 0.01 || v > 0.99).length / l.length;
}

test('fusion keeps detail in both shadows and highlights, better than any single exposure', async () => {
  const { image, referenceIndex, darkestIndex } = await mergeBrackets(frames);
  assert.equal(referenceIndex, 1);
  assert.equal(darkestIndex, 0);
  const balanced = (im: Image16) => Math.min(detail(im, ...SHADOWS), detail(im, ...HIGHLIGHTS));
  const fused = balanced(image);
  for (const [k, frame] of frames.entries()) {
    assert.ok(fused > 1.2 * balanced(frame), `fused ${fused.toFixed(4)} vs frame ${k} ${balanced(frame).toFixed(4)} (detail in its weaker region)`);
  }
  // The 0 and +2 EV frames blow the highlights out; the fusion must not.
  assert.ok(clipped(frames[1]!, HIGHLIGHTS) > 0.5 && clipped(frames[2]!, HIGHLIGHTS) > 0.5);
  assert.ok(clipped(image, HIGHLIGHTS) < 0.02, `fused highlights clipped: ${clipped(image, HIGHLIGHTS)}`);
});

test('identical frames fuse to the same image', async () => {
  const same = [frames[1]!, frames[1]!, frames[1]!];
  const { image } = await mergeBrackets(same, { deghost: false });
  let worst = 0;
  let sum = 0;
  for (let i = 0; i < image.data.length; i++) {
    const d = Math.abs(image.data[i]! - frames[1]!.data[i]!) / 65535;
    worst = Math.max(worst, d);
    sum += d;
  }
  // Luma is blended at full size and colour at half size, so only colour edges may move a little.
  assert.ok(sum / image.data.length < 0.004, `mean difference ${sum / image.data.length}`);
  assert.ok(worst < 0.25, `largest difference ${worst}`);
});

test('output is downscaled to outputLongEdge and never enlarged', async () => {
  const small = await mergeBrackets(frames, { outputLongEdge: 150 });
  assert.deepEqual([small.image.width, small.image.height], [150, 100]);
  assert.equal(small.image.data.length, 150 * 100 * 3);
  const same = await mergeBrackets(frames, { outputLongEdge: 5000 });
  assert.deepEqual([same.image.width, same.image.height], [W, H]);
});

test('mergeBrackets rejects bad input with precise errors', async () => {
  await assert.rejects(mergeBrackets(frames.slice(0, 2)), /3 to 9 Image16 for frames but received array of length 2/);
  await assert.rejects(mergeBrackets([...frames, ...frames, ...frames, frames[0]!]), /for frames but received array of length 10/);
  await assert.rejects(mergeBrackets([frames[0]!, frames[1]!, { width: W, height: H, data: new Uint16Array(5) }]), /180000 \(width x height x 3\) for frames\[2\]\.data\.length but received number 5/);
  await assert.rejects(mergeBrackets([frames[0]!, frames[1]!, expose(scene, 1, 0, 0, 100, 100)]), /300x200 \(the size of frames\[0\]\) for frames\[2\] size but received "100x100"/);
  await assert.rejects(mergeBrackets(frames, { outputLongEdge: 10.5 }), /integer between 16 and 65535 for outputLongEdge but received number 10.5/);
  await assert.rejects(mergeBrackets(frames, { referenceIndex: 3 }), /between 0 and 2 for referenceIndex but received number 3/);
  await assert.rejects(mergeBrackets(frames, { deghost: 'yes' as unknown as boolean }), /a boolean for deghost but received "yes"/);
});

test('referenceIndex chooses the frame the result is registered to', async () => {
  const { referenceIndex, offsets } = await mergeBrackets(frames, { referenceIndex: 2 });
  assert.equal(referenceIndex, 2);
  assert.deepEqual(offsets[2], { dx: 0, dy: 0 });
});
