import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { recycleShared, shareJobs, sharedRoom8, sharedSamples } from '../../src/imaging/bands.js';
import { developFinished } from '../../src/imaging/develop.js';
import { testScene } from '../support/photos.js';
import { keystonedStreet } from '../support/street.js';

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
  recycleShared(given);
  const smaller = sharedSamples(8, pixels * 3 - 3 * 1800 * 100);
  assert.equal(smaller.buffer, given.buffer, 'a little smaller (a framed photo) takes it');
  assert.equal(smaller.length, pixels * 3 - 3 * 1800 * 100, 'as a view of its start');
  recycleShared(smaller);
  assert.notEqual(sharedSamples(8, (pixels * 3) / 2).buffer, given.buffer, 'half the size gets fresh memory');
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

test('every tool on, the framed photo of one serves the geometry of the next, which leaves nothing of it', async () => {
  const jpeg = (image: { width: number; height: number; data: Uint16Array }) =>
    sharp(Buffer.from(Uint8Array.from(image.data, (v) => v >> 8)), { raw: { width: image.width, height: image.height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
  const options = { perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 2, windowPull: true };
  const develop = (bytes: Buffer) => developFinished([{ fileName: 'p.jpg', bytes, rotate: 0 }], { options });
  // Keystoned by 6° and 5°: corrected frames of nearly one size, so the first's serves the second.
  const first = await jpeg(keystonedStreet(1800, 1200, 6, 1));
  const second = await jpeg(keystonedStreet(1800, 1200, 5, 2));
  const before = await develop(first);
  assert.ok(before.settings!.perspective.vertical !== 0, 'geometry ran');
  await develop(second);
  assert.ok((await develop(first)).bytes.equals(before.bytes), 'the second photo leaves nothing in the first');
});
