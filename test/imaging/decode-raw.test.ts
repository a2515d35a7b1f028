import assert from 'node:assert/strict';
import { test } from 'node:test';
import { srgbToLinear } from '../../src/imaging/colour.js';
import { decodeImage } from '../../src/imaging/decode.js';
import { readMetadata } from '../../src/imaging/metadata.js';
import { detectFormat } from '../../src/imaging/raw/detect.js';
import { temperatureTint } from '../../src/imaging/raw/white-point.js';
import type { Image16 } from '../../src/imaging/types.js';
import { writeDng } from '../support/dng.js';

/** 24 sRGB patches (8-bit), colour-checker-like: skin, sky, foliage, primaries, greys. */
const colours = [
  [115, 82, 68],
  [194, 150, 130],
  [98, 122, 157],
  [87, 108, 67],
  [133, 128, 177],
  [103, 189, 170],
  [214, 126, 44],
  [80, 91, 166],
  [193, 90, 99],
  [94, 60, 108],
  [157, 188, 64],
  [224, 163, 46],
  [56, 61, 150],
  [70, 148, 73],
  [175, 54, 60],
  [231, 199, 31],
  [187, 86, 149],
  [8, 133, 161],
  [243, 243, 242],
  [200, 200, 200],
  [160, 160, 160],
  [122, 122, 121],
  [85, 85, 85],
  [52, 52, 52],
] as const;
const patch = 24;

function patchImage(): Image16 {
  const width = 6 * patch;
  const height = 4 * patch;
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const c = colours[Math.floor(y / patch) * 6 + Math.floor(x / patch)]!;
      for (let k = 0; k < 3; k++) data[(y * width + x) * 3 + k] = c[k]! * 257;
    }
  }
  return { width, height, data };
}

