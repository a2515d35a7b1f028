import fs from 'node:fs';
import path from 'node:path';
import sharp, { type OverlayOptions, type Sharp } from '../src/imaging/sharp.js';
import { bracketCandidate } from '../src/imaging/bracket-candidate.js';
import { linearToSrgb, srgbToLinear } from '../src/imaging/colour.js';
import { decodeImage } from '../src/imaging/decode.js';
import { alignFrames } from '../src/imaging/hdr/align.js';
import { type BracketCandidate, groupBrackets, mergeBrackets, middleFrame } from '../src/imaging/hdr/index.js';
import { lumaOf } from '../src/imaging/hdr/luma.js';
import { shiftFrame } from '../src/imaging/hdr/shift.js';
import { image16FromSharp, resizeImage16, sharpFromImage16 } from '../src/imaging/image16.js';
import { seededRandom } from '../src/imaging/random.js';
import type { Image16 } from '../src/imaging/types.js';
import { mefSsim } from './metrics/mef-ssim.js';
import { spuriousChroma, SPURIOUS_THRESHOLD } from './metrics/spurious-chroma.js';
import { outDir, testdataDir, type Section } from './report.js';
import { ensureDebianTool, fixed, runMeasured } from './tools.js';
import { caption } from './caption.js';
import { isHeldOut } from './autoedit/corpus.js';

/** Exposures of the synthesised brackets, in EV. */
export const EVS = [-2, 0, 2];
/** Stops of the smooth illumination ramp across a synthesised scene (dark left, bright right). */
export const RAMP_STOPS = 6;
/** Long edge the photos are brought to before synthesis: the whole eval takes minutes, not tens. */
const SCENE_LONG_EDGE = 1600;
/** Largest hand-held shift of a frame, in pixels either way. */
export const JITTER = 6;
/** JPEG quality of the synthesised frames, as a camera or an export writes them (4:2:0 chroma). */
const JPEG_QUALITY = 90;
/** Side of the 100 % crops on the contact sheets. */
const CROP = 192;

/** Which corpus photos an eval synthesises brackets from (issue 10's split). */
type EvalSide = 'held-out' | 'fitting';

interface BracketSet {
  name: string;
  side: 'held-out' | 'fitting' | 'DNG';
  frames: Image16[];
  /** The frames as uploaded (JPEG, no EXIF), for grouping; none for the DNG brackets (grouped by EXIF). */
  uploads?: { fileName: string; bytes: Buffer; ev: number }[];
}

export interface Scene {
  width: number;
  height: number;
  linear: Float32Array;
}

/** How a synthesised scene is lit: stops of the ramp, and the photo's contrast in linear light (1: as it is). */
export interface SceneLight {
  stops: number;
  contrast: number;
}

/**
 * A photo's linear light times a smooth left-to-right ramp of RAMP_STOPS stops: a high-dynamic-range
 * scene. look changes the photo first (at SCENE_LONG_EDGE), e.g. softens it into a low-texture scene;
 * light can flatten the ramp, and scale each value's distance from the photo's mean linear light
 * (contrast below 1: a pastel scene, paler in linear light as haze or twilight makes it).
 */
export async function hdrScene(file: string, margin: number, look: (photo: Sharp) => Sharp = (photo) => photo, light: SceneLight = { stops: RAMP_STOPS, contrast: 1 }): Promise<Scene> {
  const { data, info } = await look(sharp(file).rotate().resize(SCENE_LONG_EDGE, SCENE_LONG_EDGE, { fit: 'inside' }).removeAlpha())
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const { stops, contrast } = light;
  let mean = 0;
  if (contrast !== 1) {
    for (let i = 0; i < data.length; i++) mean += srgbToLinear(data[i]! / 255);
    mean /= data.length;
  }
  const linear = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ramp = 2 ** (stops * ((x - margin) / (width - 2 * margin)) - stops / 2);
      for (let c = 0, i = (y * width + x) * 3; c < 3; c++, i++) {
        const photo = srgbToLinear(data[i]! / 255);
        linear[i] = (contrast === 1 ? photo : mean + contrast * (photo - mean)) * ramp;
      }
    }
  }
  return { width, height, linear };
}

