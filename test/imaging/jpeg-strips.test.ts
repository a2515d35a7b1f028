import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { encodeJpeg } from '../../src/imaging/encode.js';
import { encodeBaseline, encodeInStrips, joinStrips, stripRows } from '../../src/imaging/jpeg-strips.js';
import { emptyMetadata, readMetadata } from '../../src/imaging/metadata.js';
import { seededRandom } from '../../src/imaging/random.js';

/** Gradients with noise on top: smooth areas and busy ones, so the entropy-coded data holds every kind of byte (0xFF stuffed among them). */
function scene(width: number, height: number, seed = 1): Uint8Array {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const noise = x > width / 3 ? (random() - 0.5) * 160 : 0;
      data[i] = (x * 255) / width + noise;
      data[i + 1] = (y * 255) / height - noise;
      data[i + 2] = ((x + y) * 3) % 256;
    }
  }
  return data;
}

const pixels = (jpeg: Buffer) => sharp(jpeg).raw().toBuffer();

/** The markers of a JPEG in order (entropy-coded 0xFF 0x00 pairs and fill bytes are not markers), with each segment's payload. */
function markers(jpeg: Buffer): { marker: number; payload: Buffer }[] {
  const found: { marker: number; payload: Buffer }[] = [];
  let at = 0;
  let scan = false;
  while (at < jpeg.length - 1) {
    if (jpeg[at] !== 0xff || jpeg[at + 1] === 0 || jpeg[at + 1] === 0xff) {
      assert.ok(scan, `a stray byte at ${at} outside the scan`);
      at++;
      continue;
    }
    const marker = jpeg[at + 1]!;
    const standalone = marker === 0xd8 || marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7);
    const length = standalone ? 0 : jpeg.readUInt16BE(at + 2);
    found.push({ marker, payload: jpeg.subarray(at + 4, at + 2 + length) });
    if (marker === 0xda) scan = true;
    at += 2 + length;
  }
  return found;
}

test('a JPEG in strips decodes to the very pixels of one encode: sizes off the 16-pixel MCU grid, many strips', async () => {
  for (const [width, height, strips] of [
    [160, 100, 2],
    [333, 50, 4],
    [17, 33, 2],
    [64, 64, 2],
    [250, 500, 3],
    [40, 170, 11],
  ] as const) {
    const data = scene(width, height, width);
    const rows = stripRows(width, height, strips);
    assert.ok(rows !== null && rows % 16 === 0, `${width}×${height}: whole MCU rows`);
    for (const quality of [50, 92]) {
      const serial = await encodeBaseline(data, width, height, quality);
      const joined = await encodeInStrips(data, width, height, quality, rows);
      assert.ok(!joined.equals(serial), 'the files differ (restart markers)');
      assert.ok((await pixels(joined)).equals(await pixels(serial)), `${width}×${height} in ${strips} strips at q${quality}: the same pixels`);
    }
  }
});

test('a JPEG in strips has the first strip headers with the whole height, a restart interval of one strip, RST0..7 in turn between strips', async () => {
  const [width, height] = [40, 170];
  const rows = stripRows(width, height, 11)!;
  const jpeg = await encodeInStrips(scene(width, height), width, height, 90, rows);
  const found = markers(jpeg);
  const names = found.map((m) => m.marker);
  assert.equal(names[0], 0xd8);
  assert.equal(names.at(-1), 0xd9);
  const sof = found.find((m) => m.marker === 0xc0)!;
  assert.deepEqual([sof.payload.readUInt16BE(1), sof.payload.readUInt16BE(3)], [height, width]);
  const dri = found.filter((m) => m.marker === 0xdd);
  assert.equal(dri.length, 1);
  // 16 rows a strip (11 strips asked of 11 MCU rows), 3 MCUs across 40 pixels.
  assert.equal(rows, 16);
  assert.equal(dri[0]!.payload.readUInt16BE(0), 3);
  assert.ok(names.indexOf(0xdd) < names.indexOf(0xda), 'DRI before the scan');
  assert.equal(names.filter((m) => m === 0xda).length, 1, 'one scan');
  const restarts = names.filter((m) => m >= 0xd0 && m <= 0xd7);
  assert.deepEqual(
    restarts,
    [0, 1, 2, 3, 4, 5, 6, 7, 0, 1].map((k) => 0xd0 + k),
  );
  assert.ok(names.indexOf(0xda) < names.indexOf(0xd0), 'restarts inside the scan');
});

test('stripRows: whole MCU rows, at most 65535 MCUs a strip (more strips than asked if need be), null for one strip', () => {
  assert.equal(stripRows(5184, 3456, 2), 1728);
  assert.equal(stripRows(5184, 3456, 3), 1152);
  assert.equal(stripRows(100, 100, 2), 64);
  // 512 MCUs a row: 127 rows of MCUs a strip at most, so a 45 MP photo takes 3 strips, not 2.
  assert.equal(stripRows(8192, 5464, 2), 127 * 16);
  assert.equal(stripRows(100, 16, 2), null);
  assert.equal(stripRows(5184, 3456, 1), null);
  assert.equal(stripRows(100, 65536, 2), null, 'too tall for a JPEG: left to one encode to refuse');
  assert.equal(stripRows(100, 65535, 2), 32768);
});

test('joinStrips refuses strips it cannot join: other tables, or a strip off the MCU grid', async () => {
  const data = scene(64, 64);
  const top = data.subarray(0, 64 * 32 * 3);
  const bottom = data.subarray(64 * 32 * 3);
  await assert.doesNotReject(async () => joinStrips([await encodeBaseline(top, 64, 32, 80), await encodeBaseline(bottom, 64, 32, 80)]));
  await assert.rejects(async () => joinStrips([await encodeBaseline(top, 64, 32, 80), await encodeBaseline(bottom, 64, 32, 70)]), /different headers/);
  const odd = data.subarray(0, 64 * 24 * 3);
  await assert.rejects(async () => joinStrips([await encodeBaseline(odd, 64, 24, 80), await encodeBaseline(bottom, 64, 32, 80)]), /restart intervals/);
});

test('encodeJpeg of a large image is encoded in strips on a machine of several cores, with its EXIF and profile, to the pixels of one encode', async () => {
  const [width, height] = [2400, 1700];
  const data = scene(width, height);
  const jpeg = await encodeJpeg({ width, height, data }, { quality: 88, metadata: { ...emptyMetadata(), make: 'FUJIFILM' } });
  const names = markers(jpeg).map((m) => m.marker);
  assert.equal(names.includes(0xdd), os.availableParallelism() > 1, 'a restart interval where there are cores to share the encode');
  assert.ok((await pixels(jpeg)).equals(await pixels(await encodeBaseline(data, width, height, 88))));
  const meta = await readMetadata(jpeg);
  assert.equal(meta.make, 'FUJIFILM');
  assert.ok(meta.icc && meta.icc.length > 0, 'an ICC profile');
});
