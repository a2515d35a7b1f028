/**
 * What `retouch profiles create` reads from disk: a photographer's Lightroom sidecars, or
 * pairs of originals and their edits, turned into a Style by the imaging library.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InvalidRequest } from '../domain/errors.js';
import { decodeImage } from '../imaging/decode.js';
import type { Style } from '../imaging/settings.js';
import { fitStyleFromExamples, styleFromXmpSettings } from '../imaging/style-fit/fit-style.js';
import { fromXmp } from '../imaging/xmp.js';

/** A sidecar made for a RAW carries absolute white balance (crs:Temperature), one for a JPEG an increment. */
function isRawSidecar(xml: string): boolean {
  return /crs:Temperature\s*=|<crs:Temperature>/.test(xml);
}

/** Crops do not enter a style, so any size serves to read a straightened crop. */
const ANY_SIZE = { width: 3000, height: 2000 };

export function styleFromSidecars(files: string[], name: string): { style: Style; isRaw: boolean } {
  const xmls = files.map((f) => fs.readFileSync(f, 'utf8'));
  const raw = xmls.map(isRawSidecar);
  if (raw.some((r) => r !== raw[0])) throw new InvalidRequest('The sidecars mix RAW and JPEG photos; make one profile from each kind.');
  const settings = xmls.map((xml, i) => {
    try {
      return fromXmp(xml, ANY_SIZE);
    } catch (err) {
      throw new InvalidRequest(`${files[i]}: ${(err as Error).message}`);
    }
  });
  return { style: styleFromXmpSettings(settings, { isRaw: raw[0]!, name }), isRaw: raw[0]! };
}

/** Long edge the example pairs are fitted at: the fit works on small copies anyway. */
const FIT_DECODE_EDGE = 512;

/**
 * Pairs from DIR/original/NAME.* and DIR/edited/NAME.* (same base name, any image type).
 * Returns the fitted style and how many pairs it was fitted from.
 */
export async function styleFromExamples(dir: string, name: string): Promise<{ style: Style; pairs: number }> {
  const list = (sub: string) => {
    const folder = path.join(dir, sub);
    if (!fs.existsSync(folder)) throw new InvalidRequest(`${folder} does not exist: put the originals in ${path.join(dir, 'original')} and the edits, with the same names, in ${path.join(dir, 'edited')}.`);
    return new Map(fs.readdirSync(folder).map((f) => [path.parse(f).name.toLowerCase(), path.join(folder, f)]));
  };
  const originals = list('original');
  const edited = list('edited');
  const names = [...originals.keys()].filter((n) => edited.has(n)).sort();
  if (names.length === 0) throw new InvalidRequest(`No pairs in ${dir}: an original and its edit must have the same base name.`);
  const decode = async (file: string) => (await decodeImage(fs.readFileSync(file), { fileName: file, maxLongEdge: FIT_DECODE_EDGE })).image;
  const pairs = [];
  for (const n of names) pairs.push({ original: await decode(originals.get(n)!), edited: await decode(edited.get(n)!) });
  const fit = await fitStyleFromExamples(pairs, { name });
  return { style: fit.style, pairs: pairs.length };
}
