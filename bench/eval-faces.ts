/**
 * `npm run eval -- faces`: face detection, skin smoothing and subject masks.
 * - False positives: ../shared/testdata/photos hold no people, so every face found there is one.
 * - True positives: synthetic heads (4 skin tones × 4 sizes) on texture, one painted into each
 *   test photo, and two real photographs from Debian packages when they can be had
 *   (scikit-image's astronaut.png, NASA, public domain; OpenCV's messi5.jpg).
 * - Subject masks on the photos, and timings on an 18 MP image against sharp decode+encode.
 * Contact sheet: bench/out/faces-contact.jpg (faces magenta, subject box cyan, mask tinted).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from '../src/imaging/sharp.js';
import { downscalePlanes } from '../src/imaging/analysis-copy.js';
import { decodeImage } from '../src/imaging/decode.js';
import { encodeJpeg } from '../src/imaging/encode.js';
import { detectFaces, type FaceBox } from '../src/imaging/faces/detect.js';
import { sharpFromImage16 } from '../src/imaging/image16.js';
import { smoothSkin } from '../src/imaging/local/skin.js';
import { applySubjectEmphasis, subjectMask, type SubjectMask } from '../src/imaging/local/subject-mask.js';
import { seededRandom } from '../src/imaging/random.js';
import type { Box, Image16 } from '../src/imaging/types.js';
import { boxIou, Canvas, paintHead, SKIN_TONES } from '../test/support/portrait.js';
import { outDir, testdataDir, type Section } from './report.js';

const TILE = 320;

export async function evalFaces(): Promise<Section> {
  const rows: string[][] = [];
  const notes: string[] = [];
  const tiles: Buffer[] = [];

  // Synthetic heads on texture.
  let found = 0;
  let cases = 0;
  const missedTones = new Set<string>();
  for (const [tone, skin] of Object.entries(SKIN_TONES)) {
    for (const faceWidth of [30, 60, 120, 200]) {
      const canvas = new Canvas(480, 360);
      canvas.texture([0.35, 0.45, 0.3], 0.4, 12, seededRandom(faceWidth));
      const truth = paintHead(canvas, 240, 160, { faceWidth, skin });
      const faces = await detectFaces(canvas.toImage16());
      cases++;
      if (faces.some((f) => boxIou(f, truth) >= 0.5)) found++;
      else missedTones.add(`${tone} ${faceWidth}px`);
    }
  }
  rows.push(['synthetic heads on texture (480×360)', `${found}/${cases} found (IoU ≥ 0.5)`, missedTones.size ? `missed: ${[...missedTones].join(', ')}` : '']);

  // The test photos: false positives, then the same photos with a painted head.
  const photos = fs
    .readdirSync(path.join(testdataDir, 'photos'))
    .filter((f) => /\.jpe?g$/i.test(f))
    .sort();
  let falsePositives = 0;
  let painted = 0;
  let paintedFound = 0;
  const subjects: string[] = [];
  for (const [n, name] of photos.entries()) {
    const { image } = await decodeImage(fs.readFileSync(path.join(testdataDir, 'photos', name)));
    const started = performance.now();
    const faces = await detectFaces(image);
    const ms = performance.now() - started;
    falsePositives += faces.length;
    const subject = await subjectMask(image);
    const area = subject.mask.reduce((s, v) => s + (v > 0.5 ? 1 : 0), 0) / subject.mask.length;
    subjects.push(`${name} ${(area * 100).toFixed(0)} % conf ${subject.confidence}`);
    rows.push([`photo ${name} (${image.width}×${image.height})`, `${faces.length} false positive(s) in ${ms.toFixed(0)} ms`, `subject: ${(area * 100).toFixed(0)} % of frame, confidence ${subject.confidence}`]);
    tiles.push(await tile(image, faces, subject));
    const withHead = paintedPhoto(image, n);
    const detected = await detectFaces(withHead.image);
    painted++;
    if (detected.some((f) => boxIou(f, withHead.truth) >= 0.5)) paintedFound++;
    if (n < 3) tiles.push(await tile(withHead.image, detected, null));
  }
  rows.push(['heads painted into the photos', `${paintedFound}/${painted} found (IoU ≥ 0.5)`, '']);

  // Real faces from Debian packages, with hand-marked face boxes.
  for (const real of realFaces()) {
    const { image } = await decodeImage(fs.readFileSync(real.file));
    const faces = await detectFaces(image);
    const best = Math.max(0, ...faces.map((f) => boxIou(f, real.truth)));
    rows.push([`real: ${path.basename(real.file)}`, `${faces.length} detection(s), best IoU with the face ${best.toFixed(2)}`, real.note]);
    tiles.push(await tile(image, faces, null));
  }

  // Timings on an 18 MP photo with a face (Garden.jpg enlarged, a head painted at 12 % of the short edge).
  const garden = await sharp(path.join(testdataDir, 'photos', 'Garden.jpg'))
    .resize(5184, 3456)
    .jpeg({ quality: 92 })
    .toBuffer();
  const { image: big } = await decodeImage(garden);
  const bigCanvas = canvasOf(big);
  const bigTruth = paintHead(bigCanvas, 2000, 1500, { faceWidth: 420, skin: SKIN_TONES.medium!, blemishes: 60 });
  const portrait = bigCanvas.toImage16();
  const portraitJpeg = await encodeJpeg(portrait);
  const floor = await timed(async () => encodeJpeg((await decodeImage(portraitJpeg)).image));
  const detect = await timed(() => detectFaces(portrait));
  const smooth = await timed(() => smoothSkin(portrait, 70, { faces: detect.value }));
  const subject = await timed(() => subjectMask(portrait));
  const emphasis = await timed(() => applySubjectEmphasis(portrait, subject.value, 60));
  const iou18 = Math.max(0, ...detect.value.map((f) => boxIou(f, bigTruth)));
  rows.push(['18 MP (5184×3456): decode + encode (floor)', `${floor.ms.toFixed(0)} ms`, '']);
  rows.push(['18 MP: detectFaces', `${detect.ms.toFixed(0)} ms (${(detect.ms / floor.ms).toFixed(2)} × floor)`, `face IoU ${iou18.toFixed(2)}`]);
  rows.push(['18 MP: smoothSkin (given faces)', `${smooth.ms.toFixed(0)} ms (${(smooth.ms / floor.ms).toFixed(2)} × floor)`, '']);
  rows.push(['18 MP: subjectMask', `${subject.ms.toFixed(0)} ms (${(subject.ms / floor.ms).toFixed(2)} × floor)`, '']);
  rows.push(['18 MP: applySubjectEmphasis', `${emphasis.ms.toFixed(0)} ms (${(emphasis.ms / floor.ms).toFixed(2)} × floor)`, '']);
  await retouchSheet(portrait, smooth.value, bigTruth);

  await contactSheet(tiles, path.join(outDir, 'faces-contact.jpg'));
  notes.push(`False positives on the ${photos.length} test photos (no people in them): ${falsePositives}. Target: 0.`);
  notes.push('The detector is classical (skin chroma + eye/bridge/mouth light pattern), no learned model: see docs/imaging-portrait.md for what it misses.');
  notes.push('Contact sheets: bench/out/faces-contact.jpg (faces magenta, subject box cyan, subject mask tinted), bench/out/faces-retouch.jpg (18 MP face before/after smoothSkin 70).');
  return { title: 'Faces, skin smoothing, subject mask', columns: ['case', 'result', 'notes'], rows, notes };
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { ms: performance.now() - started, value };
}

function canvasOf(image: Image16): Canvas {
  const canvas = new Canvas(image.width, image.height);
  for (let i = 0; i < image.data.length; i++) canvas.data[i] = image.data[i]! / 65535;
  return canvas;
}

/** The photo with a head (alternating skin tones) painted left of centre at 25 % of the short edge. */
function paintedPhoto(image: Image16, n: number): { image: Image16; truth: Box } {
  const canvas = canvasOf(image);
  const tones = Object.values(SKIN_TONES);
  const faceWidth = Math.round(Math.min(image.width, image.height) * 0.25);
  const truth = paintHead(canvas, image.width * 0.4, image.height * 0.4, { faceWidth, skin: tones[n % tones.length]!, seed: n });
  return { image: canvas.toImage16(), truth };
}