/** One exposure of a scene as a JPEG without EXIF: ev applied in linear light, clipped, cropped at (left, top). */
export async function shoot(scene: Scene, ev: number, left: number, top: number, width: number, height: number): Promise<Buffer> {
  const gain = 2 ** ev;
  const out = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0, o = y * width * 3, s = ((y + top) * scene.width + left) * 3; x < width * 3; x++) out[o + x] = Math.round(255 * linearToSrgb(Math.min(1, scene.linear[s + x]! * gain)));
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer();
}

/**
 * A near-duplicate series of a scene, not a bracket: three 75 % crops from spots least to
 * least + spread of the width apart (left, centre, right; up to ±2 % of the height up or down),
 * exposed at exposure(k) EV for spot k.
 */
export async function nearDuplicates(scene: Scene, random: () => number, [least, spread]: [number, number], exposure: (k: number) => number): Promise<Buffer[]> {
  const cropW = Math.round(scene.width * 0.75);
  const cropH = Math.round(scene.height * 0.75);
  const step = () => Math.round((least + spread * random()) * scene.width);
  const centre = Math.round((scene.width - cropW) / 2);
  const lefts = [centre - step(), centre, centre + step()].map((l) => Math.max(0, Math.min(scene.width - cropW, l)));
  const top = Math.round((scene.height - cropH) / 2);
  return Promise.all(lefts.map((left, k) => shoot(scene, exposure(k), left, top + Math.round((random() * 2 - 1) * 0.02 * scene.height), cropW, cropH)));
}

/** Upload orders cameras and people produce: ascending, Canon-style 0/−/+, and descending. */
export const ORDERS = [
  [0, 1, 2],
  [1, 0, 2],
  [2, 1, 0],
];

/**
 * The photos brackets are synthesised from: for the held-out eval the held-out corpus photos and
 * testdata/photos; for the fitting-side eval the corpus photos kept for fitting.
 */
function sourcePhotos(side: EvalSide): { file: string; side: 'held-out' | 'fitting' }[] {
  const corpusDir = path.join(testdataDir, 'corpus');
  const photoDir = path.join(testdataDir, 'photos');
  const corpus = fs
    .readdirSync(corpusDir)
    .filter((f) => /\.jpe?g$/i.test(f) && isHeldOut(f) === (side === 'held-out'))
    .sort()
    .map((f) => ({ file: path.join(corpusDir, f), side }));
  if (side === 'fitting') return corpus;
  const photos = fs
    .readdirSync(photoDir)
    .filter((f) => /\.(jpe?g|png|tiff?)$/i.test(f))
    .sort()
    .map((f) => ({ file: path.join(photoDir, f), side: 'fitting' as const }));
  return [...corpus, ...photos];
}

async function jpegSets(random: () => number, side: EvalSide): Promise<{ sets: BracketSet[]; series: { name: string; uploads: { fileName: string; bytes: Buffer }[] }[] }> {
  const sources = sourcePhotos(side);
  const sets: BracketSet[] = [];
  const series: { name: string; uploads: { fileName: string; bytes: Buffer }[] }[] = [];
  for (const [index, { file, side }] of sources.entries()) {
    const name = path.basename(file).replace(/\.[^.]+$/, '');
    const scene = await hdrScene(file, 0);
    // Brackets: frames cropped JITTER px in from every side, each moved by up to ±JITTER px.
    const width = scene.width - 2 * JITTER;
    const height = scene.height - 2 * JITTER;
    const jitter = () => JITTER + Math.round((random() * 2 - 1) * JITTER);
    const shots = await Promise.all(EVS.map((ev) => shoot(scene, ev, jitter(), jitter(), width, height)));
    const order = ORDERS[index % ORDERS.length]!;
    const uploads = order.map((k, position) => ({ fileName: `${name}_${position + 1}.jpg`, bytes: shots[k]!, ev: EVS[k]! }));
    const frames = await Promise.all(shots.map(async (bytes) => (await decodeImage(bytes)).image));
    sets.push({ name, side, frames, uploads });
    // Auto-exposure wandering up to ±0.8 EV.
    const spots = await nearDuplicates(scene, random, [0.08, 0.06], () => (random() * 2 - 1) * 0.8);
    series.push({ name, uploads: spots.map((bytes, i) => ({ fileName: `${name}_spot${i + 1}.jpg`, bytes })) });
  }
  return { sets, series };
}

