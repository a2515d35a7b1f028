import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { SAME_PHOTO, embeddedWebp, extractPhoto, largestEmbeddedJpeg, readManifest, samePhotos, similarity, thumbprint } from '../../bench/autoedit/training-photos.js';
import { seededRandom } from '../../src/imaging/random.js';

/** A textured scene: smooth colour blobs and noise, different for each seed. */
function scene(width: number, height: number, seed: number): Promise<Buffer> {
  const rnd = seededRandom(seed);
  const blobs = Array.from({ length: 6 }, () => ({ x: rnd() * width, y: rnd() * height, r: (0.1 + 0.3 * rnd()) * width, c: [rnd(), rnd(), rnd()] }));
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      for (let k = 0; k < 3; k++) {
        let v = 0.2;
        for (const b of blobs) v += b.c[k]! * Math.exp(-((x - b.x) ** 2 + (y - b.y) ** 2) / b.r ** 2);
        data[(y * width + x) * 3 + k] = Math.max(0, Math.min(255, Math.round(200 * v + 20 * (rnd() - 0.5))));
      }
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

describe('extra training photos', () => {
  it('takes the largest JPEG embedded in a container, whatever surrounds it', async () => {
    const small = await sharp(await scene(40, 30, 1))
      .jpeg()
      .toBuffer();
    const large = await sharp(await scene(200, 120, 2))
      .jpeg()
      .toBuffer();
    const container = Buffer.concat([Buffer.from('header\0'), small, Buffer.from('\0entry\0'), large, Buffer.from('\0trailer')]);
    const meta = await sharp(largestEmbeddedJpeg(container)).metadata();
    assert.deepEqual([meta.width, meta.height], [200, 120]);
    assert.throws(() => largestEmbeddedJpeg(Buffer.from('no image here')), /no embedded JPEG/);
  });

  it('takes the Nth WebP embedded in a container by the length in its RIFF header', async () => {
    const first = await sharp(await scene(60, 40, 5))
      .webp()
      .toBuffer();
    const second = await sharp(await scene(90, 50, 6))
      .webp()
      .toBuffer();
    const container = Buffer.concat([Buffer.from('qres\0RIFF-not-webp'), first, Buffer.from('\0\0'), second, Buffer.from('RIFF')]);
    assert.deepEqual(embeddedWebp(container, 1), second);
    const meta = await sharp(extractPhoto(container, 'webp 0')).metadata();
    assert.deepEqual([meta.width, meta.height], [60, 40]);
    assert.throws(() => embeddedWebp(container, 2), /no embedded WebP number 2/);
    assert.throws(() => extractPhoto(container, 'tiff 0'), /unknown extraction/);
  });

  it('finds the same photo at another size or cropped, and not a different photo', async () => {
    const photo = await scene(320, 200, 3);
    const smaller = await sharp(photo).resize(160, 100).jpeg({ quality: 80 }).toBuffer();
    const portraitCrop = await sharp(photo).extract({ left: 100, top: 0, width: 120, height: 200 }).toBuffer();
    const other = await scene(320, 200, 4);
    const p = await thumbprint(photo);
    assert.ok(similarity(p, await thumbprint(smaller)) > 0.98);
    assert.ok(similarity(p, await thumbprint(portraitCrop)) >= SAME_PHOTO);
    assert.ok(similarity(p, await thumbprint(other)) < SAME_PHOTO);
    // The same layout in other colours (a grey sky over a dark field, an orange facade under a blue sky) is another photo.
    const recoloured = await sharp(photo).linear([0.4, 1, 1.6], [0, 0, 0]).toBuffer();
    assert.ok(similarity(p, await thumbprint(recoloured)) < SAME_PHOTO);
    const clashes = samePhotos(
      new Map([['new.jpg', await thumbprint(smaller)]]),
      new Map([
        ['new.jpg', await thumbprint(smaller)],
        ['corpus.jpg', p],
        ['other.jpg', await thumbprint(other)],
      ]),
    );
    assert.deepEqual(
      clashes.map((c) => c.known),
      ['corpus.jpg'],
    );
  });

  it('lists each photo once, with a version, a SHA-256 and a licence', () => {
    const { photos } = readManifest();
    assert.ok(photos.length >= 50);
    assert.equal(new Set(photos.map((p) => p.name)).size, photos.length);
    for (const p of photos) {
      assert.match(p.name, /^[a-z0-9-]+\.jpg$/);
      assert.match(p.sha256, /^[0-9a-f]{64}$/);
      assert.ok(p.version.length > 0 && p.licence.length > 0);
      assert.match(p.path, /^\/usr\/(share|lib)\//);
    }
  });
});
