import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quantilesIn } from '../../src/imaging/hdr/luma.js';
import { arena, reserve, toolKernels } from '../../src/imaging/kernels.js';

/** A reproducible pseudo-random sequence in 0..1. */
function randoms(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

test('mismatchCounts counts the disagreeing considered bits at every move, whatever the row length in words', () => {
  const k = toolKernels();
  const reach = 2;
  const side = 2 * reach + 1;
  // Row lengths below, at and past the four words the kernel takes at a time, with and without a remainder.
  for (const words of [1, 3, 4, 5, 8, 11]) {
    const height = 7;
    const movWords = words + 1;
    const movHeight = height + 2 * reach;
    const next = randoms(words);
    const word = () => Math.floor(next() * 2 ** 32) >>> 0;
    // above, then considered, for each bitmap.
    const ref = Uint32Array.from({ length: 2 * words * height }, word);
    const mov = Uint32Array.from({ length: 2 * movWords * movHeight }, word);
    const l = arena({ ref: 4 * ref.length, mov: 4 * mov.length, scratch: 8 * words * movHeight, counts: 4 * side * side });
    reserve(k, l.end);
    new Uint32Array(k.memory.buffer, l.ref, ref.length).set(ref);
    new Uint32Array(k.memory.buffer, l.mov, mov.length).set(mov);
    k.mismatchCounts(l.ref, words, height, l.mov, movWords, reach, l.scratch, l.counts);
    const counts = Array.from(new Int32Array(k.memory.buffer, l.counts, side * side));
    const bit = (bits: Uint32Array, plane: number, rowWords: number, x: number, y: number) => (bits[plane + y * rowWords + (x >> 5)]! >>> (x & 31)) & 1;
    const movPlane = movWords * movHeight;
    const refPlane = words * height;
    const expected = counts.map((_, i) => {
      const sx = (i % side) - reach;
      const sy = Math.floor(i / side) - reach;
      let n = 0;
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < 32 * words; x++) {
          const mx = x + reach + sx;
          const my = y + reach + sy;
          const inside = mx < 32 * movWords;
          const movAbove = inside ? bit(mov, 0, movWords, mx, my) : 0;
          const movConsidered = inside ? bit(mov, movPlane, movWords, mx, my) : 0;
          n += (bit(ref, 0, words, x, y) ^ movAbove) & bit(ref, refPlane, words, x, y) & movConsidered;
        }
      }
      return n;
    });
    assert.deepEqual(counts, expected, `${words} words a row`);
  }
});

test('quantilesIn reads ascending fractions off one histogram as a sorted sample would give them', () => {
  const next = randoms(7);
  // Boxes of more than the 65536 pixels read at most: every second, then every third pixel of every second, third row.
  const cases = [
    { width: 320, height: 300, box: { x: 10, y: 5, width: 300, height: 290 }, step: 2 },
    { width: 611, height: 457, box: { x: 3, y: 2, width: 601, height: 451 }, step: 3 },
  ];
  for (const { width, height, box, step } of cases) {
    // Values bunched towards black, as a dark frame's luma is, plus a clipped patch at 1.
    const data = Float32Array.from({ length: width * height }, (_, i) => (i % width > width - 30 ? 1 : next() ** 3));
    const fractions = [0, 0.25, 0.5, 0.75, 0.99, 1] as const;
    const got = quantilesIn({ width, height, data }, box, fractions);
    const sample: number[] = [];
    for (let y = box.y; y < box.y + box.height; y += step) for (let x = box.x; x < box.x + box.width; x += step) sample.push(data[y * width + x]!);
    sample.sort((a, b) => a - b);
    fractions.forEach((fraction, i) => {
      const value = sample[Math.max(0, Math.ceil(fraction * sample.length) - 1)]!;
      assert.ok(Math.abs(got[i]! - value) <= 1 / 4096, `${box.width}x${box.height} fraction ${fraction}: ${got[i]} vs ${value}`);
    });
  }
});
