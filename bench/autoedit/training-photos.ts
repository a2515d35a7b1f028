/**
 * The extra fitting photos of the automatic edit: real photographs from Debian packages,
 * listed with their package version and SHA-256 in extra-photos.json, fetched by
 * `npm run fetch-training-photos` into a cache outside the repo (never committed). None may
 * be the same photo as a corpus or test photo (held-out ones above all): a perceptual
 * comparison of small thumbnails checks it on every fetch.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from '../../src/imaging/sharp.js';
import { projectRoot } from '../report.js';
import { autoEditPhotos, type Photo } from './corpus.js';

export interface ExtraPhoto {
  /** File name in the cache, unique over corpus and test photos too. */
  name: string;
  package: string;
  version: string;
  /** Path inside the package. */
  path: string;
  /** SHA-256 of that file as the package holds it. */
  sha256: string;
  /**
   * When the file is a container: 'largest-jpeg' takes its largest embedded JPEG (an
   * Enlightenment .edj holds a wallpaper at several sizes), 'webp N' its Nth (from 0)
   * embedded WebP (a Qt resource file, .rcc, holds an activity's pictures).
   */
  extract?: string;
  licence: string;
  author?: string;
  scene: string;
  /** Why the photo is left out of training: its rendering is not neutral in intent (graded, a cast that is the scene's, monochrome). */
  notNeutral?: string;
}

export interface ExtraPhotoManifest {
  version: number;
  notes: string[];
  photos: ExtraPhoto[];
}

export const MANIFEST_FILE = path.join(projectRoot, 'bench', 'autoedit', 'extra-photos.json');

/** ~/.cache/retouch/training-photos, or RETOUCH_TRAINING_PHOTOS. */
export const cacheDir = process.env.RETOUCH_TRAINING_PHOTOS ?? path.join(os.homedir(), '.cache', 'retouch', 'training-photos');

export function readManifest(file = MANIFEST_FILE): ExtraPhotoManifest {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as ExtraPhotoManifest;
}

export const cachedPhotoPath = (photo: ExtraPhoto) => path.join(cacheDir, 'photos', photo.name);

/**
 * The fitting photos of the split (corpus and test photos) and, when they have been
 * fetched, the manifest's extra photos of neutral intent; held-out photos are never among them.
 */
export function fittingPhotos(options: { extra: boolean }): Photo[] {
  const own = autoEditPhotos().filter((p) => !p.heldOut);
  if (!options.extra) return own;
  const extra = readManifest()
    .photos.filter((p) => p.notNeutral === undefined)
    .map((p) => ({ file: p.name, path: cachedPhotoPath(p), heldOut: false }));
  const missing = extra.filter((p) => !fs.existsSync(p.path));
  if (missing.length > 0) throw new Error(`${missing.length} extra training photos are not fetched (first: ${missing[0]!.file}): run npm run fetch-training-photos`);
  return [...own, ...extra];
}

/** The photo a manifest entry names inside its source file (see ExtraPhoto.extract). */
export function extractPhoto(source: Buffer, extract: string | undefined): Buffer {
  if (extract === undefined) return source;
  if (extract === 'largest-jpeg') return largestEmbeddedJpeg(source);
  const webp = /^webp (\d+)$/.exec(extract);
  if (webp) return embeddedWebp(source, Number(webp[1]));
  throw new Error(`unknown extraction ${extract}`);
}

/** The index-th WebP file embedded in a container: a RIFF chunk of form WEBP, whose header gives its length. */
export function embeddedWebp(container: Buffer, index: number): Buffer {
  let found = 0;
  for (let i = container.indexOf('RIFF'); i >= 0 && i + 12 <= container.length; i = container.indexOf('RIFF', i + 4)) {
    if (container.toString('latin1', i + 8, i + 12) !== 'WEBP') continue;
    if (found++ === index) return container.subarray(i, i + 8 + container.readUInt32LE(i + 4));
  }
  throw new Error(`no embedded WebP number ${index} (${found} found)`);
}

/**
 * The largest JPEG stream embedded in a container file. Each stream runs from its
 * start-of-image marker to the next one (or the end): a decoder stops at its own end
 * marker, so what follows does no harm.
 */