async function dngSets(): Promise<BracketSet[]> {
  const bracketDir = path.join(testdataDir, 'raw', 'brackets');
  const dngs = fs
    .readdirSync(bracketDir)
    .filter((f) => f.toLowerCase().endsWith('.dng'))
    .sort();
  const byScene = new Map<string, string[]>();
  for (const f of dngs) {
    const scene = f.replace(/_[^_]+\.dng$/i, '');
    byScene.set(scene, [...(byScene.get(scene) ?? []), f]);
  }
  const sets: BracketSet[] = [];
  for (const [scene, files] of byScene) {
    sets.push({ name: `${scene} (DNG)`, side: 'DNG', frames: await Promise.all(files.map(async (f) => (await decodeImage(fs.readFileSync(path.join(bracketDir, f)))).image)) });
  }
  return sets;
}

async function writeTiff16(image: Image16, file: string): Promise<void> {
  await sharpFromImage16(image).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(file);
}

async function enfuse(frames: Image16[], workDir: string): Promise<Image16> {
  const inputs = frames.map((_, i) => path.join(workDir, `frame${i}.tif`));
  await Promise.all(frames.map((f, i) => writeTiff16(f, inputs[i]!)));
  const output = path.join(workDir, 'enfuse.tif');
  await runMeasured('enfuse', ['-o', output, ...inputs]);
  return image16FromSharp(sharp(output));
}

/** Top-left corners of the smoothest mid-grey CROP x CROP window and of the one with the most edges, on a luma image. */
function cropSites(image: Image16): { smooth: { left: number; top: number }; edges: { left: number; top: number } } {
  const luma = lumaOf(image);
  const { width, height, data } = luma;
  let smooth = { left: 0, top: 0, energy: Infinity };
  let edges = { left: 0, top: 0, energy: -Infinity };
  for (let top = 0; top + CROP <= height; top += CROP / 2) {
    for (let left = 0; left + CROP <= width; left += CROP / 2) {
      let energy = 0;
      let mean = 0;
      for (let y = top; y < top + CROP - 1; y += 2) {
        for (let x = left, i = y * width + left; x < left + CROP - 1; x += 2, i += 2) {
          energy += Math.abs(data[i + 1]! - data[i]!) + Math.abs(data[i + width]! - data[i]!);
          mean += data[i]!;
        }
      }
      mean /= (CROP / 2) * (CROP / 2);
      if (mean > 0.25 && mean < 0.85 && energy < smooth.energy) smooth = { left, top, energy };
      if (energy > edges.energy) edges = { left, top, energy };
    }
  }
  return { smooth, edges };
}

/** Rows of 100 % crops (smooth area, edges): each frame, enfuse, ours; labelled, as a JPEG to look at. */
async function contactSheet(frames: Image16[], results: { label: string; image: Image16 }[], file: string): Promise<void> {
  const tiles = [...frames.map((image, i) => ({ label: `frame ${i}`, image })), ...results];
  const sites = cropSites(results[results.length - 1]!.image);
  const layers: OverlayOptions[] = [];
  const rows = [sites.smooth, sites.edges];
  for (const [r, site] of rows.entries()) {
    for (const [t, { label, image }] of tiles.entries()) {
      const tile = await sharpFromImage16(image)
        .extract({ left: site.left, top: site.top, width: CROP, height: CROP })
        .toColourspace('srgb')
        .composite([{ input: caption(`${label} ${r === 0 ? 'smooth' : 'edges'}`, CROP, 20, { fontSize: 13, colour: 'white', band: true }), top: 0, left: 0 }])
        .png()
        .toBuffer();
      layers.push({ input: tile, left: t * (CROP + 4), top: r * (CROP + 4) });
    }
  }
  await sharp({ create: { width: tiles.length * (CROP + 4) - 4, height: rows.length * (CROP + 4) - 4, channels: 3, background: '#808080' } })
    .composite(layers)
    .jpeg({ quality: 92 })
    .toFile(file);
}