/** Mean absolute difference over the inner half of every patch, in 8-bit levels, per patch. */
function patchErrors(decoded: Image16, expected: (i: number, k: number) => number): number[] {
  return colours.map((_, i) => {
    const px = (i % 6) * patch;
    const py = Math.floor(i / 6) * patch;
    let sum = 0;
    let n = 0;
    for (let y = py + patch / 4; y < py + (3 * patch) / 4; y++) {
      for (let x = px + patch / 4; x < px + (3 * patch) / 4; x++) {
        for (let k = 0; k < 3; k++) sum += Math.abs(decoded.data[(y * decoded.width + x) * 3 + k]! / 257 - expected(i, k));
        n += 3;
      }
    }
    return sum / n;
  });
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

for (const [bits, cfa] of [
  [12, 'RGGB'],
  [14, 'BGGR'],
  [16, 'RGGB'],
] as const) {
  test(`a ${bits}-bit ${cfa} DNG decodes back to its colour patches`, async () => {
    const image = patchImage();
    const decoded = await decodeImage(writeDng({ image, bits, cfa }), { fileName: 'patches.dng' });
    assert.equal(decoded.format, 'raw');
    assert.equal(decoded.image.width, image.width);
    assert.equal(decoded.image.height, image.height);
    const errors = patchErrors(decoded.image, (i, k) => colours[i]![k]!);
    assert.ok(mean(errors) < 1, `mean patch error ${mean(errors).toFixed(2)} levels`);
    assert.ok(Math.max(...errors) < 2.5, `worst patch error ${Math.max(...errors).toFixed(2)} levels`);
    assert.equal(decoded.rawInfo?.bitsPerSample, bits);
    assert.equal(decoded.rawInfo?.blackLevel, 2 ** (bits - 5));
    assert.equal(decoded.rawInfo?.whiteLevel, 2 ** bits - 1);
  });
}

test('a camera colour matrix and a tungsten as-shot balance are undone, and reported as ~2856 K', async () => {
  // The neutral a camera whose RGB is mix x linear sRGB records under CIE illuminant A (x .44757, y .40745).
  const mix = [0.8, 0.15, 0.05, 0.1, 0.8, 0.1, 0.05, 0.15, 0.8];
  const [X, Z] = [0.44757 / 0.40745, (1 - 0.44757 - 0.40745) / 0.40745];
  const lightRgb = [3.2404542 * X - 1.5371385 - 0.4985314 * Z, -0.969266 * X + 1.8760108 + 0.041556 * Z, 0.0556434 * X - 0.2040259 + 1.0572252 * Z];
  const cameraLight = [0, 1, 2].map((r) => mix[r * 3]! * lightRgb[0]! + mix[r * 3 + 1]! * lightRgb[1]! + mix[r * 3 + 2]! * lightRgb[2]!);
  const neutral = cameraLight.map((v, c) => (v / cameraLight[1]!) * [0.5, 1, 1 / 1.5][c]!) as [number, number, number];
  const decoded = await decodeImage(writeDng({ image: patchImage(), cameraMatrix: mix, asShotNeutral: neutral }));
  assert.ok(mean(patchErrors(decoded.image, (i, k) => colours[i]![k]!)) < 1.5);
  const white = decoded.rawInfo?.asShotWhite;
  assert.ok(white, 'as-shot white point');
  assert.ok(Math.abs(white.temperature - 2856) < 60, `temperature ${white.temperature.toFixed(0)} K`);
  assert.ok(Math.abs(white.tint) < 3, `tint ${white.tint.toFixed(1)}`);
});

test('a daylight as-shot balance reads as D65: ~6504 K, tint about +10 as Adobe reports it', async () => {
  const decoded = await decodeImage(writeDng({ image: patchImage() }));
  const white = decoded.rawInfo!.asShotWhite!;
  assert.ok(Math.abs(white.x - 0.3127) < 0.002 && Math.abs(white.y - 0.329) < 0.002, `xy ${white.x}, ${white.y}`);
  assert.ok(Math.abs(white.temperature - 6504) < 100, `temperature ${white.temperature.toFixed(0)} K`);
  assert.ok(white.tint > 5 && white.tint < 15, `tint ${white.tint.toFixed(1)}`);
  assert.deepEqual(
    decoded.rawInfo!.asShotMultipliers!.map((v) => Math.round(v * 100) / 100),
    [2, 1, 1.5],
  );
});

test('temperatureTint follows the Planckian locus', () => {
  // Planckian chromaticities (Kim et al. cubic spline) at 3000 K and 5000 K: tint ~0 there.
  for (const [x, y, kelvin] of [
    [0.43693, 0.40407, 3000],
    [0.3451, 0.35162, 5000],
  ] as const) {
    const { temperature, tint } = temperatureTint(x, y);
    assert.ok(Math.abs(temperature - kelvin) < kelvin * 0.01, `${temperature.toFixed(0)} K for ${kelvin} K`);
    assert.ok(Math.abs(tint) < 2, `tint ${tint.toFixed(2)} at ${kelvin} K`);
  }
  // A greenish light (above the locus) reads as a positive tint, a magenta one as negative.
  assert.ok(temperatureTint(0.33, 0.36).tint > 10);
  assert.ok(temperatureTint(0.33, 0.31).tint < -10);
});

test('a RAW comes out upright by its Orientation tag, then by the explicit rotation', async () => {
  const image = patchImage();
  const upright = (await decodeImage(writeDng({ image }))).image;
  const oriented = await decodeImage(writeDng({ image, orientation: 6 }));
  assert.deepEqual([oriented.image.width, oriented.image.height], [image.height, image.width]);
  // Orientation 6 shows the stored top-left corner at the top right.
  const at = (img: Image16, x: number, y: number) => [0, 1, 2].map((k) => img.data[(y * img.width + x) * 3 + k]! >> 8);
  assert.deepEqual(at(oriented.image, oriented.image.width - 1 - patch / 2, patch / 2), at(upright, patch / 2, patch / 2));
  const turned = await decodeImage(writeDng({ image, orientation: 6 }), { rotate: 90 });
  assert.deepEqual([turned.image.width, turned.image.height], [image.width, image.height]);
  assert.deepEqual(at(turned.image, turned.image.width - 1 - patch / 2, turned.image.height - 1 - patch / 2), at(upright, patch / 2, patch / 2));
});

test('a bracket frame at -2 EV decodes a quarter as bright in linear light', async () => {
  const image = patchImage();
  const base = await decodeImage(writeDng({ image }));
  const dark = await decodeImage(writeDng({ image, exposure: -2 }));
  const linear = (v: number) => srgbToLinear(v / 65535);
  // Patch 19 (row 3, column 1) is a light grey, well inside the sensor range at both exposures.
  const centre = ((3 * patch + patch / 2) * image.width + patch + patch / 2) * 3;
  const ratio = linear(dark.image.data[centre + 1]!) / linear(base.image.data[centre + 1]!);
  assert.ok(Math.abs(ratio - 0.25) < 0.01, `linear ratio ${ratio.toFixed(4)}`);
});

test('a preview-size RAW decode honours maxLongEdge', async () => {
  const decoded = await decodeImage(writeDng({ image: patchImage() }), { maxLongEdge: 64 });
  assert.equal(Math.max(decoded.image.width, decoded.image.height), 64);
  assert.equal(decoded.image.height, Math.round((64 * 4) / 6));
  assert.equal(decoded.rawInfo?.width, 6 * patch);
});

test('RAW metadata is read from the DNG without decoding it', async () => {
  const dng = writeDng({
    image: patchImage(),
    make: 'Nikon',
    model: 'Z 6',
    lens: 'NIKKOR Z 24-70mm f/4 S',
    captureTime: '2023:07:14 18:22:05',
    exposureTime: 1 / 250,
    fNumber: 5.6,
    iso: 400,
    exposureBias: -2 / 3,
    focalLength: 35,
    gps: { latitude: -33.8568, longitude: 151.2153, altitude: 12.5 },
  });
  const meta = await readMetadata(dng, 'DSC_0001.NEF');
  assert.equal(meta.make, 'Nikon');
  assert.equal(meta.model, 'Z 6');
  assert.equal(meta.lens, 'NIKKOR Z 24-70mm f/4 S');
  assert.equal(meta.captureTime, '2023-07-14T18:22:05');
  assert.equal(meta.exposureTime, 1 / 250);
  assert.equal(meta.fNumber, 5.6);
  assert.equal(meta.iso, 400);
  assert.ok(Math.abs(meta.exposureBias! + 2 / 3) < 1e-3);
  assert.equal(meta.focalLength, 35);
  assert.ok(Math.abs(meta.gps!.latitude + 33.8568) < 1e-6 && Math.abs(meta.gps!.longitude - 151.2153) < 1e-6);
  assert.equal(meta.gps!.altitude, 12.5);
});

test('the bytes decide the format; the name only breaks ties', () => {
  const dng = writeDng({ image: patchImage() });
  assert.equal(detectFormat(dng, 'photo.jpg').format, 'raw');
  assert.equal(detectFormat(dng).format, 'raw');
  assert.equal(detectFormat(Buffer.from('FUJIFILMCCD-RAW 0201FF383501'), 'x').format, 'raw');
  assert.equal(detectFormat(Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypcrx \0\0\0\0')])).rawContainer, 'cr3');
  assert.throws(() => detectFormat(Buffer.from('not an image, really not')), /unsupported image format/);
});

test('a truncated RAW is rejected with a clear error', async () => {
  const dng = writeDng({ image: patchImage(), preview: true });
  await assert.rejects(decodeImage(dng.subarray(0, 4000), { fileName: 'cut.dng' }), /camera RAW could not be decoded/);
});