export function largestEmbeddedJpeg(container: Buffer): Buffer {
  const SOI = Buffer.from([0xff, 0xd8, 0xff]);
  const starts: number[] = [];
  for (let i = container.indexOf(SOI); i >= 0; i = container.indexOf(SOI, i + SOI.length)) starts.push(i);
  if (starts.length === 0) throw new Error('no embedded JPEG');
  let best = { start: 0, end: 0 };
  for (const [k, start] of starts.entries()) {
    const end = starts[k + 1] ?? container.length;
    if (end - start > best.end - best.start) best = { start, end };
  }
  return container.subarray(best.start, best.end);
}

/** Structural correlation from which two windows are taken to show the same photo… */
export const SAME_PHOTO = 0.9;
/** …when their mean colours are also this close (Euclidean, channels 0–1). */
export const SAME_COLOUR = 0.1;

/** Side of the thumbnails compared. */
const THUMB = 24;
/** Square windows, as fractions of the short side, at the start, middle and end of the long side. */
const WINDOW_SIZES = [1, 0.7, 0.5];

/** One thumbnail: the structure (each channel less its mean, unit norm over the three) and the mean colour (0–1). */
interface Window {
  structure: Float64Array;
  mean: number[];
}

/**
 * What two photos are compared by: colour thumbnails of the whole frame (squeezed to a
 * square) and of square windows of three sizes along the long side, so that other
 * resolutions and crops of the same photo (a portrait cut from a landscape wallpaper) find
 * a matching window. Structure alone confuses photos of the same layout (a bright sky over
 * a dark mass), colour alone photos of the same dominant colour (two of green leaves): a
 * match needs both.
 */
export type Thumbprint = Window[];

export async function thumbprint(input: string | Buffer): Promise<Thumbprint> {
  const { data, info } = await sharp(input).rotate().flatten({ background: '#ffffff' }).toColourspace('srgb').removeAlpha().resize(384, 384, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true });
  const source = () => sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } });
  const window = async (image: Sharp): Promise<Window> => {
    const pixels = await image.resize(THUMB, THUMB, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
    const v = Float64Array.from(pixels.subarray(0, THUMB * THUMB * 3), (x) => x / 255);
    const mean = [0, 1, 2].map((c) => v.reduce((sum, x, i) => (i % 3 === c ? sum + x : sum), 0) / (THUMB * THUMB));
    let norm = 0;
    for (let i = 0; i < v.length; i++) {
      v[i] = v[i]! - mean[i % 3]!;
      norm += v[i]! ** 2;
    }
    const scale = 1 / Math.sqrt(norm || 1);
    return { structure: v.map((x) => x * scale), mean };
  };
  const windows = [await window(source())];
  const short = Math.min(info.width, info.height);
  for (const size of WINDOW_SIZES) {
    const side = Math.round(size * short);
    for (const at of [0, 0.5, 1]) {
      const left = Math.round(at * (info.width - side));
      const top = Math.round(at * (info.height - side));
      windows.push(await window(source().extract({ left, top, width: side, height: side })));
    }
  }
  return windows;
}

const colourDistance = (a: Window, b: Window) => Math.hypot(...a.mean.map((m, c) => m - b.mean[c]!));

/** The best structural correlation between windows of the two photos whose mean colours are close (SAME_COLOUR). */
export function similarity(a: Thumbprint, b: Thumbprint): number {
  let best = -1;
  for (const x of a)
    for (const y of b) {
      if (colourDistance(x, y) > SAME_COLOUR) continue;
      let dot = 0;
      for (let i = 0; i < x.structure.length; i++) dot += x.structure[i]! * y.structure[i]!;
      best = Math.max(best, dot);
    }
  return best;
}

/** Pairs (extra photo, known photo) that look like the same photo. */
export function samePhotos(extra: Map<string, Thumbprint>, known: Map<string, Thumbprint>): { extra: string; known: string; similarity: number }[] {
  const out: { extra: string; known: string; similarity: number }[] = [];
  for (const [e, a] of extra)
    for (const [k, b] of known) {
      if (e === k) continue;
      const s = similarity(a, b);
      if (s >= SAME_PHOTO) out.push({ extra: e, known: k, similarity: s });
    }
  return out;
}
