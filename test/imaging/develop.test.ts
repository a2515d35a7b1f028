import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { automaticSettings, developFinished, sourceImage } from '../../src/imaging/develop.js';
import { exposed, jpegOf, testScene } from '../support/photos.js';
import { fromLinear, type Rgb } from '../support/scenes.js';

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

  it('a finished development is a JPEG with a thumbnail and the settings it was made with', async () => {
    const developed = await developFinished([await frame('f.jpg')], { options: { perspectiveCorrection: true } });
    assert.equal(developed.bytes.subarray(0, 2).toString('hex'), 'ffd8');
    assert.ok(developed.thumbnail && developed.thumbnail.length > 0);
    assert.equal(developed.settings?.version, 1);
  });
});
