/**
 * `npm run fetch-training-photos` (run it before `npm run train -- --extra-photos`): brings the extra
 * fitting photos of bench/autoedit/extra-photos.json into the cache (see training-photos.ts):
 * `apt-get download PACKAGE=VERSION`, `dpkg-deb -x`, SHA-256 checked against the manifest,
 * converted like the corpus (auto-orient, alpha on white, sRGB, long edge ≤ 2400 px, JPEG 92).
 * Photos already in the cache are kept. Then every extra photo is compared with every corpus
 * and test photo and with the other extra photos, and the run fails on any that looks the same.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from '../src/imaging/sharp.js';
import { autoEditPhotos } from './autoedit/corpus.js';
import { type ExtraPhoto, cacheDir, cachedPhotoPath, extractPhoto, readManifest, samePhotos, thumbprint, type Thumbprint } from './autoedit/training-photos.js';

const MAX_EDGE = 2400;

function extractedPackage(pkg: string, version: string): string {
  const dir = path.join(cacheDir, 'packages', `${pkg}_${version}`);
  if (fs.existsSync(dir)) return dir;
  const debs = path.join(cacheDir, 'debs');
  fs.mkdirSync(debs, { recursive: true });
  execFileSync('apt-get', ['download', `${pkg}=${version}`], { cwd: debs, stdio: ['ignore', 'ignore', 'inherit'] });
  // apt-get names the file PACKAGE_VERSION_ARCH.deb with the epoch's colon written %3a.
  const deb = fs.readdirSync(debs).find((f) => decodeURIComponent(f).startsWith(`${pkg}_${version}_`));
  if (!deb) throw new Error(`apt-get download ${pkg}=${version} left no .deb in ${debs}`);
  fs.mkdirSync(`${dir}.partial`, { recursive: true });
  execFileSync('dpkg-deb', ['-x', path.join(debs, deb), `${dir}.partial`]);
  fs.renameSync(`${dir}.partial`, dir);
  return dir;
}

async function fetchPhoto(photo: ExtraPhoto): Promise<void> {
  const target = cachedPhotoPath(photo);
  if (fs.existsSync(target)) return;
  const source = fs.readFileSync(path.join(extractedPackage(photo.package, photo.version), photo.path));
  const sha256 = createHash('sha256').update(source).digest('hex');
  if (sha256 !== photo.sha256) throw new Error(`${photo.package} ${photo.path}: sha256 ${sha256}, the manifest says ${photo.sha256}`);
  const input = extractPhoto(source, photo.extract);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await sharp(input).rotate().flatten({ background: '#ffffff' }).resize(MAX_EDGE, MAX_EDGE, { fit: 'inside', withoutEnlargement: true }).toColourspace('srgb').jpeg({ quality: 92 }).toFile(`${target}.partial`);
  fs.renameSync(`${target}.partial`, target);
}

const manifest = readManifest();
for (const photo of manifest.photos) await fetchPhoto(photo);

const known = new Map<string, Thumbprint>();
for (const p of autoEditPhotos()) known.set(p.file, await thumbprint(p.path));
const extra = new Map<string, Thumbprint>();
for (const p of manifest.photos) extra.set(p.name, await thumbprint(cachedPhotoPath(p)));
const clashes = samePhotos(extra, new Map([...known, ...extra]));
if (clashes.length > 0) {
  for (const c of clashes) process.stderr.write(`${c.extra} looks like ${c.known} (thumbnail correlation ${c.similarity.toFixed(3)})\n`);
  process.exit(1);
}
process.stdout.write(`${manifest.photos.length} extra training photos in ${path.join(cacheDir, 'photos')}, none the same as any of the ${known.size} corpus and test photos or as each other\n`);
