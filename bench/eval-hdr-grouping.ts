import fs from 'node:fs';
import path from 'node:path';
import type { Sharp } from '../src/imaging/sharp.js';
import { bracketCandidate } from '../src/imaging/bracket-candidate.js';
import { type BracketCandidate, groupBrackets, matchScenes, MIN_SIMILARITY, MIN_UNIQUENESS, type SceneMatch } from '../src/imaging/hdr/index.js';
import { seededRandom } from '../src/imaging/random.js';
import { isHeldOut } from './autoedit/corpus.js';
import { EVS, hdrScene, JITTER, nearDuplicates, shoot } from './eval-hdr.js';
import { testdataDir, type Section } from './report.js';
import { fixed } from './tools.js';

/**
 * Looks a photo is given before synthesis: as it is, softened (low texture), and pastel (softer,
 * paler, half the contrast), the scenes where structure alone says least about the viewpoint.
 */
const LOOKS: { name: string; look: (photo: Sharp) => Sharp }[] = [
  { name: 'photo', look: (photo) => photo },
  { name: 'soft', look: (photo) => photo.blur(12) },
  { name: 'pastel', look: (photo) => photo.blur(20).modulate({ saturation: 0.4 }).linear(0.5, 100) },
];

/** Steps between the spots of a near-duplicate series: the main eval's (8-14 % of the width) and closer ones. */
const STEPS: [number, number][] = [
  [0.08, 0.06],
  [0.04, 0.04],
];

/** Whether a pair passes every content-grouping test but the viewpoint one (the pairs that rule decides). */
function decidedByViewpoint(m: SceneMatch): boolean {
  return m.similarity >= MIN_SIMILARITY && !m.atSearchLimit;
}

async function candidates(shots: Buffer[], prefix: string): Promise<BracketCandidate[]> {
  return Promise.all(shots.map((bytes, i) => bracketCandidate(bytes, `${prefix}_${i + 1}.jpg`)));
}

/**
 * Content grouping on the fitting side only (testdata/photos and the corpus photos issue 10's split
 * keeps for fitting), where its thresholds are chosen: per photo and look, a hand-held bracket
 * (−2/0/+2 EV as in `eval hdr`) and near-duplicate series whose exposures differ by 0.8 EV (so that
 * only structure and viewpoint can keep them apart), each grouped on its own.
 */
export async function evalHdrGrouping(): Promise<Section> {
  const corpusDir = path.join(testdataDir, 'corpus');
  const photoDir = path.join(testdataDir, 'photos');
  const files = [
    ...fs
      .readdirSync(corpusDir)
      .filter((f) => /\.jpe?g$/i.test(f) && !isHeldOut(f))
      .sort()
      .map((f) => path.join(corpusDir, f)),
    ...fs
      .readdirSync(photoDir)
      .filter((f) => /\.(jpe?g|png|tiff?)$/i.test(f))
      .sort()
      .map((f) => path.join(photoDir, f)),
  ];
  const random = seededRandom(20261126);
  const rows: string[][] = [];
  const tally = { brackets: 0, grouped: 0, series: 0, merged: 0 };
  let weakestBracket = { uniqueness: Infinity, name: '' };
  let closestSeries = { uniqueness: -Infinity, name: '' };
  for (const file of files) {
    const name = path.basename(file).replace(/\.[^.]+$/, '');
    const cells = [name];
    for (const { name: lookName, look } of LOOKS) {
      const scene = await hdrScene(file, 0, look);
      const width = scene.width - 2 * JITTER;
      const height = scene.height - 2 * JITTER;
      const jitter = () => JITTER + Math.round((random() * 2 - 1) * JITTER);
      const bracket = await candidates(await Promise.all(EVS.map((ev) => shoot(scene, ev, jitter(), jitter(), width, height))), `${name}-${lookName}`);
      const grouped = groupBrackets(bracket).length === 1;
      const middle = bracket[EVS.indexOf(0)]!.thumbnail!;
      // Each frame joins through the 0 EV frame; the weaker of those two links.
      const link = Math.min(...bracket.filter((f) => f.thumbnail !== middle).map((f) => matchScenes(middle, f.thumbnail!).uniqueness));
      tally.brackets++;
      if (grouped) tally.grouped++;
      if (link < weakestBracket.uniqueness) weakestBracket = { uniqueness: link, name: `${name} (${lookName})` };
      const seriesCells: string[] = [];
      for (const steps of STEPS) {
        const evs = [
          [-0.8, 0, 0.8],
          [0.8, -0.8, 0],
          [0, 0.8, -0.8],
        ][Math.floor(random() * 3)]!;
        const series = await candidates(await nearDuplicates(scene, random, steps, (k) => evs[k]!), `${name}-${lookName}-spot`);
        const merged = groupBrackets(series).length < series.length;
        const decided = [
          [0, 1],
          [1, 2],
          [0, 2],
        ]
          .map(([a, b]) => matchScenes(series[a!]!.thumbnail!, series[b!]!.thumbnail!))
          .filter(decidedByViewpoint)
          .map((m) => m.uniqueness);
        const closest = decided.length > 0 ? Math.max(...decided) : null;
        tally.series++;
        if (merged) tally.merged++;
        if (closest !== null && closest > closestSeries.uniqueness) closestSeries = { uniqueness: closest, name: `${name} (${lookName}, ${Math.round(100 * steps[0])} %)` };
        seriesCells.push(`${merged ? 'MERGED' : 'apart'}${closest === null ? '' : ` ${fixed(closest, 2)}`}`);
      }
      cells.push(`${grouped ? 'yes' : 'NO'} ${fixed(link, 2)}`, seriesCells.join(' / '));
    }
    rows.push(cells);
  }
  return {
    title: 'HDR content grouping on the fitting side: brackets and near-duplicate series of soft and pastel scenes',
    columns: ['photo', ...LOOKS.flatMap(({ name }) => [`${name}: bracket grouped, uniqueness`, `${name}: series 8-14 % / 4-8 %`])],
    rows,
    notes: [
      `Brackets grouped: ${tally.grouped}/${tally.brackets}; near-duplicate series merged: ${tally.merged}/${tally.series}.`,
      `Uniqueness (matchScenes: how much better the hand-held alignment fits than any other viewpoint within 20 % of the long edge; grouping needs more than ${MIN_UNIQUENESS}): weakest link of a bracket to its 0 EV frame ${fixed(weakestBracket.uniqueness, 2)} (${weakestBracket.name}); highest of a series pair that passes the other tests (similarity >= ${MIN_SIMILARITY}, best shift not on the rim) ${Number.isFinite(closestSeries.uniqueness) ? `${fixed(closestSeries.uniqueness, 2)} (${closestSeries.name})` : 'none'}.`,
      `Cells: bracket "yes/NO <weaker link's uniqueness>"; series "apart/MERGED <highest uniqueness among pairs passing the other tests>" for spots 8-14 % and 4-8 % of the width apart.`,
      `Scenes as in eval hdr (photo at 1600 px times a 6-stop ramp, JPEG q90, no EXIF, ±${JITTER} px shifts); looks: soft = Gaussian blur σ 12 px, pastel = σ 20, saturation 0.4, contrast 0.5. Series: 75 % crops, exposures −0.8/0/+0.8 EV in random order. Only fitting-side photos: thresholds are chosen here, the held-out verdict is eval hdr's.`,
    ],
  };
}
