import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { decodeImage } from '../../src/imaging/decode.js';
import { encodeJpeg, encodeThumbnail, encodeTiff16 } from '../../src/imaging/encode.js';
import { emptyMetadata, readMetadata } from '../../src/imaging/metadata.js';
import type { Image16, PhotoMetadata } from '../../src/imaging/types.js';

/** A smooth two-way gradient with a dark-to-light ramp, 16-bit. */
function gradient(width = 160, height = 100): Image16 {
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.round((x / (width - 1)) * 65535);
      data[i + 1] = Math.round((y / (height - 1)) * 65535);
      data[i + 2] = 30000;
    }
  }
  return { width, height, data };
}

const photo: PhotoMetadata = {
  ...emptyMetadata(),
  make: 'FUJIFILM',
  model: 'X-T4',
  lens: 'XF16-55mmF2.8 R LM WR (II)',
  captureTime: '2022-11-05T09:41:07.330',
  exposureTime: 1 / 125,
  fNumber: 4,
  iso: 640,
  exposureBias: -1.3,
  focalLength: 23,
  gps: { latitude: -22.9519, longitude: -43.2105, altitude: -4 },
};

function assertPhotoFields(meta: PhotoMetadata): void {
  for (const key of ['make', 'model', 'lens', 'captureTime', 'exposureTime', 'fNumber', 'iso', 'focalLength'] as const) assert.equal(meta[key], photo[key], key);
  assert.ok(Math.abs(meta.exposureBias! - photo.exposureBias!) < 1e-3);
}

/** libvips' sRGB profile names itself in UTF-16 (ICC v4 'mluc'). */
const namesSrgb = (icc: Buffer | null) => icc?.includes(Buffer.from('\0s\0R\0G\0B', 'latin1'));

test('encodeJpeg keeps camera, lens, capture time, exposure, GPS and an sRGB profile; orientation 1', async () => {
  const jpeg = await encodeJpeg(gradient(), { metadata: photo });
  const meta = await readMetadata(jpeg);
  assertPhotoFields(meta);
  assert.ok(Math.abs(meta.gps!.latitude - photo.gps!.latitude) < 1e-6);
  assert.ok(Math.abs(meta.gps!.longitude - photo.gps!.longitude) < 1e-6);
  assert.equal(meta.gps!.altitude, -4);
  const header = await sharp(jpeg).metadata();
  assert.equal(header.orientation, 1);
  assert.ok(namesSrgb(meta.icc), 'an sRGB ICC profile');
});

test('encodeJpeg leaves GPS out when asked, keeping the rest', async () => {
  const meta = await readMetadata(await encodeJpeg(gradient(), { metadata: photo, stripGps: true }));
  assert.equal(meta.gps, null);
  assertPhotoFields(meta);
});

test('encodeJpeg rounds 16-bit values to 8 bits without a bias', async () => {
  const image = gradient();
  const back = await decodeImage(await encodeJpeg(image, { quality: 95 }));
  let signed = 0;
  let absolute = 0;
  for (let i = 0; i < image.data.length; i++) {
    const d = (back.image.data[i]! - image.data[i]!) / 257;
    signed += d;
    absolute += Math.abs(d);
  }
  assert.ok(Math.abs(signed / image.data.length) < 0.15, `bias ${(signed / image.data.length).toFixed(3)} levels`);
  assert.ok(absolute / image.data.length < 1, `mean error ${(absolute / image.data.length).toFixed(3)} levels`);
});

test('encodeThumbnail shrinks to the long edge and never enlarges', async () => {
  const big = await sharp(await encodeThumbnail(gradient(800, 400))).metadata();
  assert.deepEqual([big.width, big.height, big.format], [512, 256, 'jpeg']);
  const small = await sharp(await encodeThumbnail(gradient(100, 60), 256)).metadata();
  assert.deepEqual([small.width, small.height], [100, 60]);
});

test('encodeThumbnail keeps the tones: channel means match the image', async () => {
  const image = gradient(800, 400);
  const { channels } = await sharp(await encodeThumbnail(image)).stats();
  const expected = [0, 1, 2].map((c) => {
    let sum = 0;
    for (let i = c; i < image.data.length; i += 3) sum += image.data[i]! / 257;
    return sum / (image.data.length / 3);
  });
  for (const [c, channel] of channels.slice(0, 3).entries()) assert.ok(Math.abs(channel.mean - expected[c]!) < 2, `channel ${c}: ${channel.mean} vs ${expected[c]}`);
});

test('encodeTiff16 is lossless, tagged sRGB, and carries the EXIF', async () => {
  const image = gradient();
  const tiff = await encodeTiff16(image, { metadata: photo, stripGps: true });
  const back = await decodeImage(tiff);
  assert.equal(back.format, 'tiff');
  assert.deepEqual(back.image.data, image.data);
  assertPhotoFields(back.metadata);
  assert.equal(back.metadata.gps, null);
  assert.ok(namesSrgb(back.metadata.icc), 'an sRGB ICC profile');
});

test('encoders reject malformed images and options', async () => {
  const image = gradient(4, 4);
  await assert.rejects(encodeJpeg({ ...image, data: image.data.subarray(1) }), /Expected 48 \(width x height x 3\) for image\.data\.length/);
  await assert.rejects(encodeJpeg(image, { quality: 0 }), /quality/);
  await assert.rejects(encodeThumbnail(image, -5), /longEdge/);
  await assert.rejects(encodeTiff16(image, { compression: 'jpeg' as 'lzw' }), /compression/);
});
