import { assertIntegerInRange, invalidParameterError } from '../args.js';
import type { PhotoMetadata } from '../types.js';
import { MAX_BRACKET_FRAMES, MIN_BRACKET_FRAMES } from './merge.js';
import { type LumaThumbnail, matchScenes, meanLinear, MIN_SIMILARITY, type SceneMatch } from './scene-match.js';

export interface BracketCandidate {
  fileName: string;
  metadata: PhotoMetadata;
  /**
   * The photo's luma thumbnail (lumaThumbnail), for grouping by content when its EXIF lacks an
   * exposure or a capture time. Without it such a photo is grouped as before: never when its
   * exposure is unknown, by file-name order when its time is.
   */
  thumbnail?: LumaThumbnail;
}

export interface GroupOptions {
  /**
   * Largest pause in seconds between the end of one exposure (capture time + exposure time)
   * and the next capture that still continues a bracket; default 3. Cameras fire a bracket
   * within a second or two, and EXIF times without sub-seconds round to whole seconds.
   */
  maxGapSeconds?: number;
  /** Runs shorter than this are not brackets and become single frames; default 3 (what mergeBrackets takes). */
  minFrames?: number;
}

export const DEFAULT_MAX_GAP_SECONDS = 3;
/** Exposures closer than this in EV are the same setting (steps are at least 1/3 EV). */
const SAME_EXPOSURE_EV = 0.15;

/**
 * Content grouping: no other viewpoint within 20 % of the long edge may fit as well as the
 * hand-held alignment (matchScenes' uniqueness above this). On the fitting side (`npm run eval --
 * hdr-grouping`, soft and pastel looks included) brackets' frames scored 0.30 and more against
 * their 0 EV frame and near-duplicate pairs that passed every other test at most 0.10, except
 * `Storm`, whose streaks do not fix the viewpoint at half size (brackets 0.08 to 0.35 with the
 * full-size second opinion, see matchScenes; its series pairs at most −0.02).
 * No margin is added: any would be tuned to a few scenes.
 */
export const MIN_UNIQUENESS = 0;
/** Content grouping: frames of a bracket differ by at least this many EV (measured from the pixels). */
const MIN_CONTENT_EV = 0.5;
/** Content grouping: share of pixels that must brighten (or darken) together, as an exposure change makes them. */
const MIN_DOMINANCE = 0.8;
/** Content grouping: a photo may join a bracket begun at most this many uploads earlier (upload order is a hint, not a rule). */
const UPLOAD_WINDOW = MAX_BRACKET_FRAMES;

