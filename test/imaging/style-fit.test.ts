import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { meanCiede2000 } from '../../bench/metrics/ciede2000.js';
import { mired } from '../../src/imaging/colour.js';
import { PHOTOGRAPHY_TYPE_BIAS, estimate } from '../../src/imaging/estimate.js';
import { resizeImage16 } from '../../src/imaging/image16.js';
import { render } from '../../src/imaging/render.js';
import { BUILT_IN_STYLES, applyBias, defaultSettings, type DevelopSettings, type Style, type StyleBias } from '../../src/imaging/settings.js';
import { fitStyleFromExamples, styleFromXmpSettings } from '../../src/imaging/style-fit/fit-style.js';
import type { Image16 } from '../../src/imaging/types.js';
import { fromXmp, toXmp } from '../../src/imaging/xmp.js';
import { testScene } from '../support/photos.js';
import { WARM_CAST, chartScene, mapLinear, vonKriesCast } from '../support/scenes.js';
import { expose, hdrScene } from './hdr-scenes.js';
import { indoorScene, outdoorScene } from './sky-scenes.js';

const SLIDERS: (keyof StyleBias)[] = ['exposure', 'contrast', 'highlights', 'shadows', 'whites', 'blacks', 'warmth', 'tint', 'vibrance', 'saturation', 'clarity'];
/** How close a recovered bias must be: exposure in EV, warmth in mireds, tint and the rest in slider units. */
const TOLERANCE: Record<keyof StyleBias, number> = { exposure: 0.1, contrast: 8, highlights: 8, shadows: 8, whites: 8, blacks: 8, warmth: 3, tint: 3, vibrance: 8, saturation: 8, clarity: 8 };

/** A look unlike any built-in, touching every slider. */
const KNOWN: Style = { name: 'Known', exposure: 0.25, contrast: 12, highlights: -20, shadows: 18, whites: -8, blacks: 6, warmth: 10, tint: 4, vibrance: 12, saturation: -8, clarity: 10 };

/** Varied originals: a chart under a dim warm light, a street, a skyline, an interior with a blown window. */
function originals(): Image16[] {
  return [
    vonKriesCast(
      mapLinear(chartScene(240, 160, 1), ([r, g, b]) => [r * 0.5, g * 0.5, b * 0.5]),
      WARM_CAST,
    ),
    testScene(240, 160, 2),
    outdoorScene(240, 160, 3).image,
    indoorScene(240, 160, 5, 'warm', true),
  ];
}

/** Photos the fitted style is tried on, none of them fitted from. */
function newPhotos(): Image16[] {
  return [expose(hdrScene(240, 160, 7), 0.6, 0, 0, 240, 160), outdoorScene(240, 160, 11).image, chartScene(240, 160, 9)];
}

async function editsWith(images: Image16[], bias: Partial<Style>, context: { photographyType?: string } = {}) {
  return Promise.all(images.map(async (original) => ({ original, edited: await render(original, applyBias(estimate(original, context), bias)) })));
}

function assertRecovered(fitted: StyleBias, truth: Partial<StyleBias>): void {
  for (const key of SLIDERS) {
    const error = Math.abs(fitted[key] - (truth[key] ?? 0));
    assert.ok(error <= TOLERANCE[key], `${key}: fitted ${fitted[key]}, true ${truth[key] ?? 0} (error ${error.toFixed(2)} > ${TOLERANCE[key]})`);
  }
}

