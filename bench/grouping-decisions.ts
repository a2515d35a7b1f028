import path from 'node:path';
import type { Sharp } from '../src/imaging/sharp.js';
import { bracketCandidate } from '../src/imaging/bracket-candidate.js';
import { type BracketCandidate, contentLinkFailures, groupBrackets, matchScenes } from '../src/imaging/hdr/index.js';
import { seededRandom } from '../src/imaging/random.js';
import { fittingPhotos, PASTEL } from './eval-hdr-grouping.js';
import { EVS, hdrScene, JITTER, nearDuplicates, ORDERS, RAMP_STOPS, type Scene, type SceneLight, shoot } from './eval-hdr.js';
import { fixed } from './tools.js';

/**
 * Why content grouping leaves a bracket apart, on the fitting side only: per look, one project
 * holding every fitting photo's bracket and near-duplicate series (as `eval hdr` uploads them, so
 * other sets' frames may steal or block), grouped once; for each bracket not found exactly, every
 * pair of its frames with the test that rejects the link, and where its frames went.
 *
 *   node dist/bench/grouping-decisions.js [look ...]
 */

/** Evening colours: warm highlights, blue shadows (a dusk sky over water). */
const EVENING: [[number, number, number], [number, number, number], [number, number, number]] = [
  [0.9, 0.15, 0.05],
  [0.1, 0.7, 0.1],
  [0.15, 0.25, 0.85],
];

interface Look {
  name: string;
  look: (photo: Sharp) => Sharp;
  light?: SceneLight;
  /** Stops the whole scene is darkened by after the ramp (dusk). */
  darken?: number;
  /** The lower half replaced by the upper half mirrored at this share of its light (a lake's reflection). */
  reflection?: number;
}

const LOOKS: Look[] = [
  { name: 'pastel', look: PASTEL },
  { name: 'pastel-dusk', look: PASTEL, darken: 2 },
  { name: 'pastel-evening', look: (photo) => PASTEL(photo).recomb(EVENING), darken: 1.5 },
  { name: 'linear-pastel-dusk', look: (photo) => photo.blur(20).modulate({ saturation: 0.4 }).recomb(EVENING), light: { stops: RAMP_STOPS, contrast: 0.35 }, darken: 2 },
  { name: 'pastel-4-stop-dusk', look: PASTEL, light: { stops: 4, contrast: 1 }, darken: 2.5 },
  { name: 'lake-twilight', look: (photo) => PASTEL(photo).recomb(EVENING), darken: 1.5, reflection: 0.6 },
  { name: 'lake-twilight-linear', look: (photo) => photo.blur(20).modulate({ saturation: 0.4 }).recomb(EVENING), light: { stops: RAMP_STOPS, contrast: 0.35 }, darken: 2, reflection: 0.6 },
  { name: 'high-key', look: (photo) => photo.blur(2).modulate({ saturation: 0.5 }).linear(0.3, 160) },
];

/** The look's light after the ramp: darkened, and the lower half a dimmed mirror of the upper (a lake at dusk). */
function relit(scene: Scene, { darken = 0, reflection }: Look): Scene {
  const gain = 2 ** -darken;
  const { width, height } = scene;
  const linear = scene.linear.map((v) => v * gain);
  if (reflection !== undefined) {
    const half = Math.floor(height / 2);
    for (let y = half; y < height; y++) {
      const from = Math.max(0, 2 * half - 1 - y);
      for (let i = 0; i < width * 3; i++) linear[y * width * 3 + i] = reflection * linear[from * width * 3 + i]!;
    }
  }
  return { width, height, linear };
}

function describe(a: BracketCandidate, b: BracketCandidate): string {
  const m = matchScenes(a.thumbnail!, b.thumbnail!);
  const failed = contentLinkFailures(m);
  return `  ${a.fileName} -> ${b.fileName}: similarity ${fixed(m.similarity, 3)}, shift ${m.dx},${m.dy}${m.atSearchLimit ? ' (rim)' : ''}, uniqueness ${fixed(m.uniqueness, 3)}, ev ${fixed(m.ev, 2)}, dominance ${fixed(m.dominance, 3)}: ${failed.length ? `FAILS ${failed.join(', ')}` : 'links'}`;
}

async function project(look: Look, files: string[]): Promise<string[]> {
  const random = seededRandom(20261125);
  const sets: { name: string; frames: BracketCandidate[] }[] = [];
  const series: BracketCandidate[] = [];
  for (const [index, file] of files.entries()) {
    const name = path.basename(file).replace(/\.[^.]+$/, '');
    const scene = relit(await hdrScene(file, 0, look.look, look.light), look);
    const width = scene.width - 2 * JITTER;
    const height = scene.height - 2 * JITTER;
    const jitter = () => JITTER + Math.round((random() * 2 - 1) * JITTER);
    const shots = await Promise.all(EVS.map((ev) => shoot(scene, ev, jitter(), jitter(), width, height)));
    const order = ORDERS[index % ORDERS.length]!;
    sets.push({ name, frames: await Promise.all(order.map((k, position) => bracketCandidate(shots[k]!, `${name}_${position + 1}_${EVS[k]}EV.jpg`))) });
    const spots = await nearDuplicates(scene, random, [0.08, 0.06], () => (random() * 2 - 1) * 0.8);
    series.push(...(await Promise.all(spots.map((bytes, i) => bracketCandidate(bytes, `${name}_spot${i + 1}.jpg`)))));
  }
  const groups = groupBrackets([...sets.flatMap((s) => s.frames), ...series]);
  const groupOf = new Map(groups.flatMap((g) => g.map((n) => [n, g] as const)));
  const lines: string[] = [];
  let grouped = 0;
  for (const { name, frames } of sets) {
    const names = frames.map((f) => f.fileName);
    const group = groupOf.get(names[0]!)!;
    if (group.length === names.length && names.every((n) => group.includes(n))) {
      grouped++;
      continue;
    }
    lines.push(`${look.name} ${name}: NOT grouped; its frames went to ${names.map((n) => `[${groupOf.get(n)!.join(' ')}]`).join(' ')}`);
    for (let j = 1; j < frames.length; j++) for (let i = 0; i < j; i++) lines.push(describe(frames[i]!, frames[j]!));
  }
  const merged = new Set(series.filter((f) => groupOf.get(f.fileName)!.length > 1).map((f) => f.fileName.replace(/_spot\d\.jpg$/, '')));
  lines.unshift(`${look.name}: ${grouped}/${sets.length} brackets grouped exactly, ${merged.size}/${sets.length} series merged${merged.size ? ` (${[...merged].join(', ')})` : ''}, ${groups.length} groups from ${sets.length * 6} uploads`);
  return lines;
}

const files = fittingPhotos();
const wanted = process.argv.slice(2);
for (const look of LOOKS.filter((l) => wanted.length === 0 || wanted.includes(l.name))) {
  console.log((await project(look, files)).join('\n'));
}