/** The held-out eval (`eval hdr`): held-out corpus photos, testdata/photos and the DNG brackets; run once per candidate shipped. */
export function evalHdr(): Promise<Section> {
  return hdrEval('held-out');
}

/** The same eval on the corpus photos kept for fitting (`eval hdr-fitting`): where grouping and fusion may be studied and tuned. */
export function evalHdrFitting(): Promise<Section> {
  return hdrEval('fitting');
}

/**
 * HDR on real-world brackets: grouping without EXIF or manifest, and fusion quality and
 * artifacts against enfuse on the same aligned frames at the same size.
 */
async function hdrEval(side: EvalSide): Promise<Section> {
  ensureDebianTool('enfuse', 'enfuse');
  const workDir = path.join(outDir, `hdr-work-${side}`);
  fs.mkdirSync(workDir, { recursive: true });
  const random = seededRandom(20261125);
  const { sets: jpeg, series } = await jpegSets(random, side);
  const sets = [...(side === 'held-out' ? await dngSets() : []), ...jpeg];

  // Grouping as the service does it for one project holding every upload: metadata and thumbnails, no manifest.
  const uploads = [...jpeg.flatMap((s) => s.uploads!), ...series.flatMap((s) => s.uploads)];
  const candidates: BracketCandidate[] = [];
  for (const u of uploads) candidates.push(await bracketCandidate(u.bytes, u.fileName));
  const groups = groupBrackets(candidates);
  const groupOf = new Map(groups.flatMap((g) => g.map((name) => [name, g] as const)));
  const byName = new Map(candidates.map((c) => [c.fileName, c]));
  const mergedSeries = series.filter((s) => s.uploads.some((u) => groupOf.get(u.fileName)!.length > 1));

  const rows: string[][] = [];
  const tally = { sets: 0, grouped: 0, misgrouped: 0, named: 0, qualityWins: 0, artifactWins: 0, ours: 0, enfuse: 0 };
  for (const set of sets) {
    const merged = await mergeBrackets(set.frames);
    const ours = merged.image;
    const working = await Promise.all(set.frames.map((f) => resizeImage16(f, ours.width, ours.height)));
    const lumas = working.map(lumaOf);
    const aligned = alignFrames(lumas, merged.referenceIndex).map((offset, i) => shiftFrame(working[i]!, lumas[i]!, offset).image);
    const theirs = await enfuse(aligned, workDir);
    const q = { ours: mefSsim(aligned, ours).score, enfuse: mefSsim(aligned, theirs).score };
    const a = { ours: spuriousChroma(aligned, ours), enfuse: spuriousChroma(aligned, theirs) };

    let grouping = 'EXIF';
    let naming = '-';
    if (set.uploads) {
      const names = set.uploads.map((u) => u.fileName);
      const group = groupOf.get(names[0]!)!;
      const exact = group.length === names.length && names.every((n) => group.includes(n));
      const stray = group.some((n) => !names.includes(n));
      grouping = exact ? 'yes' : stray ? 'MIS-GROUPED' : 'NO';
      if (exact) tally.grouped++;
      if (stray) tally.misgrouped++;
      const middle = set.uploads.find((u) => u.ev === 0)!.fileName;
      const named = middleFrame(names.map((n) => byName.get(n)!));
      naming = named === middle ? `${named} (0 EV)` : `${named} (NOT 0 EV)`;
      if (named === middle) tally.named++;
    }
    tally.sets++;
    tally.ours += q.ours;
    tally.enfuse += q.enfuse;
    if (q.ours >= q.enfuse) tally.qualityWins++;
    if (a.ours.share <= a.enfuse.share) tally.artifactWins++;
    const offsets = merged.offsets.map((o) => `${Math.round(o.dx)},${Math.round(o.dy)}`).join(' ');
    rows.push([
      set.name,
      set.side,
      `${ours.width}x${ours.height}`,
      offsets,
      grouping,
      naming,
      fixed(q.ours, 4),
      fixed(q.enfuse, 4),
      `${fixed(100 * a.ours.share, 1)} / ${fixed(1000 * a.ours.mean, 1)}`,
      `${fixed(100 * a.enfuse.share, 1)} / ${fixed(1000 * a.enfuse.mean, 1)}`,
    ]);
    await contactSheet(
      aligned,
      [
        { label: 'enfuse', image: theirs },
        { label: 'ours', image: ours },
      ],
      path.join(outDir, `hdr-${side === 'fitting' ? 'fitting-' : ''}${set.name.replace(/[^\w-]+/g, '_')}.jpg`),
    );
  }
  fs.rmSync(workDir, { recursive: true, force: true });
  const n = tally.sets;
  const jpegCount = jpeg.length;
  return {
    title: side === 'held-out' ? 'HDR merge: grouping without EXIF, MEF-SSIM and spurious chroma against enfuse' : 'HDR merge on the fitting side: grouping without EXIF, MEF-SSIM and spurious chroma against enfuse',
    columns: ['set', 'side', 'output', 'offsets (px)', 'grouped', 'named after', 'MEF-SSIM ours', 'MEF-SSIM enfuse', 'spurious chroma ours (% blocks / mean e-3)', 'spurious chroma enfuse'],
    rows,
    notes: [
      `Grouping (no EXIF, no manifest, ${uploads.length} uploads in one project): ${tally.grouped}/${jpegCount} brackets found exactly, ${tally.misgrouped} mis-grouped; ${mergedSeries.length}/${series.length} near-duplicate series merged${mergedSeries.length ? ` (${mergedSeries.map((s) => s.name).join(', ')})` : ''}; merged output named after the 0 EV frame for ${tally.named}/${jpegCount}. Targets: zero ungrouped ${tally.grouped === jpegCount ? 'met' : 'NOT met'}, zero mis-grouped among >= 10 series ${tally.misgrouped === 0 && mergedSeries.length === 0 && series.length >= 10 ? 'met' : 'NOT met'}.`,
      `MEF-SSIM: mean ours ${fixed(tally.ours / n, 4)}, enfuse ${fixed(tally.enfuse / n, 4)}; ours >= enfuse on ${tally.qualityWins}/${n} sets. Target (every set): ${tally.qualityWins === n ? 'met' : 'NOT met'}.`,
      `Spurious chroma (share of 4 x 4 blocks whose linear rg chromaticity lies more than ${SPURIOUS_THRESHOLD} from every blend of two frames' colours there, bench/metrics/spurious-chroma.ts): ours <= enfuse on ${tally.artifactWins}/${n} sets. Target (within enfuse's, every set): ${tally.artifactWins === n ? 'met' : 'NOT met'}.`,
      `Sets: ${side === 'held-out' ? "the DNG brackets in raw/brackets (decodeImage), and each photo (held-out corpus photos by issue 10's split, and testdata/photos, the fitting side)" : "each corpus photo issue 10's split keeps for fitting (held-out ones are in eval hdr)"} at ${SCENE_LONG_EDGE} px times a smooth ${RAMP_STOPS}-stop illumination ramp, exposed at ${EVS.join('/')} EV in linear light, clipped, cropped with up to ±${JITTER} px of hand-held shift, saved as JPEG q${JPEG_QUALITY} without EXIF, uploaded in varying exposure orders. Near-duplicate series: per photo three 75 % crops 8-14 % of the width apart, ±0.8 EV.`,
      'Grouping runs what the service runs (bracketCandidate: metadata + 160 px luma thumbnail, then groupBrackets) over all uploads at once. Fusion: mergeBrackets with defaults; enfuse 4.2 (defaults) on our aligned frames as 16-bit TIFFs; both scored against those aligned frames. Speed is in `npm run bench -- hdr`.',
      `Contact sheets: bench/out/hdr-${side === 'fitting' ? 'fitting-' : ''}<set>.jpg, 100 % crops of the smoothest mid-grey area and of the busiest edges: frames | enfuse | ours.`,
    ],
  };
}
