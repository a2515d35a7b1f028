import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeImage } from '../../src/imaging/decode.js';
import { automaticSettings, developFinished, developWithSettings, sourceImage } from '../../src/imaging/develop.js';
import { editRequest } from '../../src/imaging/edit-request.js';
import { verticalTilt } from '../../src/imaging/geometry/tilt.js';
import { render } from '../../src/imaging/render.js';
import { defaultSettings } from '../../src/imaging/settings.js';
import type { Image16 } from '../../src/imaging/types.js';
import { exposed, jpegOf, testScene } from '../support/photos.js';
import { chartScene, fromLinear, GREY_PATCH, meanChroma, meanLinear, patchBox, type Rgb } from '../support/scenes.js';
import { keystonedStreet } from '../support/street.js';

/** Mean absolute difference of two images of one size, in 8-bit levels. */
function meanLevels(a: Image16, b: Image16): number {
  assert.deepEqual([a.width, a.height], [b.width, b.height]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length / 257;
}

const frame = async (name: string, image = testScene(360, 240, 7)) => ({ fileName: name, bytes: await jpegOf(image), rotate: 0 as const });

describe('develop', () => {
  it('merges several frames into one HDR source at most 3000 px, keeping the aligned darkest frame', async () => {
    const scene = testScene(360, 240, 8);
    const source = await sourceImage([await frame('a.jpg', exposed(scene, -2)), await frame('b.jpg', scene), await frame('c.jpg', exposed(scene, 2))]);
    assert.equal(source.frames, 3);
    assert.deepEqual([source.image.width, source.image.height], [360, 240]);
    assert.ok(source.darkFrame, 'the dark frame for window pull');
    const single = await sourceImage([await frame('one.jpg')]);
    assert.equal(single.frames, 1);
    assert.equal(single.darkFrame, undefined);
  });

  it('replaces the sky only where there is one', async () => {
    const outdoor = await sourceImage([await frame('out.jpg')]);
    const withSky = await automaticSettings(outdoor, { options: { skyReplacement: true, skyTemplateId: 2 } });
    assert.deepEqual(withSky.sky, { templateId: 2, strength: 1 });
    const wall = fromLinear(360, 240, (x) => [0.3 + 0.1 * Math.sin(x / 9), 0.25, 0.2] as Rgb);
    const indoor = await sourceImage([await frame('wall.jpg', wall)]);
    assert.equal((await automaticSettings(indoor, { options: { skyReplacement: true, skyTemplateId: 2 } })).sky, null);
  });

  it('the sky is segmented by the renderer: the JPEG is the settings rendered, its sky replaced', async () => {
    const outdoor = await sourceImage([await frame('out.jpg')]);
    const developed = await developFinished([await frame('out.jpg')], { options: editRequest({ skyReplacement: true, skyTemplateId: 2 }) });
    const settings = developed.settings!;
    assert.ok(settings.sky, 'the scene has a sky to replace');
    const output = (await decodeImage(developed.bytes)).image;
    assert.ok(meanLevels(output, await render(outdoor.image, settings)) < 3, 'the JPEG is those settings rendered, sky and all');
    assert.ok(meanLevels(output, await render(outdoor.image, { ...settings, sky: null })) > 1, 'the sky was replaced');
  });

  it('a finished development decides on the sky by the mask it renders with, and reports what it did', async () => {
    const wall = fromLinear(360, 240, (x) => [0.3 + 0.1 * Math.sin(x / 9), 0.25, 0.2] as Rgb);
    const indoor = await frame('wall.jpg', wall);
    const options = editRequest({ skyReplacement: true, skyTemplateId: 2 });
    const developed = await developFinished([indoor], { options });
    assert.equal(developed.settings!.sky, null, 'no sky to replace');
    const plain = await developFinished([indoor], { options: editRequest({}) });
    assert.ok(developed.bytes.equals(plain.bytes), 'the JPEG of an edit without sky replacement');
  });

  it('with perspective correction, the sky is segmented on the corrected image', async () => {
    const street = await frame('street.jpg', keystonedStreet(480, 360));
    const developed = await developFinished([street], { options: editRequest({ perspectiveCorrection: true, skyReplacement: true, skyTemplateId: 2 }) });
    const settings = developed.settings!;
    assert.ok(settings.sky && settings.perspective.vertical !== 0, 'a sky replaced on a corrected photo');
    const source = await sourceImage([street]);
    const output = (await decodeImage(developed.bytes)).image;
    assert.ok(meanLevels(output, await render(source.image, settings)) < 3, 'as the renderer segmenting on its own');
    assert.ok(meanLevels(output, await render(source.image, { ...settings, sky: null })) > 1, 'the sky was replaced');
  });

  it('crops as the options ask: to the ratio asked for, and not at all when none is', async () => {
    const source = await sourceImage([await frame('scene.jpg')]);
    assert.equal((await automaticSettings(source, { options: {} })).crop, null);
    const { crop } = await automaticSettings(source, { options: editRequest({ cropAspectRatio: '4X5' }) });
    assert.ok(crop, 'a crop to 4:5');
    const ratio = ((crop.right - crop.left) * source.image.width) / ((crop.bottom - crop.top) * source.image.height);
    assert.ok(Math.abs(ratio - 5 / 4) < 0.02, `ratio ${ratio}`);
  });

  it('a finished development is the render of the settings it reports, and they do what the options asked', async () => {
    const street = await frame('street.jpg', keystonedStreet(480, 360));
    const developed = await developFinished([street], { options: { perspectiveCorrection: true } });
    assert.equal(developed.bytes.subarray(0, 2).toString('hex'), 'ffd8');
    assert.ok(developed.thumbnail && developed.thumbnail.length > 0);
    const settings = developed.settings!;
    // The camera looked up: the correction widens the top (negative, as Lightroom's Upright).
    assert.ok(settings.perspective.vertical < -5, `vertical ${settings.perspective.vertical}`);
    const output = (await decodeImage(developed.bytes)).image;
    const source = await sourceImage([street]);
    assert.ok(meanLevels(output, await render(source.image, settings)) < 3, 'the JPEG is those settings rendered');
    const [before, after] = [verticalTilt(source.image), verticalTilt(output)];
    assert.ok(before > 1 && after < before / 4, `verticals lean ${after}° after, ${before}° before`);
  });

  it('rendering given settings applies each of them: exposure, saturation, crop', async () => {
    const chart = [await frame('chart.jpg', chartScene(360, 240, 3))];
    const plain = (await decodeImage((await developWithSettings(chart, defaultSettings())).bytes)).image;
    const settings = { ...defaultSettings(), exposure: 1, saturation: -100, crop: { left: 0.25, top: 0, right: 0.75, bottom: 1 } };
    const edited = (await decodeImage((await developWithSettings(chart, settings)).bytes)).image;
    assert.deepEqual([edited.width, edited.height], [plain.width / 2, plain.height], 'the middle half');
    assert.ok(meanChroma(plain) > 10 && meanChroma(edited) < 0.5, `chroma ${meanChroma(edited)}, ${meanChroma(plain)} before`);
    // The grey patch, a quarter of the width further left in the crop: one stop is twice the light.
    const grey = patchBox(plain, GREY_PATCH);
    const shifted = { ...grey, x0: grey.x0 - plain.width / 4, x1: grey.x1 - plain.width / 4 };
    const ratio = meanLinear(edited, shifted)[1] / meanLinear(plain, grey)[1];
    assert.ok(ratio > 1.8 && ratio < 2.2, `+1 EV made the grey ${ratio}× as bright`);
  });
});