describe('fitStyleFromExamples', () => {
  for (const known of [KNOWN, BUILT_IN_STYLES.moody]) {
    it(`recovers the ${known.name} style from edits made with it, and edits new photos like it`, async () => {
      const { style, perPair } = await fitStyleFromExamples(await editsWith(originals(), known), { name: 'Mine' });
      assert.equal(style.name, 'Mine');
      assertRecovered(style, known);
      assert.equal(perPair.length, 4);
      for (const pair of perPair) {
        assert.ok(pair.deltaE.fitted < 0.3, `the fitted settings reproduce each edit (ΔE00 ${pair.deltaE.fitted.toFixed(3)})`);
        assert.ok(pair.deltaE.fitted < pair.deltaE.estimate / 10, `fitting improves on the plain estimate (${pair.deltaE.fitted.toFixed(3)} vs ${pair.deltaE.estimate.toFixed(3)})`);
      }
      for (const photo of newPhotos()) {
        const plain = estimate(photo);
        const wanted = await render(photo, applyBias(plain, known));
        const withFitted = meanCiede2000(await render(photo, estimate(photo, { style })), wanted);
        const withoutStyle = meanCiede2000(await render(photo, plain), wanted);
        assert.ok(withFitted < 1, `a new photo edited with the fitted style is close to the known style (ΔE00 ${withFitted.toFixed(3)})`);
        assert.ok(withFitted < withoutStyle / 5, `and much closer than without a style (${withFitted.toFixed(3)} vs ${withoutStyle.toFixed(3)})`);
      }
    });
  }

  it('fits the style on top of the photography type: edits without the type bias give its opposite', async () => {
    const type = 'REAL_ESTATE';
    const { style } = await fitStyleFromExamples(await editsWith(originals().slice(1), {}), { photographyType: type });
    const typeBias = PHOTOGRAPHY_TYPE_BIAS[type]!;
    assertRecovered(style, Object.fromEntries(SLIDERS.map((k) => [k, -(typeBias[k] ?? 0)])));
    assert.ok(style.exposure < -0.15 && style.shadows < -15, `undoes the type's brightening (${style.exposure} EV, shadows ${style.shadows})`);
  });

  it('fits a larger edit of the same framing at the original size', async () => {
    const original = outdoorScene(300, 200, 3).image;
    // The same picture at twice the size: the photographer's export was larger than the original given.
    const big = await render(await resizeImage16(original, 600, 400), applyBias(estimate(original), { warmth: 15, exposure: 0.3 }));
    const { style } = await fitStyleFromExamples([{ original, edited: big }]);
    assert.ok(Math.abs(style.warmth - 15) <= 3, `warmth ${style.warmth}`);
    assert.ok(Math.abs(style.exposure - 0.3) <= 0.1, `exposure ${style.exposure}`);
  });

  it('refuses empty, malformed and mismatched input with precise errors', async () => {
    const image = chartScene(120, 80, 1);
    await assert.rejects(fitStyleFromExamples([]), /Expected a non-empty array of \{original, edited\} pairs but received an empty array/);
    await assert.rejects(fitStyleFromExamples(null as unknown as []), /Expected a non-empty array .* but received null/);
    await assert.rejects(fitStyleFromExamples([{ original: image } as never]), /pairs\[0\]\.edited/);
    await assert.rejects(fitStyleFromExamples([{ original: image, edited: chartScene(120, 120, 1) }]), /Expected pairs\[0\]\.edited to have the original's aspect ratio 1\.500 \(same framing, no crop\) but it has 1\.000/);
    await assert.rejects(fitStyleFromExamples([{ original: image, edited: image }], { photographyType: 'CATS' }), /Expected options\.photographyType to be one of .*REAL_ESTATE.* but received "CATS"/);
    await assert.rejects(fitStyleFromExamples([{ original: image, edited: image }], { name: ' ' }), /Expected a non-empty string for options\.name/);
  });
});

/** Settings as Lightroom would have them for a photo, through a real sidecar. */
function sidecar(sliders: Partial<DevelopSettings>, isRaw: boolean): DevelopSettings {
  return fromXmp(toXmp({ ...defaultSettings(), ...sliders }, { isRaw }));
}

describe('styleFromXmpSettings', () => {
  const warmer = (m: number) => 1e6 / (mired(6500) - m);

  it("averages a photographer's JPEG sidecars, warmth from the incremental temperature", () => {
    const settings = [
      sidecar({ exposure: 0.3, contrast: 10, shadows: 20, temperature: warmer(8), tint: 4, vibrance: 10, clarity: 5 }, false),
      sidecar({ exposure: 0.5, contrast: 14, shadows: 30, temperature: warmer(12), tint: 6, vibrance: 14, clarity: 5 }, false),
      sidecar({ exposure: 0.4, contrast: 12, shadows: 25, temperature: warmer(10), tint: 5, vibrance: 12, clarity: 5 }, false),
    ];
    const style = styleFromXmpSettings(settings, { isRaw: false, name: 'Ann' });
    assert.equal(style.name, 'Ann');
    assert.ok(Math.abs(style.exposure - 0.4) < 0.011, `exposure ${style.exposure}`);
    assert.ok(Math.abs(style.contrast - 12) <= 0.5 && Math.abs(style.shadows - 25) <= 0.5 && Math.abs(style.vibrance - 12) <= 0.5, JSON.stringify(style));
    assert.ok(Math.abs(style.warmth - 10) <= 1, `warmth ${style.warmth} mireds`);
    assert.ok(Math.abs(style.tint - 5) <= 0.5, `tint ${style.tint}`);
    assert.equal(style.highlights, 0);
  });

  it('is robust to one extreme photo', () => {
    const usual = [0.2, 0.3, 0.25, 0.35, 0.3].map((exposure, i) => sidecar({ exposure, contrast: 10 + i }, false));
    const extreme = sidecar({ exposure: 3.5, contrast: 90, temperature: warmer(80) }, false);
    const style = styleFromXmpSettings([...usual, extreme], { isRaw: false, name: 'Robust' });
    assert.ok(style.exposure >= 0.2 && style.exposure <= 0.35, `exposure ${style.exposure} stays among the usual photos`);
    assert.ok(style.contrast >= 10 && style.contrast <= 14, `contrast ${style.contrast}`);
    assert.ok(Math.abs(style.warmth) <= 1, `warmth ${style.warmth}`);
  });

  it('leaves warmth and tint at 0 for RAW sidecars, whose temperatures are absolute', () => {
    const settings = [sidecar({ exposure: 0.2, temperature: 5200, tint: 12 }, true), sidecar({ exposure: 0.4, temperature: 3200, tint: 8 }, true)];
    const style = styleFromXmpSettings(settings, { isRaw: true, name: 'Raw' });
    assert.ok(Math.abs(style.exposure - 0.3) < 0.011, `exposure ${style.exposure}`);
    assert.equal(style.warmth, 0);
    assert.equal(style.tint, 0);
  });

  it('refuses empty and malformed input with precise errors', () => {
    assert.throws(() => styleFromXmpSettings([], { isRaw: false, name: 'x' }), /Expected a non-empty array of DevelopSettings \(one per sidecar\) but received an empty array/);
    assert.throws(() => styleFromXmpSettings([defaultSettings(), { ...defaultSettings(), exposure: 9 }], { isRaw: false, name: 'x' }), /settings\[1\]: Expected a number between -5 and 5 for exposure but received number 9/);
    assert.throws(() => styleFromXmpSettings([defaultSettings()], { name: 'x' } as never), /Expected options \{isRaw: boolean, name: string\}/);
    assert.throws(() => styleFromXmpSettings([defaultSettings()], { isRaw: true, name: '' }), /Expected a non-empty string for options\.name but received ""/);
  });
});
