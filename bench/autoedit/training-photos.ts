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
import sharp from 'sharp';
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
  /** 'largest-jpeg': the file is a container (an Enlightenment .edj) and the photo is its largest embedded JPEG. */
  extract?: 'largest-jpeg';
  licence: string;
  author?: string;
  scene: string;
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
 * fetched, the manifest's extra photos; held-out photos are never among them.
 */
export function fittingPhotos(options: { extra: boolean } = { extra: true }): Photo[] {
  const own = autoEditPhotos().filter((p) => !p.heldOut);
  if (!options.extra) return own;
  const extra = readManifest().photos.map((p) => ({ file: p.name, path: cachedPhotoPath(p), heldOut: false }));
  const missing = extra.filter((p) => !fs.existsSync(p.path));
  if (missing.length > 0) throw new Error(`${missing.length} extra training photos are not fetched (first: ${missing[0]!.file}): run npm run fetch-training-photos`);
  return [...own, ...extra];
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

/** Side of the thumbnails compared. */
const THUMB = 24;

/**
 * Two grey thumbnails of a photo, zero mean and unit norm: the whole frame squeezed to a
 * square, and its centre square; between them other resolutions and moderate crops of the
 * same photo still match.
 */
export async function thumbprints(input: string | Buffer): Promise<Float64Array[]> {
  const grey = async (fit: 'fill' | 'cover') => {
    const { data } = await sharp(input).rotate().flatten({ background: '#ffffff' }).greyscale().resize(THUMB, THUMB, { fit, kernel: 'cubic' }).raw().toBuffer({ resolveWithObject: true });
    const v = Float64Array.from(data.subarray(0, THUMB * THUMB));
    const mean = v.reduce((s, x) => s + x, 0) / v.length;
    let norm = 0;
    for (let i = 0; i < v.length; i++) {
      v[i] = v[i]! - mean;
      norm += v[i]! ** 2;
    }
    const scale = 1 / Math.sqrt(norm || 1);
    return v.map((x) => x * scale);
  };
  return [await grey('fill'), await grey('cover')];
}

/** The best correlation between any thumbprint of one photo and any of the other. */
export function similarity(a: readonly Float64Array[], b: readonly Float64Array[]): number {
  let best = -1;
  for (const x of a)
    for (const y of b) {
      let dot = 0;
      for (let i = 0; i < x.length; i++) dot += x[i]! * y[i]!;
      best = Math.max(best, dot);
    }
  return best;
}

/** Correlation from which two thumbnails are taken to show the same photo. */
export const SAME_PHOTO = 0.9;

/** Pairs (extra photo, known photo) that look like the same photo. */
export function samePhotos(extra: Map<string, Float64Array[]>, known: Map<string, Float64Array[]>): { extra: string; known: string; similarity: number }[] {
  const out: { extra: string; known: string; similarity: number }[] = [];
  for (const [e, a] of extra)
    for (const [k, b] of known) {
      if (e === k) continue;
      const s = similarity(a, b);
      if (s >= SAME_PHOTO) out.push({ extra: e, known: k, similarity: s });
    }
  return out;
}
