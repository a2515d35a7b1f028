import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { decodeImage } from '../../src/imaging/decode.js';
import { readMetadata } from '../../src/imaging/metadata.js';
import type { Image16 } from '../../src/imaging/types.js';

const width = 120;
const height = 80;

/** Four coloured quadrants, so any rotation or mirror shows. */
const quadrants = [
  [220, 40, 40],
  [40, 200, 60],
  [40, 60, 220],
  [230, 220, 50],
] as const;

function quadrantPixels(): Buffer {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const q = quadrants[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]!;
      data.set(q, (y * width + x) * 3);
    }
  }
  return data;
}

const raw8 = (data: Buffer | Uint8Array, w = width, h = height) => sharp(data, { raw: { width: w, height: h, channels: 3 } });

/** Mean absolute difference in 8-bit levels between a decoded image and upright 8-bit pixels. */
function meanError(image: Image16, expected: Buffer): number {
  assert.equal(image.data.length, expected.length);
  let sum = 0;
  for (let i = 0; i < expected.length; i++) sum += Math.abs(image.data[i]! / 257 - expected[i]!);
  return sum / expected.length;
}

/** The stored pixels a camera writes with EXIF orientation `tag`, for an upright scene. */
const storedFor: Record<number, number> = { 3: 180, 6: 270, 8: 90 };

for (const orientation of [3, 6, 8]) {
  test(`a JPEG with EXIF orientation ${orientation} decodes upright`, async () => {
    const upright = quadrantPixels();
    const stored = await raw8(upright).rotate(storedFor[orientation]).toBuffer({ resolveWithObject: true });
    const jpeg = await raw8(stored.data, stored.info.width, stored.info.height).withMetadata({ orientation }).jpeg({ quality: 95 }).toBuffer();
    const decoded = await decodeImage(jpeg);
    assert.equal(decoded.format, 'jpeg');
    assert.equal(decoded.orientation, orientation, 'the stored orientation is reported');
    assert.deepEqual([decoded.image.width, decoded.image.height], [width, height]);
    assert.ok(meanError(decoded.image, upright) < 3, `mean error ${meanError(decoded.image, upright).toFixed(2)}`);
  });
}

test('an explicit rotation is applied clockwise after the EXIF orientation', async () => {
  const upright = quadrantPixels();
  const stored = await raw8(upright).rotate(270).toBuffer({ resolveWithObject: true });
  const jpeg = await raw8(stored.data, stored.info.width, stored.info.height).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
  const expected = await raw8(upright).rotate(90).raw().toBuffer();
  const decoded = await decodeImage(jpeg, { rotate: 90 });
  assert.deepEqual([decoded.image.width, decoded.image.height], [height, width]);
  assert.ok(meanError(decoded.image, expected) < 3);
});

test('a rotation with maxLongEdge turns the smaller decode: EXIF orientation, then the turn, then the size', async () => {
  const upright = quadrantPixels();
  const stored = await raw8(upright).rotate(270).toBuffer({ resolveWithObject: true });
  const jpeg = await raw8(stored.data, stored.info.width, stored.info.height).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
  const decoded = await decodeImage(jpeg, { rotate: 90, maxLongEdge: 60 });
  assert.deepEqual([decoded.image.width, decoded.image.height], [40, 60]);
  const expected = await raw8(upright).rotate(90).resize(40, 60).raw().toBuffer();
  assert.ok(meanError(decoded.image, expected) < 4, `mean error ${meanError(decoded.image, expected).toFixed(2)}`);
});

test('maxLongEdge gives a smaller decode of the same picture', async () => {
  const jpeg = await raw8(quadrantPixels()).jpeg().toBuffer();
  const decoded = await decodeImage(jpeg, { maxLongEdge: 60 });
  assert.deepEqual([decoded.image.width, decoded.image.height], [60, 40]);
  const topLeft = [0, 1, 2].map((k) => Math.round(decoded.image.data[(5 * 60 + 5) * 3 + k]! / 257));
  for (const [k, v] of topLeft.entries()) assert.ok(Math.abs(v - quadrants[0][k]!) < 6);
});

