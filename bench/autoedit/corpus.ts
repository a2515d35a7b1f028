/**
 * The photos of the automatic-edit work and the fixed split: a corpus photo is
 * held out when the first hex digit of the SHA-1 of its file name is 0–5; the other
 * corpus photos and the nine test photos are for fitting and tuning.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from '../../src/imaging/sharp.js';
import { image16FromSharp } from '../../src/imaging/image16.js';
import type { Image16 } from '../../src/imaging/types.js';
import { testdataDir } from '../report.js';

export interface Photo {
  file: string;
  path: string;
  heldOut: boolean;
}

const IMAGE = /\.(jpe?g|png|tiff?)$/i;

export function isHeldOut(file: string): boolean {
  return '012345'.includes(createHash('sha1').update(file).digest('hex')[0]!);
}

export function autoEditPhotos(): Photo[] {
  const corpus = path.join(testdataDir, 'corpus');
  const photos = path.join(testdataDir, 'photos');
  const list = (dir: string) =>
    fs
      .readdirSync(dir)
      .filter((f) => IMAGE.test(f))
      .sort();
  return [...list(corpus).map((file) => ({ file, path: path.join(corpus, file), heldOut: isHeldOut(file) })), ...list(photos).map((file) => ({ file, path: path.join(photos, file), heldOut: false }))];
}

/** A photo decoded to 16 bits, its long edge brought to at most maxEdge. */
export function loadPhoto(photo: Photo, maxEdge: number): Promise<Image16> {
  return image16FromSharp(sharp(photo.path).rotate().resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true }));
}
