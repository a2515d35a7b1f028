import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANALYSIS_EDGE, analysisCopy } from '../../src/imaging/analysis-copy.js';
import { shareJobs } from '../../src/imaging/bands.js';
import { type CompositeFits, fitComposites } from '../../src/imaging/composite-fits.js';
import { detectPerspective, offerPerspective } from '../../src/imaging/geometry/index.js';
import type { Image16 } from '../../src/imaging/types.js';
import { checkWithBandHelpers } from '../support/band-helpers.js';
import { keystonedStreet } from '../support/street.js';
import { indoorScene, outdoorScene } from './sky-scenes.js';

const bytes = (a: Float32Array | undefined) => (a ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : null);

/** The fits as comparable values: the coefficient grids as bytes. */
function plain(fits: CompositeFits) {
  const grid = (c: { width: number; height: number; a: Float32Array; b: Float32Array } | null) => c && { width: c.width, height: c.height, a: bytes(c.a), b: bytes(c.b) };
  const w = fits.windows;
  return {
    sky: fits.sky && { confidence: fits.sky.confidence, coefficients: grid(fits.sky.coefficients) },
    windows: w && { windows: w.windows, region: w.region, p: bytes(w.p), coefficients: grid(w.coefficients), base: grid(w.base) },
  };
}

describe('sky and windows fitted on two imaging threads', () => {
  it('equal what one thread fits, and perspective found on another thread equals detectPerspective', async () => {
    const outdoor = outdoorScene(960, 640, 3).image;
    const indoor = indoorScene(960, 640, 4, 'neutral', true);
    const fit = async (image: Image16) => fitComposites(await analysisCopy(image, ANALYSIS_EDGE), { width: image.width, height: image.height, sky: true, windows: true, base: true });
    // On this thread alone (it does not share its jobs yet).
    const alone = [plain(await fit(outdoor)), plain(await fit(indoor))];
    assert.ok(alone[0]!.sky && alone[0]!.sky.confidence > 0, 'the outdoor scene has a sky');
    assert.ok(alone[1]!.windows && alone[1]!.windows.windows.length > 0 && alone[1]!.windows.base, 'the interior has a window');
    const street = keystonedStreet(640, 480);
    const perspective = detectPerspective(street);
    assert.ok(perspective.vertical !== 0, 'the street is keystoned');
    const sharedStreet = { ...street, data: new Uint16Array(new SharedArrayBuffer(street.data.byteLength)) };
    sharedStreet.data.set(street.data);
    shareJobs();
    await checkWithBandHelpers(async () => {
      assert.deepEqual([plain(await fit(outdoor)), plain(await fit(indoor))], alone);
      assert.deepEqual(await offerPerspective(sharedStreet)(), perspective);
    });
  });
});
