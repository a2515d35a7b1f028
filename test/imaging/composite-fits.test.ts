import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANALYSIS_EDGE, analysisCopy } from '../../src/imaging/analysis-copy.js';
import { isShared, shareJobs } from '../../src/imaging/bands.js';
import { type CompositeFits, fitComposites } from '../../src/imaging/composite-fits.js';
import { detectPerspective, offerPerspective } from '../../src/imaging/geometry/index.js';
import { skyMask } from '../../src/imaging/sky/mask.js';
import { offerSkyReading, readSky, type SkyReading } from '../../src/imaging/sky/scene.js';
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

/** A reading as comparable values: the local sky as bytes. */
const plainReading = (r: SkyReading) => ({ bounds: r.bounds, scene: r.scene && { ...r.scene, localSky: bytes(r.scene.localSky) } });

describe('what render offers to another imaging thread', () => {
  it('equals what one thread finds: sky and window fits, the sky reading, the perspective', async () => {
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
    const copy = await analysisCopy(outdoor, ANALYSIS_EDGE);
    const sky = await skyMask(outdoor, copy);
    const reading = plainReading(readSky(sky.mask, sky.spans!, outdoor.width, outdoor.height, copy));
    assert.ok(reading.bounds && reading.scene, 'the sky is read');
    const sharedMask = new Float32Array(new SharedArrayBuffer(sky.mask.byteLength));
    sharedMask.set(sky.mask);
    const sharedSpans = new Int32Array(new SharedArrayBuffer(sky.spans!.byteLength));
    sharedSpans.set(sky.spans!);
    shareJobs();
    // Made while this thread shares its jobs, the copy is in shared memory, as render's is: offered, not read here.
    const sharedCopy = await analysisCopy(outdoor, ANALYSIS_EDGE);
    assert.ok(isShared(sharedCopy.rgb), 'the analysis copy is shared');
    await checkWithBandHelpers(async () => {
      assert.deepEqual([plain(await fit(outdoor)), plain(await fit(indoor))], alone);
      assert.deepEqual(await offerPerspective(sharedStreet)(), perspective);
      assert.deepEqual(plainReading(await offerSkyReading(sharedMask, sharedSpans, outdoor.width, outdoor.height, sharedCopy)()), reading);
    });
  });
});