const byName = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Seconds since an arbitrary epoch from "2024-05-01T14:03:22.120" (or EXIF's "2024:05:01 14:03:22"), else null. */
function captureSeconds(time: string | null): number | null {
  if (!time) return null;
  const m = /^(\d{4})[-:](\d{2})[-:](\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?/.exec(time);
  if (!m) return null;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  return Number.isNaN(ms) ? null : ms / 1000 + (m[7] ? Number(m[7]) : 0);
}

/**
 * How much light each frame gathered, in EV (higher is brighter), or null when unknown for any.
 * From exposure time, ISO and aperture when every frame has a time (what brackets really vary;
 * ISO and aperture count only when every frame has them), else from exposure bias.
 */
function exposureValues(frames: PhotoMetadata[]): number[] | null {
  if (frames.every((m) => m.exposureTime !== null && m.exposureTime > 0)) {
    const withIso = frames.every((m) => m.iso !== null && m.iso > 0);
    const withAperture = frames.every((m) => m.fNumber !== null && m.fNumber > 0);
    return frames.map((m) => Math.log2((m.exposureTime! * (withIso ? m.iso! : 1)) / (withAperture ? m.fNumber! * m.fNumber! : 1)));
  }
  if (frames.every((m) => m.exposureBias !== null && Number.isFinite(m.exposureBias))) return frames.map((m) => m.exposureBias!);
  return null;
}

/** True when both exposures are known and differ, false when known and equal, null when unknown. */
function exposuresDiffer(a: PhotoMetadata, b: PhotoMetadata): boolean | null {
  const ev = exposureValues([a, b]);
  return ev ? Math.abs(ev[0]! - ev[1]!) >= SAME_EXPOSURE_EV : null;
}

function validateCandidates(frames: unknown, name: string): asserts frames is BracketCandidate[] {
  if (!Array.isArray(frames)) throw invalidParameterError(name, 'an array of { fileName, metadata }', frames);
  const seen = new Set<string>();
  frames.forEach((frame: unknown, i) => {
    const f = frame as Partial<BracketCandidate> | null;
    if (typeof f !== 'object' || f === null) throw invalidParameterError(`${name}[${i}]`, 'an object { fileName, metadata }', frame);
    if (typeof f.fileName !== 'string' || f.fileName === '') throw invalidParameterError(`${name}[${i}].fileName`, 'a non-empty string', f.fileName);
    if (typeof f.metadata !== 'object' || f.metadata === null) throw invalidParameterError(`${name}[${i}].metadata`, 'a PhotoMetadata object', f.metadata);
    if (seen.has(f.fileName)) throw invalidParameterError(`${name}[${i}].fileName`, 'a file name not given before', f.fileName);
    const t = f.thumbnail;
    if (t !== undefined && !(typeof t === 'object' && t !== null && t.data instanceof Float32Array && t.width > 0 && t.height > 0 && t.data.length === t.width * t.height)) {
      throw invalidParameterError(`${name}[${i}].thumbnail`, 'a luma thumbnail { width, height, data: Float32Array }', t);
    }
    seen.add(f.fileName);
  });
}

/** Capture order when every frame has a readable capture time, else file-name order (numbers compared as numbers). */
function captureOrder(frames: BracketCandidate[]): BracketCandidate[] {
  const times = new Map(frames.map((f) => [f, captureSeconds(f.metadata.captureTime)]));
  const timed = frames.every((f) => times.get(f) !== null);
  return [...frames].sort((a, b) => (timed ? times.get(a)! - times.get(b)! : 0) || byName.compare(a.fileName, b.fileName));
}

/** Whether next follows prev closely enough to belong to its bracket; null when either time is unknown. */
function closeInTime(prev: PhotoMetadata, next: PhotoMetadata, maxGap: number): boolean | null {
  const a = captureSeconds(prev.captureTime);
  const b = captureSeconds(next.captureTime);
  if (a === null || b === null) return null;
  return b - (a + (prev.exposureTime ?? 0)) <= maxGap;
}

/** Whether a frame's EXIF tells its exposure (a time, or a bias). */
function exposureKnown(m: PhotoMetadata): boolean {
  return (m.exposureTime !== null && m.exposureTime > 0) || (m.exposureBias !== null && Number.isFinite(m.exposureBias));
}

/** Scene matches between pairs of thumbnails, each computed once. */
class Matches {
  private readonly cache = new Map<string, SceneMatch>();

  /** How b compares with a (ev is b's exposure relative to a's). */
  of(a: BracketCandidate, b: BracketCandidate): SceneMatch {
    const key = `${a.fileName}\u0000${b.fileName}`;
    let match = this.cache.get(key);
    if (!match) {
      match = matchScenes(a.thumbnail!, b.thumbnail!);
      this.cache.set(key, match);
    }
    return match;
  }

  /** Same scene from the same spot (structure alone, whatever the exposures). */
  sameScene(a: BracketCandidate, b: BracketCandidate): boolean {
    return sameSpot(this.of(a, b));
  }
}

/**
 * The tests of one scene from one spot: similar enough, best within the hand-held range (not
 * on its rim), and no viewpoint further away fits as well.
 */
const SAME_SPOT_TESTS: [string, (m: SceneMatch) => boolean][] = [
  ['similarity', (m) => m.similarity >= MIN_SIMILARITY],
  ['rim', (m) => !m.atSearchLimit],
  ['uniqueness', (m) => m.uniqueness > MIN_UNIQUENESS],
];
/** The further tests of an exposure step: brighter or darker nearly everywhere, by enough. */
const monotone = (m: SceneMatch) => m.dominance >= MIN_DOMINANCE;
const exposureStep = (m: SceneMatch) => Math.abs(m.ev) >= MIN_CONTENT_EV;
const EXPOSURE_STEP_TESTS: [string, (m: SceneMatch) => boolean][] = [
  ['dominance', monotone],
  ['step', exposureStep],
];

function sameSpot(m: SceneMatch): boolean {
  return SAME_SPOT_TESTS.every(([, passes]) => passes(m));
}

/**
 * The content-grouping tests a match fails, by name (similarity, rim, uniqueness, dominance,
 * step): none when its second photo may join a bracket holding only the first. For reports.
 */
export function contentLinkFailures(m: SceneMatch): string[] {
  return [...SAME_SPOT_TESTS, ...EXPOSURE_STEP_TESTS].filter(([, passes]) => !passes(m)).map(([name]) => name);
}

/**
 * Whether f continues a bracket by content: it shows the scene of some frame of the group
 * from the same spot, brighter or darker everywhere (monotone, as an exposure change), and its
 * exposure differs from every frame's already there.
 */
function joinsByContent(group: BracketCandidate[], f: BracketCandidate, matches: Matches): number | null {
  if (group.length >= MAX_BRACKET_FRAMES) return null;
  let best: SceneMatch | null = null;
  for (const g of group) {
    const m = matches.of(g, f);
    if (!exposureStep(m)) return null;
    if (sameSpot(m) && monotone(m) && (!best || m.similarity > best.similarity)) best = m;
  }
  return best ? best.similarity : null;
}

/** Whether two groups' frames all differ in exposure, and together fit in one bracket. */
function combinable(a: BracketCandidate[], b: BracketCandidate[], matches: Matches): boolean {
  return a.length + b.length <= MAX_BRACKET_FRAMES && a.every((f) => b.every((g) => exposureStep(matches.of(f, g))));
}

/**
 * Brackets among photos whose EXIF tells no exposure, by content, in upload order: a photo
 * joins the open group (begun within the last UPLOAD_WINDOW photos) it matches best, else
 * opens one. Other open groups it also matches are merged in when their exposures all differ:
 * uploaded −2, +2, 0 EV, the extremes may share too little to match until the middle frame comes.
 */
function groupByContent(sequence: BracketCandidate[], matches: Matches): BracketCandidate[][] {
  let groups: { members: BracketCandidate[]; start: number }[] = [];
  sequence.forEach((f, position) => {
    const accepting = groups
      .filter((g) => position - g.start < UPLOAD_WINDOW)
      .map((g) => ({ g, score: joinsByContent(g.members, f, matches) }))
      .filter((c): c is { g: (typeof groups)[number]; score: number } => c.score !== null)
      .sort((a, b) => b.score - a.score);
    const chosen = accepting[0]?.g;
    if (!chosen) {
      groups.push({ members: [f], start: position });
      return;
    }
    chosen.members.push(f);
    for (const { g } of accepting.slice(1)) {
      if (!combinable(chosen.members, g.members, matches)) continue;
      chosen.members.push(...g.members);
      chosen.start = Math.min(chosen.start, g.start);
      groups = groups.filter((other) => other !== g);
    }
  });
  return groups.map((g) => g.members);
}

/** Brackets among photos whose EXIF tells their exposures, in capture order (see groupBrackets). */
function groupByExif(sequence: BracketCandidate[], maxGap: number, matches: Matches): BracketCandidate[][] {
  const groups: BracketCandidate[][] = [];
  let current: BracketCandidate[] = [];
  for (const f of sequence) {
    const prev = current[current.length - 1];
    const close = prev === undefined ? null : closeInTime(prev.metadata, f.metadata, maxGap);
    const joins =
      prev !== undefined &&
      current.length < MAX_BRACKET_FRAMES &&
      close !== false &&
      // Without capture times, file-name order alone would join neighbouring scenes: the pixels must agree.
      (close === true || prev.thumbnail === undefined || f.thumbnail === undefined || matches.sameScene(prev, f)) &&
      current.every((g) => exposuresDiffer(g.metadata, f.metadata) === true);
    if (joins) {
      current.push(f);
    } else {
      if (current.length > 0) groups.push(current);
      current = [f];
    }
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/**
 * Splits photos into bracket groups, for when no groups manifest is given. Per camera body
 * (make and model):
 * - photos whose EXIF tells their exposure, in capture order (file-name order when a capture
 *   time is missing): a frame joins the current group when it was taken within maxGapSeconds
 *   of the previous one's end (or, a time being unknown, the thumbnails show the same scene,
 *   or there are none) and its exposure differs from every frame already in the group; a
 *   repeated exposure starts the next bracket, as does reaching 9 frames;
 * - photos whose exposure is unknown, by content when they have thumbnails (groupByContent),
 *   else never grouped.
 * Groups smaller than minFrames are split into single frames. Groups are returned in capture
 * order, each in capture order.
 */
export function groupBrackets(frames: BracketCandidate[], options: GroupOptions = {}): string[][] {
  validateCandidates(frames, 'frames');
  if (typeof options !== 'object' || options === null) throw invalidParameterError('options', 'an object', options);
  const maxGap = options.maxGapSeconds ?? DEFAULT_MAX_GAP_SECONDS;
  const minFrames = options.minFrames ?? MIN_BRACKET_FRAMES;
  if (typeof maxGap !== 'number' || !(maxGap >= 0)) throw invalidParameterError('maxGapSeconds', 'a number >= 0', maxGap);
  assertIntegerInRange(minFrames, 'minFrames', 1, MAX_BRACKET_FRAMES);

  const ordered = captureOrder(frames);
  const uploaded = new Map(frames.map((f, i) => [f, i]));
  const bodies = new Map<string, BracketCandidate[]>();
  for (const f of ordered) {
    const body = `${f.metadata.make ?? ''}\u0000${f.metadata.model ?? ''}`;
    const list = bodies.get(body);
    if (list) list.push(f);
    else bodies.set(body, [f]);
  }
  const matches = new Matches();
  const groups: BracketCandidate[][] = [];
  for (const sequence of bodies.values()) {
    groups.push(
      ...groupByExif(
        sequence.filter((f) => exposureKnown(f.metadata)),
        maxGap,
        matches,
      ),
    );
    const unknown = sequence.filter((f) => !exposureKnown(f.metadata));
    const byUpload = unknown.filter((f) => f.thumbnail !== undefined).sort((a, b) => uploaded.get(a)! - uploaded.get(b)!);
    groups.push(...groupByContent(byUpload, matches), ...unknown.filter((f) => f.thumbnail === undefined).map((f) => [f]));
  }
  const position = new Map(ordered.map((f, i) => [f, i]));
  return groups
    .flatMap((g) => (g.length >= minFrames ? [g] : g.map((f) => [f])))
    .map((g) => [...g].sort((a, b) => position.get(a)! - position.get(b)!))
    .sort((a, b) => position.get(a[0]!)! - position.get(b[0]!)!)
    .map((g) => g.map((f) => f.fileName));
}

/**
 * The group's frames from darkest to brightest by their EXIF exposure (see exposureValues);
 * when some frame's exposure is unknown, by the mean light of their thumbnails when every
 * frame has one, else in capture order.
 */
export function exposureOrder(group: BracketCandidate[]): BracketCandidate[] {
  validateCandidates(group, 'group');
  if (group.length === 0) throw invalidParameterError('group', 'a non-empty array', group);
  const ordered = captureOrder(group);
  const exif = exposureValues(ordered.map((f) => f.metadata));
  const ev = exif ?? (ordered.every((f) => f.thumbnail !== undefined) ? ordered.map((f) => Math.log2(meanLinear(f.thumbnail!))) : null);
  if (!ev) return ordered;
  return ordered
    .map((f, i) => ({ f, ev: ev[i]! }))
    .sort((a, b) => a.ev - b.ev)
    .map(({ f }) => f);
}

/** The middle exposure of a group (the lower middle for an even count): merged outputs are named after it. */
export function middleFrame(group: BracketCandidate[]): string {
  const order = exposureOrder(group);
  return order[Math.floor((order.length - 1) / 2)]!.fileName;
}

/** The darkest exposure of a group, where blown-out windows still hold detail (window pull). */
export function darkestFrame(group: BracketCandidate[]): string {
  return exposureOrder(group)[0]!.fileName;
}
