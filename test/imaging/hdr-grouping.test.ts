import assert from 'node:assert/strict';
import { test } from 'node:test';
import { darkestFrame, exposureOrder, groupBrackets, middleFrame, type BracketCandidate } from '../../src/imaging/hdr/index.js';
import { emptyMetadata } from '../../src/imaging/metadata.js';
import type { PhotoMetadata } from '../../src/imaging/types.js';

const NONE: PhotoMetadata = emptyMetadata();

/** A frame taken `seconds` after 14:00:00 on 2024-05-01 at the given bias (the exposure time follows it from 1/125 s). */
function shot(fileName: string, seconds: number | null, bias: number | null, extra: Partial<PhotoMetadata> = {}): BracketCandidate {
  const time = seconds === null ? null : new Date(Date.UTC(2024, 4, 1, 14, 0, 0) + seconds * 1000).toISOString().slice(0, 23);
  return {
    fileName,
    metadata: { ...NONE, make: 'Canon', model: 'EOS R6', captureTime: time, exposureBias: bias, exposureTime: bias === null ? null : 2 ** bias / 125, fNumber: 8, iso: 100, ...extra },
  };
}

/** Fisher-Yates with a fixed sequence, so the input order is scrambled but the test repeatable. */
function scrambled<T>(items: T[]): T[] {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

test('brackets are grouped by capture time and changing exposure, whatever the input order', () => {
  const frames = [
    shot('IMG_0001.CR3', 0, 0),
    shot('IMG_0002.CR3', 0.4, -2),
    shot('IMG_0003.CR3', 0.8, 2),
    // The photographer moves to the next room.
    shot('IMG_0004.CR3', 40, 0),
    shot('IMG_0005.CR3', 40.3, -1),
    shot('IMG_0006.CR3', 40.6, 1),
    shot('IMG_0007.CR3', 41, -2),
    shot('IMG_0008.CR3', 41.2, 2),
    // A single frame, then a burst that repeats its bias pattern without a pause.
    shot('IMG_0009.CR3', 90, 0),
    shot('IMG_0010.CR3', 120, 0),
    shot('IMG_0011.CR3', 120.5, -2),
    shot('IMG_0012.CR3', 121, 2),
    shot('IMG_0013.CR3', 121.5, 0),
    shot('IMG_0014.CR3', 122, -2),
    shot('IMG_0015.CR3', 122.5, 2),
  ];
  assert.deepEqual(groupBrackets(scrambled(frames)), [
    ['IMG_0001.CR3', 'IMG_0002.CR3', 'IMG_0003.CR3'],
    ['IMG_0004.CR3', 'IMG_0005.CR3', 'IMG_0006.CR3', 'IMG_0007.CR3', 'IMG_0008.CR3'],
    ['IMG_0009.CR3'],
    ['IMG_0010.CR3', 'IMG_0011.CR3', 'IMG_0012.CR3'],
    ['IMG_0013.CR3', 'IMG_0014.CR3', 'IMG_0015.CR3'],
  ]);
});

test('two cameras shooting at once are grouped apart although their frames interleave in time', () => {
  const a = (name: string, t: number, bias: number) => shot(name, t, bias);
  const b = (name: string, t: number, bias: number) => shot(name, t, bias, { make: 'Sony', model: 'ILCE-7M4' });
  const frames = [a('A1.jpg', 0, 0), b('B1.jpg', 0.2, 0), a('A2.jpg', 0.5, -2), b('B2.jpg', 0.7, -2), a('A3.jpg', 1, 2), b('B3.jpg', 1.2, 2)];
  assert.deepEqual(groupBrackets(frames), [
    ['A1.jpg', 'A2.jpg', 'A3.jpg'],
    ['B1.jpg', 'B2.jpg', 'B3.jpg'],
  ]);
});

test('a pause longer than maxGapSeconds splits a run; long exposures count towards the gap', () => {
  const frames = [shot('a.jpg', 0, 0), shot('b.jpg', 2, -2), shot('c.jpg', 4, 2)];
  assert.deepEqual(groupBrackets(frames), [['a.jpg', 'b.jpg', 'c.jpg']]);
  assert.deepEqual(groupBrackets(frames, { maxGapSeconds: 1 }), [['a.jpg'], ['b.jpg'], ['c.jpg']]);
  // A 6 s exposure ends 0.5 s before the next frame starts.
  const night = [shot('n1.dng', 0, 0, { exposureTime: 1 }), shot('n2.dng', 1.5, 2, { exposureTime: 6 }), shot('n3.dng', 8, -2, { exposureTime: 0.25 })];
  assert.deepEqual(groupBrackets(night), [['n1.dng', 'n2.dng', 'n3.dng']]);
});

test('missing metadata: file-name order stands in for time, unknown exposures are never grouped', () => {
  const noTime = [shot('DSC_10.jpg', null, 2), shot('DSC_8.jpg', null, 0), shot('DSC_9.jpg', null, -2), shot('DSC_11.jpg', null, 0)];
  // Numbers in names compare as numbers: 8, 9, 10, 11; 11 repeats 8's exposure, so it starts anew.
  assert.deepEqual(groupBrackets(noTime), [['DSC_8.jpg', 'DSC_9.jpg', 'DSC_10.jpg'], ['DSC_11.jpg']]);
  const biasOnly = [0, -2, 2].map((bias, i) => shot(`p${i}.jpg`, i * 0.5, bias, { exposureTime: null }));
  assert.deepEqual(groupBrackets(biasOnly), [['p0.jpg', 'p1.jpg', 'p2.jpg']]);
  const nothing = ['x1.jpg', 'x2.jpg', 'x3.jpg'].map((name) => ({ fileName: name, metadata: NONE }));
  assert.deepEqual(groupBrackets(nothing), [['x1.jpg'], ['x2.jpg'], ['x3.jpg']]);
  assert.deepEqual(groupBrackets([]), []);
});

test('runs shorter than minFrames become single frames', () => {
  const pair = [shot('a.jpg', 0, 0), shot('b.jpg', 0.5, -2)];
  assert.deepEqual(groupBrackets(pair), [['a.jpg'], ['b.jpg']]);
  assert.deepEqual(groupBrackets(pair, { minFrames: 2 }), [['a.jpg', 'b.jpg']]);
});

test('middle and darkest frame of a group by exposure', () => {
  const group = [shot('0.jpg', 0, 0), shot('m2.jpg', 0.3, -2), shot('p2.jpg', 0.6, 2), shot('m1.jpg', 0.9, -1), shot('p1.jpg', 1.2, 1)];
  assert.deepEqual(
    exposureOrder(group).map((f) => f.fileName),
    ['m2.jpg', 'm1.jpg', '0.jpg', 'p1.jpg', 'p2.jpg'],
  );
  assert.equal(middleFrame(group), '0.jpg');
  assert.equal(darkestFrame(group), 'm2.jpg');
  // Manual-mode brackets: the bias stays 0, the exposure time tells.
  const manual = [1 / 60, 1 / 250, 1 / 15].map((t, i) => shot(`t${i}.jpg`, i, 0, { exposureTime: t }));
  assert.equal(middleFrame(manual), 't0.jpg');
  assert.equal(darkestFrame(manual), 't1.jpg');
  // Nothing known: capture order.
  const blind = ['b.jpg', 'a.jpg', 'c.jpg'].map((name) => ({ fileName: name, metadata: NONE }));
  assert.equal(middleFrame(blind), 'b.jpg');
  assert.equal(darkestFrame(blind), 'a.jpg');
});

test('groupBrackets rejects bad input with precise errors', () => {
  assert.throws(() => groupBrackets('x' as unknown as BracketCandidate[]), /array of \{ fileName, metadata \} for frames/);
  assert.throws(() => groupBrackets([{ fileName: '', metadata: NONE }]), /non-empty string for frames\[0\]\.fileName/);
  assert.throws(() => groupBrackets([{ fileName: 'a', metadata: null as unknown as PhotoMetadata }]), /PhotoMetadata object for frames\[0\]\.metadata/);
  assert.throws(() => groupBrackets([shot('a', 0, 0), shot('a', 1, 1)]), /file name not given before for frames\[1\]\.fileName but received "a"/);
  assert.throws(() => groupBrackets([], { maxGapSeconds: -1 }), /number >= 0 for maxGapSeconds/);
  assert.throws(() => groupBrackets([], { minFrames: 0 }), /between 1 and 9 for minFrames/);
});
