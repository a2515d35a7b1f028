/**
 * `npm run eval -- style`: personal profiles fitted from examples. For each of three known
 * styles, "photographer edits" of the test photos are made by rendering them with
 * estimate + that style and saving them as JPEG (quality 92); the style is then fitted
 * from five of the pairs. Reported: each slider's recovery error, and on the four held-out
 * photos the mean CIEDE2000 between the render with the fitted style and the render with
 * the true style (for scale, the same with no style), plus the fit time.
 * Contact sheet: bench/out/style-contact-sheet.jpg.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions } from '../src/imaging/sharp.js';
import { decodeImage } from '../src/imaging/decode.js';
import { encodeJpeg } from '../src/imaging/encode.js';
import { estimate } from '../src/imaging/estimate.js';
import { render } from '../src/imaging/render.js';
import { BUILT_IN_STYLES, applyBias, type Style, type StyleBias } from '../src/imaging/settings.js';
import { fitStyleFromExamples } from '../src/imaging/style-fit/fit-style.js';
import type { Image16 } from '../src/imaging/types.js';
import { thumbnail } from './image16.js';
import { meanCiede2000 } from './metrics/ciede2000.js';
import { type SectionRunner, outDir, testdataDir } from './report.js';
import { fixed } from './tools.js';
import { caption } from './caption.js';

/** A custom warm look, unlike the built-ins: lifted, warm and magenta, softer detail. */
const WARM_FILM: Style = { name: 'Warm film', exposure: 0.2, contrast: 10, highlights: -10, shadows: 15, whites: -5, blacks: 8, warmth: 12, tint: 5, vibrance: 15, saturation: 5, clarity: -10 };
const STYLES: Style[] = [BUILT_IN_STYLES.moody, BUILT_IN_STYLES['bright-airy'], WARM_FILM];
/** Photos the styles are fitted from; the rest are held out. Chosen to mix landscapes, interiors and close-ups. */
const FIT_PHOTOS = ['Garden.jpg', 'building.jpg', 'fruits.jpg', 'home.jpg', 'Storm.jpg'];
const SLIDERS: (keyof StyleBias)[] = ['exposure', 'contrast', 'highlights', 'shadows', 'whites', 'blacks', 'warmth', 'tint', 'vibrance', 'saturation', 'clarity'];

const TILE_W = 240;
const TILE_H = 180;
const LABEL_H = 24;

/** The photographer's edit: the photo developed with the style, delivered as a JPEG. */
async function photographerEdit(image: Image16, style: Style): Promise<Image16> {
  const jpeg = await encodeJpeg(await render(image, applyBias(estimate(image), style)), { quality: 92 });
  return (await decodeImage(jpeg)).image;
}

export const evalStyle: SectionRunner = async () => {
  const dir = path.join(testdataDir, 'photos');
  const files = fs
    .readdirSync(dir)
    .filter((f) => /\.jpe?g$/i.test(f))
    .sort();
  const missing = FIT_PHOTOS.filter((f) => !files.includes(f));
  if (missing.length > 0) throw new Error(`missing test photos ${missing.join(', ')} in ${dir}`);
  const photos = new Map<string, Image16>();
  for (const f of files) photos.set(f, (await decodeImage(fs.readFileSync(path.join(dir, f)))).image);
  const heldOut = files.filter((f) => !FIT_PHOTOS.includes(f));

  const rows: string[][] = [];
  const tiles: OverlayOptions[] = [];
  let top = 0;
  for (const truth of STYLES) {
    const pairs = [];
    for (const f of FIT_PHOTOS) pairs.push({ original: photos.get(f)!, edited: await photographerEdit(photos.get(f)!, truth) });
    const started = performance.now();
    const { style, perPair } = await fitStyleFromExamples(pairs, { name: `fitted ${truth.name}` });
    const seconds = (performance.now() - started) / 1000;

    let fittedSum = 0;
    let plainSum = 0;
    for (const f of heldOut) {
      const image = photos.get(f)!;
      const plain = estimate(image);
      const wanted = await render(image, applyBias(plain, truth));
      const fitted = await render(image, applyBias(plain, style));
      const untouched = await render(image, plain);
      const dFitted = meanCiede2000(fitted, wanted);
      const dPlain = meanCiede2000(untouched, wanted);
      fittedSum += dFitted;
      plainSum += dPlain;
      const columns: [string, Image16][] = [
        [`${truth.name}: ${path.parse(f).name}`, image],
        ['true style', wanted],
        [`fitted style ΔE ${fixed(dFitted, 2)}`, fitted],
        [`no style ΔE ${fixed(dPlain, 2)}`, untouched],
      ];
      for (const [col, [text, picture]] of columns.entries()) {
        tiles.push({ input: caption(text, TILE_W, LABEL_H, { fontSize: 13 }), left: col * TILE_W, top });
        tiles.push({ input: await thumbnail(picture, TILE_W, TILE_H), left: col * TILE_W, top: top + LABEL_H });
      }
      top += TILE_H + LABEL_H;
    }
    const residual = perPair.reduce((s, p) => s + p.deltaE.fitted, 0) / perPair.length;
    rows.push([
      truth.name,
      ...SLIDERS.map((k) => `${fixed(style[k], k === 'exposure' ? 2 : 1)} (${truth[k]})`),
      fixed(residual, 2),
      fixed(fittedSum / heldOut.length, 2),
      fixed(plainSum / heldOut.length, 2),
      `${fixed(seconds, 1)} (${fixed(seconds / pairs.length, 2)}/pair)`,
    ]);
  }
  const sheet = path.join(outDir, 'style-contact-sheet.jpg');
  await sharp({ create: { width: 4 * TILE_W, height: top, channels: 3, background: '#202020' } })
    .composite(tiles)
    .jpeg({ quality: 85 })
    .toFile(sheet);
  return {
    title: 'Personal profiles: a known style fitted from example edits',
    columns: ['style', ...SLIDERS.map((k) => `${k} fitted (true)`), 'ΔE00 fit to the edits', 'held-out ΔE00 fitted vs true style', 'held-out ΔE00 no style vs true style', 'fit time s'],
    rows,
    notes: [
      `Edits: estimate + the true style, rendered at full size and saved as JPEG q92. Fitted from ${FIT_PHOTOS.join(', ')}; held out: ${heldOut.join(', ')}.`,
      '"ΔE00 fit to the edits": mean over the fitting pairs of the fitted settings\' render against the edit, at the fitting size (320 px).',
      'Held-out columns compare full-size renders of estimate + fitted style and estimate + no style against estimate + true style.',
      `Contact sheet (original | true style | fitted style | no style): ${path.relative(process.cwd(), sheet)}`,
    ],
  };
};
