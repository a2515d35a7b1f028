import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { linearToSrgb, srgb16ToLinearLut } from '../src/imaging/colour.js';
import { decodeImage } from '../src/imaging/decode.js';
import { alignFrames } from '../src/imaging/hdr/align.js';
import { mergeBrackets } from '../src/imaging/hdr/index.js';
import { lumaOf } from '../src/imaging/hdr/luma.js';
import { shiftFrame } from '../src/imaging/hdr/shift.js';
import { image16FromSharp, resizeImage16, sharpFromImage16 } from '../src/imaging/image16.js';
import { seededRandom } from '../src/imaging/random.js';
import type { Image16 } from '../src/imaging/types.js';
import { mefSsim } from './metrics/mef-ssim.js';
import { outDir, testdataDir, type Section } from './report.js';
import { ensureDebianTool, fixed, medianSeconds, runMeasured } from './tools.js';

/** Exposures of the synthesised brackets, as linear-light gains (−2, 0, +2 EV). */
const GAINS = [0.25, 1, 4];
/** Largest hand-held wobble given to each synthesised frame, in pixels either way. */
const JITTER = 5;
/** Timed runs per set (after one warm-up for ours); the median is reported. */
const RUNS = 3;

interface BracketSet {
  name: string;
  frames: Image16[];
}

function encode(linear: number): number {
  return Math.round(65535 * linearToSrgb(Math.min(1, Math.max(0, linear))));
}

/** −2/0/+2 EV frames of a photo (linear light x0.25, x1, x4, clipped), each cropped at its own random offset. */
function synthesise(photo: Image16, random: () => number): Image16[] {
  const width = photo.width - 2 * JITTER;
  const height = photo.height - 2 * JITTER;
  return GAINS.map((gain) => {
    const decode = srgb16ToLinearLut();
    const lut = new Uint16Array(65536).map((_, v) => encode(decode[v]! * gain));
    const ox = JITTER + Math.round((random() * 2 - 1) * JITTER);
    const oy = JITTER + Math.round((random() * 2 - 1) * JITTER);
    const data = new Uint16Array(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let i = 0, s = ((y + oy) * photo.width + ox) * 3, o = y * width * 3; i < width * 3; i++) data[o + i] = lut[photo.data[s + i]!]!;
    }
    return { width, height, data };
  });
}

async function bracketSets(): Promise<BracketSet[]> {
  const sets: BracketSet[] = [];
  const bracketDir = path.join(testdataDir, 'raw', 'brackets');
  const dngs = fs.readdirSync(bracketDir).filter((f) => f.toLowerCase().endsWith('.dng')).sort();
  const byScene = new Map<string, string[]>();
  for (const f of dngs) {
    const scene = f.replace(/_[^_]+\.dng$/i, '');
    byScene.set(scene, [...(byScene.get(scene) ?? []), f]);
  }
  for (const [scene, files] of byScene) {
    sets.push({ name: `${scene} (DNG)`, frames: await Promise.all(files.map(async (f) => (await decodeImage(fs.readFileSync(path.join(bracketDir, f)))).image)) });
  }
  const random = seededRandom(20240501);
  const photoDir = path.join(testdataDir, 'photos');
  for (const f of fs.readdirSync(photoDir).filter((n) => /\.(jpe?g|png|tiff?)$/i.test(n)).sort()) {
    sets.push({ name: f.replace(/\.[^.]+$/, ''), frames: synthesise(await image16FromSharp(sharp(path.join(photoDir, f))), random) });
  }
  return sets;
}

async function writeTiff16(image: Image16, file: string): Promise<void> {
  await sharpFromImage16(image).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(file);
}

/** One row of labelled tiles, each scaled to the same height, as a JPEG a person can look at. */
async function contactSheet(tiles: { label: string; image: Image16 }[], file: string): Promise<void> {
  const height = 300;
  const scaled = await Promise.all(
    tiles.map(async ({ label, image }) => {
      const width = Math.round((image.width * height) / image.height);
      const caption = Buffer.from(`<svg width="${width}" height="28"><rect width="100%" height="100%" fill="black" opacity="0.6"/><text x="8" y="20" font-family="sans-serif" font-size="18" fill="white">${label}</text></svg>`);
      const input = await sharpFromImage16(image).resize(width, height).toColourspace('srgb').composite([{ input: caption, top: 0, left: 0 }]).png().toBuffer();
      return { input, width };
    }),
  );
  let left = 0;
  const layers = scaled.map(({ input, width }) => {
    const layer = { input, top: 0, left };
    left += width + 4;
    return layer;
  });
  await sharp({ create: { width: left - 4, height, channels: 3, background: '#808080' } }).composite(layers).jpeg({ quality: 88 }).toFile(file);
}

async function enfuseRun(frames: Image16[], workDir: string): Promise<{ image: Image16; seconds: number }> {
  const inputs = frames.map((_, i) => path.join(workDir, `frame${i}.tif`));
  await Promise.all(frames.map((f, i) => writeTiff16(f, inputs[i]!)));
  const output = path.join(workDir, 'enfuse.tif');
  const times: number[] = [];
  for (let r = 0; r < RUNS; r++) times.push((await runMeasured('enfuse', ['-o', output, ...inputs])).seconds);
  times.sort((a, b) => a - b);
  return { image: await image16FromSharp(sharp(output)), seconds: times[Math.floor(RUNS / 2)]! };
}

