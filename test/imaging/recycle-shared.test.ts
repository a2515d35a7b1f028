import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { recycleShared, shareJobs, sharedRoom8, sharedSamples } from '../../src/imaging/bands.js';
import { developFinished } from '../../src/imaging/develop.js';
import { testScene } from '../support/photos.js';

// This thread shares its jobs as an imaging thread of the service does.
shareJobs();

test('shared pixel buffers given back serve the next room or samples of their size, and only those', () => {
  const pixels = 1800 * 1200;
  const given = sharedSamples(8, pixels * 3);
  recycleShared(given, given);
  const room = sharedRoom8(pixels);
  assert.equal(room?.buffer, given.buffer, "the decode's room is the spare");
  assert.notEqual(sharedSamples(8, pixels * 3).buffer, given.buffer, 'a spare serves once');
  recycleShared(given);
  assert.notEqual(sharedSamples(16, pixels * 3).buffer, given.buffer, 'another size gets fresh memory');
  assert.equal(sharedSamples(16, (pixels * 3) / 2).buffer, given.buffer, 'the same size in bytes takes it');
});

test('photos developed one after another on recycled memory come out as they do on fresh memory', async () => {
  const jpeg = async (seed: number) => {
    const scene = testScene(1800, 1200, seed);
    return sharp(Buffer.from(Uint8Array.from(scene.data, (v) => v >> 8)), { raw: { width: 1800, height: 1200, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
  };
  const develop = async (bytes: Buffer) => (await developFinished([{ fileName: 'p.jpg', bytes, rotate: 0 }], { options: {} })).bytes;
  const first = await jpeg(1);
  const second = await jpeg(2);
  const before = await develop(first);
  await develop(second);
  assert.ok((await develop(first)).equals(before), 'the second photo leaves nothing in the first');
});