/** Real portraits from Debian packages, fetched into bench/out when not installed (no install of dependencies). */
function realFaces(): { file: string; truth: Box; note: string }[] {
  const found: { file: string; truth: Box; note: string }[] = [];
  const sources = [
    {
      pkg: 'python3-skimage',
      file: 'usr/lib/python3/dist-packages/skimage/data/astronaut.png',
      truth: { x: 168, y: 62, width: 80, height: 100 },
      note: 'NASA portrait (public domain), frontal, smiling; box hand-marked',
    },
    { pkg: 'opencv-doc', file: 'usr/share/doc/opencv-doc/examples/data/messi5.jpg', truth: { x: 205, y: 68, width: 34, height: 42 }, note: 'small face looking down; box hand-marked' },
  ];
  for (const source of sources) {
    const installed = `/${source.file}`;
    const extracted = path.join(outDir, 'debian', source.pkg, source.file);
    if (fs.existsSync(installed)) found.push({ ...source, file: installed });
    else if (fs.existsSync(extracted) || fetchDebianFile(source.pkg)) found.push({ ...source, file: extracted });
  }
  return found;
}

/** Downloads a Debian package's archive and unpacks it under bench/out/debian (data only, nothing installed). */
function fetchDebianFile(pkg: string): boolean {
  const dir = path.join(outDir, 'debian', pkg);
  try {
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('apt-get', ['download', pkg], { cwd: dir, stdio: 'ignore' });
    const deb = fs.readdirSync(dir).find((f) => f.endsWith('.deb'));
    if (!deb) return false;
    execFileSync('dpkg-deb', ['-x', deb, '.'], { cwd: dir, stdio: 'ignore' });
    return true;
  } catch {
    process.stderr.write(`faces: could not fetch ${pkg} from Debian; skipping its real-face sample\n`);
    return false;
  }
}