/**
 * HDR merge quality and speed: MEF-SSIM of our fusion and of enfuse (defaults) on the same
 * aligned frames at the same output size, the reference exposure alone as a floor, and wall times.
 */
export async function evalHdr(): Promise<Section> {
  ensureDebianTool('enfuse', 'enfuse');
  const workDir = path.join(outDir, 'hdr-work');
  fs.mkdirSync(workDir, { recursive: true });
  const rows: string[][] = [];
  const totals = { ours: 0, enfuse: 0, single: 0, oursSeconds: 0, enfuseSeconds: 0, wins: 0, faster: 0 };
  const sets = await bracketSets();
  for (const set of sets) {
    let result = await mergeBrackets(set.frames);
    const oursSeconds = await medianSeconds(async () => (result = await mergeBrackets(set.frames)), RUNS);
    const { image: ours, referenceIndex } = result;

    // enfuse gets our alignment (it has none of its own) on frames resized as ours are.
    const working = await Promise.all(set.frames.map((f) => resizeImage16(f, ours.width, ours.height)));
    const lumas = working.map(lumaOf);
    const aligned = alignFrames(lumas, referenceIndex).map((offset, i) => shiftFrame(working[i]!, lumas[i]!, offset).image);
    const enfuse = await enfuseRun(aligned, workDir);

    const q = { ours: mefSsim(aligned, ours).score, enfuse: mefSsim(aligned, enfuse.image).score, single: mefSsim(aligned, aligned[referenceIndex]!).score };
    totals.ours += q.ours;
    totals.enfuse += q.enfuse;
    totals.single += q.single;
    totals.oursSeconds += oursSeconds;
    totals.enfuseSeconds += enfuse.seconds;
    if (q.ours >= q.enfuse) totals.wins++;
    if (oursSeconds <= 0.5 * enfuse.seconds) totals.faster++;
    const offsets = result.offsets.map((o) => `${Math.round(o.dx)},${Math.round(o.dy)}`).join(' ');
    rows.push([set.name, `${set.frames.length} x ${set.frames[0]!.width}x${set.frames[0]!.height}`, `${ours.width}x${ours.height}`, offsets, fixed(q.ours, 4), fixed(q.enfuse, 4), fixed(q.single, 4), fixed(oursSeconds, 3), fixed(enfuse.seconds, 3), fixed(oursSeconds / enfuse.seconds, 2)]);

    const sheet = path.join(outDir, `hdr-${set.name.replace(/[^\w-]+/g, '_')}.jpg`);
    await contactSheet([...set.frames.map((image, i) => ({ label: `frame ${i}${i === referenceIndex ? ' (ref)' : ''}`, image })), { label: 'enfuse', image: enfuse.image }, { label: 'ours', image: ours }], sheet);
  }
  fs.rmSync(workDir, { recursive: true, force: true });
  const n = sets.length;
  const meanOurs = totals.ours / n;
  const meanEnfuse = totals.enfuse / n;
  const ratio = totals.oursSeconds / totals.enfuseSeconds;
  return {
    title: 'HDR merge: MEF-SSIM and time against enfuse',
    columns: ['set', 'frames', 'output', 'offsets (px)', 'MEF-SSIM ours', 'MEF-SSIM enfuse', 'MEF-SSIM ref frame', 'ours s', 'enfuse s', 'time ratio'],
    rows,
    notes: [
      `Mean MEF-SSIM: ours ${fixed(meanOurs, 4)}, enfuse ${fixed(meanEnfuse, 4)}, reference frame alone ${fixed(totals.single / n, 4)}; ours >= enfuse on ${totals.wins}/${n} sets. Target MEF-SSIM >= enfuse's (mean): ${meanOurs >= meanEnfuse ? 'met' : 'NOT met'}.`,
      `Total time: ours ${fixed(totals.oursSeconds, 2)} s, enfuse ${fixed(totals.enfuseSeconds, 2)} s, ratio ${fixed(ratio, 2)}; ours <= 0.5 x enfuse on ${totals.faster}/${n} sets. Target time <= 0.5 x enfuse's (total): ${ratio <= 0.5 ? 'met' : 'NOT met'}.`,
      'Ours: mergeBrackets with defaults (resize to <= 3000 px long edge, MTB alignment, deghosting, Mertens fusion), timed in-process after decode, median of 3 after a warm-up.',
      'enfuse 4.2 with its default weights, given our aligned frames (resized the same way) as 16-bit TIFFs; timed as a child process (TIFF read/write included), median of 3.',
      `Sets: the DNG brackets decoded with dcraw_emu (stand-in until decodeImage lands), and each photo as a synthetic −2/0/+2 EV bracket (linear x0.25/x1/x4, clipped) with up to ±${JITTER} px of random hand-held shift per frame. MEF-SSIM (Ma, Zeng & Wang 2015) on luminance against the aligned frames at the output size.`,
      'Contact sheets: bench/out/hdr-<set>.jpg (frames | enfuse | ours).',
    ],
  };
}