test('8-bit PNG widens exactly (v * 257) and 16-bit PNG and TIFF keep every value', async () => {
  const pixels = quadrantPixels();
  const png8 = await decodeImage(await raw8(pixels).png().toBuffer());
  assert.equal(png8.format, 'png');
  assert.ok(png8.image.data.every((v, i) => v === pixels[i]! * 257));

  const deep = new Uint16Array(width * height * 3);
  for (let i = 0; i < deep.length; i++) deep[i] = (i * 2654435761) % 65536;
  const raw16 = () => sharp(deep, { raw: { width, height, channels: 3 } }).toColourspace('rgb16');
  const png16 = await decodeImage(await raw16().png().toBuffer());
  assert.deepEqual(png16.image.data, deep);
  const tiff16 = await decodeImage(await raw16().tiff({ compression: 'lzw' }).toBuffer());
  assert.equal(tiff16.format, 'tiff');
  assert.deepEqual(tiff16.image.data, deep);
});

test('colours in another ICC profile are converted to sRGB', async () => {
  // sRGB red, stored as Display P3 numbers with a P3 profile attached.
  const red = Buffer.alloc(16 * 16 * 3);
  for (let i = 0; i < red.length; i += 3) red[i] = 255;
  const p3 = await raw8(red, 16, 16).withIccProfile('p3').png().toBuffer();
  const stored = await sharp(p3).keepIccProfile().raw().toBuffer();
  assert.ok(stored[0]! < 245 && stored[1]! > 20, 'the file holds P3 numbers, not sRGB red');
  const decoded = await decodeImage(p3);
  const [r, g, b] = decoded.image.data;
  assert.ok(r! > 64000 && g! < 1500 && b! < 1500, `decoded ${r}, ${g}, ${b}`);
});

test('AVIF-coded HEIF decodes', async () => {
  const heif = await raw8(quadrantPixels()).heif({ compression: 'av1', quality: 90 }).toBuffer();
  const decoded = await decodeImage(heif, { fileName: 'photo.heic' });
  assert.equal(decoded.format, 'heic');
  assert.ok(meanError(decoded.image, quadrantPixels()) < 4);
});

test('WebP decodes (post-edited outputs get their thumbnails from it)', async () => {
  const webp = await raw8(quadrantPixels()).webp({ lossless: true }).toBuffer();
  const decoded = await decodeImage(webp, { maxLongEdge: 1024 });
  assert.equal(decoded.format, 'webp');
  assert.ok(meanError(decoded.image, quadrantPixels()) < 1);
});

test('JPEG metadata is read without decoding: camera, lens, time, bias, GPS, ICC', async () => {
  const jpeg = await raw8(quadrantPixels())
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS R5' },
      IFD2: { DateTimeOriginal: '2024:05:01 14:03:22', SubSecTimeOriginal: '25', ExposureTime: '1/500', FNumber: '28/10', ISOSpeedRatings: '100', ExposureBiasValue: '-2/1', FocalLength: '50/1', LensModel: 'RF50mm F1.8 STM' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100', GPSAltitude: '35/1' },
    })
    .withIccProfile('srgb')
    .jpeg()
    .toBuffer();
  const meta = await readMetadata(jpeg, 'IMG_0001.JPG');
  assert.equal(meta.make, 'Canon');
  assert.equal(meta.model, 'EOS R5');
  assert.equal(meta.lens, 'RF50mm F1.8 STM');
  assert.equal(meta.captureTime, '2024-05-01T14:03:22.25');
  assert.equal(meta.exposureTime, 1 / 500);
  assert.equal(meta.fNumber, 2.8);
  assert.equal(meta.iso, 100);
  assert.equal(meta.exposureBias, -2);
  assert.equal(meta.focalLength, 50);
  assert.ok(Math.abs(meta.gps!.latitude - (48 + 51 / 60 + 24 / 3600)) < 1e-9);
  assert.ok(Math.abs(meta.gps!.longitude - (2 + 21 / 60 + 3 / 3600)) < 1e-9);
  assert.equal(meta.gps!.altitude, 35);
  assert.ok(meta.icc && meta.icc.length > 100);
});

test('unsupported and corrupt input is rejected with a clear error', async () => {
  await assert.rejects(decodeImage(Buffer.from('GIF89a this is no photo we take')), /unsupported image format/);
  const jpeg = await raw8(quadrantPixels()).jpeg().toBuffer();
  await assert.rejects(decodeImage(jpeg.subarray(0, jpeg.length >> 1)), /corrupt JPEG/);
  await assert.rejects(decodeImage(Buffer.alloc(4)), /unsupported or corrupt image/);
  await assert.rejects(decodeImage(jpeg, { rotate: 45 as 90 }), /rotate/);
  await assert.rejects(decodeImage(jpeg, { maxLongEdge: 0 }), /maxLongEdge/);
});
