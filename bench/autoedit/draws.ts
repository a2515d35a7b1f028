/**
 * The training draws of `npm run train`: every fitting photo at EDGE px, DRAWS_PER_PHOTO
 * times cropped and degraded at random with the training seed, as the 8-bit preview the
 * estimator sees. One copy, so that every learner of the automatic edit (the feature model,
 * the histogram light estimator) sees exactly the same draws.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { featurePreview } from '../../src/imaging/autoedit/features.js';
import { seededRandom } from '../../src/imaging/random.js';
import type { LinearImage } from '../../src/imaging/tone/preview.js';
import type { Image16 } from '../../src/imaging/types.js';
import { loadPhoto, type Photo } from './corpus.js';
import { NO_DEGRADATION, degrade, randomDegradation, to8, type Degradation } from './degrade.js';
import { TRAINING_SEED } from './samples.js';

/** Long edge the photos are degraded at; features use a 256 px preview of it. */
export const EDGE = 512;
export const DRAWS_PER_PHOTO = 48;

/**
 * A random crop of 40–100 % of the area: another framing of the scene has other
 * statistics, so the model sees many more "photos" than the fitting set holds.
 */
function randomCrop(image: Image16, rnd: () => number): Image16 {
  const area = 0.4 + 0.6 * rnd();
  const aspect = Math.exp((rnd() - 0.5) * 0.6);
  const width = Math.max(32, Math.min(image.width, Math.round(image.width * Math.sqrt(area) * aspect)));
  const height = Math.max(32, Math.min(image.height, Math.round((image.height * Math.sqrt(area)) / aspect)));
  const x0 = Math.floor(rnd() * (image.width - width + 1));
  const y0 = Math.floor(rnd() * (image.height - height + 1));
  const data = new Uint16Array(width * height * 3);
  for (let y = 0; y < height; y++) data.set(image.data.subarray(((y0 + y) * image.width + x0) * 3, ((y0 + y) * image.width + x0 + width) * 3), y * width * 3);
  return { width, height, data };
}

/**
 * The key of a cache of what a learner computes from the draws: it changes with everything the
 * draws depend on (the photos, the seed, the sizes, the code that crops, degrades and previews
 * them) and with `what`, the learner's own part (its name, its spec, the code of its measures).
 */
export function drawsCacheKey(photos: readonly Photo[], ...what: unknown[]): string {
  const code = ['./degrade.js', './draws.js', '../../src/imaging/autoedit/features.js'].map((file) => fs.readFileSync(new URL(file, import.meta.url), 'utf8'));
  return createHash('sha1')
    .update(JSON.stringify([...what, TRAINING_SEED, EDGE, DRAWS_PER_PHOTO, photos.map((p) => p.file), ...code]))
    .digest('hex')
    .slice(0, 12);
}

/** Calls onDraw for every draw of every photo, in order (photo index, then draw). */
export async function forEachDraw(photos: readonly Photo[], onDraw: (photo: number, degradation: Degradation, preview: LinearImage) => void, onPhoto: (photo: Photo) => void = () => {}): Promise<void> {
  const rnd = seededRandom(TRAINING_SEED);
  for (const [index, photo] of photos.entries()) {
    const image = await loadPhoto(photo, EDGE);
    for (let draw = 0; draw < DRAWS_PER_PHOTO; draw++) {
      // The first draw of every photo is the photo as it is.
      const d = draw === 0 ? { ...NO_DEGRADATION } : randomDegradation(rnd);
      onDraw(index, d, featurePreview(to8(degrade(draw === 0 ? image : randomCrop(image, rnd), d))));
    }
    onPhoto(photo);
  }
}
