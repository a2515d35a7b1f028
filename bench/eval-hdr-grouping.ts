import fs from 'node:fs';
import path from 'node:path';
import type { Sharp } from '../src/imaging/sharp.js';
import { bracketCandidate } from '../src/imaging/bracket-candidate.js';
import { type BracketCandidate, groupBrackets, matchScenes, MIN_SIMILARITY, MIN_UNIQUENESS, type SceneMatch } from '../src/imaging/hdr/index.js';
import { seededRandom } from '../src/imaging/random.js';
import { isHeldOut } from './autoedit/corpus.js';
import { EVS, hdrScene, JITTER, nearDuplicates, RAMP_STOPS, type SceneLight, shoot } from './eval-hdr.js';
import { testdataDir, type Section } from './report.js';
import { fixed } from './tools.js';

export const PASTEL = (photo: Sharp) => photo.blur(20).modulate({ saturation: 0.4 }).linear(0.5, 100);

/**
 * Looks a photo is given before synthesis: as it is, softened (low texture), and pastel (softer,
 * paler, half the contrast), the scenes where structure alone says least about the viewpoint; and
 * two harder ones on a flattened ramp (2 stops), where a pastel scene's +2 EV frame is mostly
 * white: pastel as above, and pastel in linear light (blurred, desaturated, contrast 0.35 about
 * the mean linear light).
 */
const LOOKS: { name: string; look: (photo: Sharp) => Sharp; light?: SceneLight }[] = [
  { name: 'photo', look: (photo) => photo },
  { name: 'soft', look: (photo) => photo.blur(12) },
  { name: 'pastel', look: PASTEL },
  { name: 'pastel, 2-stop ramp', look: PASTEL, light: { stops: 2, contrast: 1 } },
  { name: 'linear pastel, 2-stop ramp', look: (photo) => photo.blur(20).modulate({ saturation: 0.4 }), light: { stops: 2, contrast: 0.35 } },
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

/** The photos content grouping is tuned on: testdata/photos and the corpus photos issue 10's split keeps for fitting. */
export function fittingPhotos(): string[] {
  const corpusDir = path.join(testdataDir, 'corpus');
  const photoDir = path.join(testdataDir, 'photos');
  return [
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
  const files = fittingPhotos();
  // The flattened-ramp looks draw from their own sequence, so the first three looks' scenes stay as they were.
  const randoms = { asBefore: seededRandom(20261126), flattened: seededRandom(20261202) };
  const rows: string[][] = [];
  const tally = { brackets: 0, grouped: 0, series: 0, merged: 0 };
  let weakestBracket = { uniqueness: Infinity, name: '' };
  let closestSeries = { uniqueness: -Infinity, name: '' };
  // Per look: the weakest bracket link and the highest series pair the viewpoint rule decides (the margin between them).
  const margins = new Map(LOOKS.map(({ name }) => [name, { bracket: Infinity, series: -Infinity, grouped: 0, merged: 0 }]));
  for (const file of files) {
    const name = path.basename(file).replace(/\.[^.]+$/, '');
    const cells = [name];
    for (const { name: lookName, look, light } of LOOKS) {
      const scene = await hdrScene(file, 0, look, light);
      const random = light ? randoms.flattened : randoms.asBefore;
      const margin = margins.get(lookName)!;
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
      if (grouped) margin.grouped++;
      margin.bracket = Math.min(margin.bracket, link);
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
        if (merged) margin.merged++;
        if (closest !== null) margin.series = Math.max(margin.series, closest);
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
      `Per look (brackets grouped; series merged; weakest bracket link's uniqueness | highest series pair's deciding uniqueness): ${[...margins].map(([look, m]) => `${look} ${m.grouped}/${files.length}; ${m.merged}/${2 * files.length}; ${fixed(m.bracket, 2)} | ${Number.isFinite(m.series) ? fixed(m.series, 2) : 'none'}`).join('; ')}.`,
      `Cells: bracket "yes/NO <weaker link's uniqueness>"; series "apart/MERGED <highest uniqueness among pairs passing the other tests>" for spots 8-14 % and 4-8 % of the width apart.`,
      `Scenes as in eval hdr (photo at 1600 px times a ${RAMP_STOPS}-stop ramp, JPEG q90, no EXIF, ±${JITTER} px shifts); looks: soft = Gaussian blur σ 12 px, pastel = σ 20, saturation 0.4, contrast 0.5 (encoded); on a 2-stop ramp, that pastel and a linear-light one (σ 20, saturation 0.4, contrast 0.35 about the mean linear light). Series: 75 % crops, exposures −0.8/0/+0.8 EV in random order. Only fitting-side photos: thresholds are chosen here, the held-out verdict is eval hdr's.`,
    ],
  };
}