/** A TILE-wide 8-bit view of the image with the subject mask tinted and boxes drawn. */
async function tile(image: Image16, faces: FaceBox[], subject: SubjectMask | null): Promise<Buffer> {
  const planes = await downscalePlanes(image, TILE);
  const { width, height, scale } = planes;
  const rgb = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    let m = 0;
    if (subject) {
      const mx = Math.min(subject.width - 1, Math.floor(((i % width) / width) * subject.width));
      const my = Math.min(subject.height - 1, Math.floor((Math.floor(i / width) / height) * subject.height));
      m = subject.mask[my * subject.width + mx]!;
    }
    // Background dimmed, subject left as it is.
    const k = subject ? 0.45 + 0.55 * m : 1;
    rgb[i * 3] = Math.round(planes.r[i]! * 255 * k);
    rgb[i * 3 + 1] = Math.round(planes.g[i]! * 255 * k);
    rgb[i * 3 + 2] = Math.round(planes.b[i]! * 255 * k);
  }
  const draw = (b: Box, colour: [number, number, number]) => {
    const x0 = Math.max(0, Math.round(b.x / scale));
    const y0 = Math.max(0, Math.round(b.y / scale));
    const x1 = Math.min(width - 1, Math.round((b.x + b.width) / scale));
    const y1 = Math.min(height - 1, Math.round((b.y + b.height) / scale));
    for (let x = x0; x <= x1; x++) for (const y of [y0, y1]) rgb.set(colour, (y * width + x) * 3);
    for (let y = y0; y <= y1; y++) for (const x of [x0, x1]) rgb.set(colour, (y * width + x) * 3);
  };
  if (subject) draw(subject.box, [0, 255, 255]);
  for (const f of faces) draw(f, [255, 0, 255]);
  return sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(TILE, TILE, { fit: 'contain', background: '#202020' })
    .png()
    .toBuffer();
}

async function contactSheet(tiles: Buffer[], file: string): Promise<void> {
  const columns = 4;
  const rows = Math.ceil(tiles.length / columns);
  await sharp({ create: { width: columns * TILE, height: rows * TILE, channels: 3, background: '#202020' } })
    .composite(tiles.map((input, i) => ({ input, left: (i % columns) * TILE, top: Math.floor(i / columns) * TILE })))
    .jpeg({ quality: 85 })
    .toFile(file);
}

/** The painted 18 MP face before and after smoothSkin, cropped around the face at full resolution. */
async function retouchSheet(before: Image16, after: Image16, face: Box): Promise<void> {
  const crop = { left: Math.max(0, face.x - 60), top: Math.max(0, face.y - 60), width: face.width + 120, height: face.height + 120 };
  const view = (image: Image16) => sharpFromImage16(image).extract(crop).png().toBuffer();
  await sharp({ create: { width: crop.width * 2, height: crop.height, channels: 3, background: '#000000' } })
    .composite([
      { input: await view(before), left: 0, top: 0 },
      { input: await view(after), left: crop.width, top: 0 },
    ])
    .jpeg({ quality: 90 })
    .toFile(path.join(outDir, 'faces-retouch.jpg'));
}
