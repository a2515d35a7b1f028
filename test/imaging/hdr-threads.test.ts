import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mergeBrackets } from '../../src/imaging/hdr/index.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { Image16 } from '../../src/imaging/types.js';
import { hdrThreads } from '../support/hdr-threads.js';
import { expose, hdrScene } from './hdr-scenes.js';

/** Hand-held: the frames shifted by a few pixels and one rolled, with sensor noise, so alignment, roll, edges and ghosts all run. */
function bracket(gains = [0.25, 1, 4]): Image16[] {
  const W = 420;
  const H = 280;
  const scene = hdrScene(W + 40, H + 40, 9);
  const random = seededRandom(3);
  return gains
    .map((gain, k) => [gain, 14 + ((k * 5) % 11), 23 - ((k * 3) % 7)])
    .map(([gain, left, top]) => {
      const frame = expose(scene, gain!, left!, top!, W, H);
      return { ...frame, data: frame.data.map((v) => Math.min(65535, Math.max(0, v + Math.round((random() - 0.5) * 900)))) };
    });
}

test('a merge shared over imaging threads equals the merge on one thread', async () => {
  const frames = bracket();
  const alone = await mergeBrackets(frames);
  const threads = await hdrThreads(3);
  try {
    // A loaded machine may leave the helpers no time to take an item in one run; a few runs give them a chance.
    for (let run = 0; run < 5; run++) {
      const shared = await threads[0]!.merge(frames);
      assert.deepEqual(shared.image.data, alone.image.data, 'same fused pixels');
      assert.deepEqual(shared.darkFrame.data, alone.darkFrame.data, 'same aligned dark frame');
      if ((await Promise.all(threads.slice(1).map((t) => t.itemsHelped()))).some((n) => n > 0)) break;
    }
    assert.ok(
      (await Promise.all(threads.slice(1).map((t) => t.itemsHelped()))).some((n) => n > 0),
      'the other threads took items',
    );
  } finally {
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
});

test('a 9-frame bracket, its frames weighed and blended on several threads, equals the one-thread merge to rounding', async () => {
  const frames = bracket([0.125, 0.2, 0.35, 0.6, 1, 1.7, 2.8, 4.8, 8]);
  const alone = await mergeBrackets(frames);
  const threads = await hdrThreads(3);
  try {
    const shared = await threads[0]!.merge(frames);
    let worst = 0;
    for (let i = 0; i < alone.image.data.length; i++) worst = Math.max(worst, Math.abs(shared.image.data[i]! - alone.image.data[i]!));
    assert.ok(worst <= 2, `largest difference ${worst} of 65535`);
  } finally {
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
});
