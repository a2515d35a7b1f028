import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import type { Image16 } from '../../src/imaging/types.js';
import { builtInSkyTemplates, renderSkyTemplate, skyTemplateFromImage, skyTemplatePreview } from '../../src/imaging/sky/templates.js';

/** Mean absolute difference of two same-size images, 0..1. */
function difference(a: Image16, b: Image16): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length / 65535;
}

/** Mean over rows of the standard deviation of luma along the row (0..1): clouds make rows vary. */
function rowVariation(image: Image16): number {
  let total = 0;
  for (let y = 0; y < image.height; y++) {
    let sum = 0;
    let squares = 0;
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 3;
      const v = (0.2126 * image.data[i]! + 0.7152 * image.data[i + 1]! + 0.0722 * image.data[i + 2]!) / 65535;
      sum += v;
      squares += v * v;
    }
    total += Math.sqrt(Math.max(0, squares / image.width - (sum / image.width) ** 2));
  }
  return total / image.height;
}

/** Mean encoded channel c over rows y0..y1. */
function bandMean(image: Image16, y0: number, y1: number, c: number): number {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = 0; x < image.width; x++) sum += image.data[(y * image.width + x) * 3 + c]!;
  return sum / ((y1 - y0) * image.width * 65535);
}

describe('sky templates', () => {
  it('lists four built-in procedural templates, ids 1..4, one default', () => {
    const list = builtInSkyTemplates();
    assert.deepEqual(
      list.map((t) => t.id),
      [1, 2, 3, 4],
    );
    assert.equal(new Set(list.map((t) => t.name)).size, 4);
    assert.equal(list.filter((t) => t.isDefault).length, 1);
    assert.ok(list.every((t) => t.origin === 'procedural'));
  });

  it('renders deterministically', async () => {
    for (const id of [1, 2, 3, 4]) {
      const a = await renderSkyTemplate(id, 200, 120);
      const b = await renderSkyTemplate(id, 200, 120);
      assert.deepEqual(a.data, b.data, `template ${id}`);
    }
  });

  it('renders four distinct skies of the kind their names promise', async () => {
    const skies = await Promise.all([1, 2, 3, 4].map((id) => renderSkyTemplate(id, 240, 135)));
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) assert.ok(difference(skies[i]!, skies[j]!) > 0.03, `templates ${i + 1} and ${j + 1} differ`);
    const [clear, light, dramatic, sunset] = skies as [Image16, Image16, Image16, Image16];
    assert.ok(rowVariation(clear) < 0.005, 'clear blue has no clouds');
    assert.ok(rowVariation(light) > 0.02 && rowVariation(dramatic) > 0.02, 'cloudy templates have clouds');
    assert.ok(bandMean(clear, 0, 20, 2) > bandMean(clear, 0, 20, 0) + 0.3, 'clear blue is blue at the zenith');
    assert.ok(bandMean(clear, 0, 20, 0) < bandMean(clear, 115, 135, 0), 'and paler at the horizon');
    assert.ok(bandMean(sunset, 115, 135, 0) > bandMean(sunset, 115, 135, 2) + 0.2, 'the sunset glows warm at the horizon');
    assert.ok(bandMean(dramatic, 0, 135, 1) < bandMean(light, 0, 135, 1), 'dramatic clouds are darker than light ones');
  });

  it('renders at large sizes by scaling up its drawing', async () => {
    const sky = await renderSkyTemplate(2, 2100, 900);
    assert.equal(sky.width, 2100);
    assert.equal(sky.height, 900);
    assert.equal(sky.data.length, 2100 * 900 * 3);
  });

  it('makes a 320 × 180 JPEG preview', async () => {
    const preview = await skyTemplatePreview(3);
    const meta = await sharp(preview).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.equal(meta.width, 320);
    assert.equal(meta.height, 180);
  });

  it('takes an operator image and keeps its horizon (bottom) when cropping', async () => {
    // 400 × 300: blue above, a red band in the bottom 30 rows.
    const width = 400,
      height = 300;
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set(y >= 270 ? [220, 30, 20] : [40, 90, 200], (y * width + x) * 3);
    const png = await sharp(raw, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
    const template = await skyTemplateFromImage(png, { id: 7, name: 'Operator red horizon' });
    assert.equal(template.origin, 'image');
    assert.equal(template.isDefault, false);
    const wide = await renderSkyTemplate(template, 400, 100);
    assert.ok(bandMean(wide, 95, 100, 0) > 0.7, 'bottom rows come from the red horizon band');
    assert.ok(bandMean(wide, 0, 5, 2) > 0.6, 'top rows are the blue sky');
  });

  it('rejects bad operator images and ids', async () => {
    const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#4080ff' } })
      .png()
      .toBuffer();
    await assert.rejects(() => skyTemplateFromImage(png, { id: 2, name: 'x' }), /other than the built-in ids/);
    await assert.rejects(() => skyTemplateFromImage(Buffer.alloc(0), { id: 9, name: 'x' }), /non-empty Buffer/);
    await assert.rejects(() => skyTemplateFromImage(png, { id: 9, name: '' }), /non-empty string for info.name/);
    const tiny = await sharp({ create: { width: 100, height: 50, channels: 3, background: '#4080ff' } })
      .png()
      .toBuffer();
    await assert.rejects(() => skyTemplateFromImage(tiny, { id: 9, name: 'tiny' }), /at least 320 × 120/);
    await assert.rejects(() => renderSkyTemplate(1, 0, 10), /integer between 1 and 65535 for width/);
  });
});
