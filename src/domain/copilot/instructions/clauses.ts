/**
 * One clause → actions. A clause is read into features (what it names, which way, how
 * much, negated or a complaint), then resolved: structural targets (crop, rotation,
 * straighten, verticals, sky) become operations, nouns and qualities become slider steps.
 * The rules, in the order they apply, are in docs/copilot-instructions.md.
 */
import type { CopilotOp, SkyTemplateName } from './delta.js';
import { DEFAULT_SKY_TEMPLATE } from './delta.js';
import type { Token } from './tokens.js';
import { SLIDER_TARGETS, type Entry, type Family, type Sign, type SliderId, type TargetId, type Unit } from './vocabulary.js';

type Quality = Extract<Entry, { kind: 'quality' }>;

export interface Amount {
  value: number;
  /** The number carried a sign ("+1 stop", "-0.5 EV"). */
  signed: boolean;
  unit: Unit | null;
  /** "to 30": a value to reach, not a change. */
  absolute: boolean;
}

export interface Features {
  nouns: TargetId[];
  /** Nouns that beside a quality are only its object. */
  objects: TargetId[];
  qualities: Quality[];
  /** Qualities of the previous clause, only for nouns to take ("brighten the shadows and the highlights"). */
  inherited: Quality[];
  direction: Sign | 'remedy' | null;
  manipulates: boolean;
  reset: boolean;
  replace: boolean;
  factor: number | null;
  negated: boolean;
  excess: boolean;
  lack: boolean;
  copula: boolean;
  make: boolean;
  leave: boolean;
  lines: boolean;
  cast: boolean;
  amount: Amount | null;
  turn: Sign | null;
  aspect: string | null;
  templates: SkyTemplateName[];
  unrealistic: string | null;
  unknown: string[];
}

const STRUCTURAL = new Set<TargetId>(['crop', 'rotate', 'straighten', 'verticals', 'sky']);
const isSlider = (t: TargetId): t is SliderId => !STRUCTURAL.has(t);

/** A clause's tokens read into features. */
export function readClause(tokens: Token[]): Features {
  const f: Features = {
    nouns: [],
    objects: [],
    qualities: [],
    inherited: [],
    direction: null,
    manipulates: false,
    reset: false,
    replace: false,
    factor: null,
    negated: false,
    excess: false,
    lack: false,
    copula: false,
    make: false,
    leave: false,
    lines: false,
    cast: false,
    amount: null,
    turn: null,
    aspect: null,
    templates: [],
    unrealistic: null,
    unknown: [],
  };
  let to = false;
  for (const t of tokens) {
    if (t.kind === 'number') {
      f.amount ??= { value: t.value, signed: t.signed, unit: null, absolute: to };
      continue;
    }
    if (t.kind === 'ratio') {
      f.aspect ??= t.aspect;
      continue;
    }
    if (!t.entries) {
      f.unknown.push(t.text);
      continue;
    }
    for (const e of t.entries) {
      switch (e.kind) {
        case 'noun':
          f.nouns.push(e.target);
          if (e.object) f.objects.push(e.target);
          break;
        case 'quality':
          f.qualities.push(e);
          break;
        case 'direction':
          // The first direction decides: "add more" is one direction, "remove ... less" is rare.
          f.direction ??= e.sign;
          f.manipulates ||= e.manipulates === true;
          f.reset ||= e.resets === true;
          break;
        case 'remedy':
          f.direction ??= 'remedy';
          break;
        case 'intensity':
          f.factor = (f.factor ?? 1) * e.factor;
          break;
        case 'negation':
          f.negated = !f.negated;
          break;
        case 'excess':
          f.excess = true;
          break;
        case 'lack':
          f.lack = true;
          break;
        case 'copula':
          f.copula = true;
          break;
        case 'make':
          f.make = true;
          break;
        case 'leave':
          f.leave = true;
          break;
        case 'lines':
          f.lines = true;
          break;
        case 'cast':
          f.cast = true;
          break;
        case 'unit':
          if (f.amount && f.amount.unit === null) f.amount.unit = e.unit;
          break;
        case 'amount':
          f.amount ??= { value: e.value, signed: false, unit: e.unit, absolute: to };
          break;
        case 'turn':
          f.turn = e.sign;
          break;
        case 'ratio':
          f.aspect ??= e.aspect;
          break;
        case 'reset':
          f.reset = true;
          break;
        case 'replace':
          f.replace = true;
          break;
        case 'template':
          f.templates.push(e.name);
          break;
        case 'unrealistic':
          f.unrealistic ??= t.text;
          break;
        case 'separator':
        case 'filler':
          break;
      }
    }
    to = t.entries.some((e) => e.kind === 'to');
  }
  return f;
}

/** A step of a slider target in a direction, scaled by an intensity or set by an amount. */
export interface SliderAction {
  kind: 'slider';
  target: SliderId;
  sign: Sign;
  factor: number;
  amount: Amount | null;
  /** The words gave the direction; otherwise an amount's own sign does ("exposure -0.5"). */
  explicit: boolean;
}

/** Straightening by clockwise degrees, or taking a correction back to zero. */
export type FixedAction = { kind: 'straighten'; degrees: number } | { kind: 'undo'; undo: 'straighten' | 'verticals' };

export type Action = SliderAction | FixedAction | { kind: 'op'; op: CopilotOp };

export type ClauseResult =
  | { status: 'ok'; actions: Action[] }
  /** Understood, asks for nothing ("don't touch the crop"). */
  | { status: 'noop' }
  /** Only filler ("please"). */
  | { status: 'empty' }
  /** Scales the previous clause's steps: "brighter, but not too much", "warmer, a lot". */
  | { status: 'modify'; scale: number }
  | { status: 'unknown'; words: string[] }
  | { status: 'unrealistic'; reason: string };

const TEMPLATE_OF_FAMILY: Partial<Record<Family, SkyTemplateName>> = { blue: 'clear blue', warm: 'sunset', drama: 'dramatic clouds' };

/** Steps of sky strength: a partial blend for "bluer", a nudge for "stronger / weaker sky". */
const SKY_BLEND = 0.4;
const SKY_NUDGE = 0.3;
/** One step of "crop tighter" takes this fraction off each dimension. */
const CROP_STEP = 0.1;

/** How a clause points: its direction word, and the flips of faults and negation. */
interface Polarity {
  /** more (+1) / less (−1), null for none or a remedy. */
  steer: Sign | null;
  negation: Sign;
  /** A fault named without a direction ("too dark", "it looks flat", "noisy") asks for its opposite. */
  faulty: boolean;
  /** Everything but the direction word: faults and negation together. */
  flip: Sign;
  factor: number;
}

function polarityOf(f: Features): Polarity {
  const steer: Sign | null = typeof f.direction === 'number' ? f.direction : null;
  const negation: Sign = f.negated && !f.lack ? -1 : 1;
  const faulty = !f.lack && steer === null && (f.excess || f.qualities.some((q) => q.complaint || (q.base && f.copula && !f.make)));
  return { steer, negation, faulty, flip: ((faulty ? -1 : 1) * negation) as Sign, factor: f.factor ?? 1 };
}

/**
 * The clause's actions. `previous` is the clause before: a clause of bare nouns takes over
 * its direction, intensity and qualities (written into `f`, so the next clause can too):
 * "more contrast and saturation".
 */
export function resolveClause(f: Features, previous: Features | null): ClauseResult {
  if (f.unrealistic) return { status: 'unrealistic', reason: `"${f.unrealistic}" is not a realistic photo edit` };
  const names = f.nouns.length + f.qualities.length + f.templates.length;
  if ((f.manipulates || f.replace) && f.unknown.length > 0 && !hasSky(f)) return { status: 'unrealistic', reason: `adding, removing or replacing "${f.unknown.join(' ')}" is not a realistic photo edit` };
  if (f.manipulates && f.lines && names === 0) return { status: 'unrealistic', reason: 'adding or removing things is not a realistic photo edit' };
  if (f.leave) return { status: 'noop' };

  if (previous && names === 0 && f.aspect === null && f.amount === null && f.turn === null && !f.lines) {
    if (f.negated || f.excess) return { status: 'modify', scale: 0.5 };
    if (f.factor !== null) return { status: 'modify', scale: f.factor };
    return f.unknown.length > 0 ? { status: 'unknown', words: f.unknown } : { status: 'empty' };
  }
  if (previous && f.direction === null && f.qualities.length === 0 && f.factor === null && f.amount === null && f.nouns.length > 0) {
    f.direction = previous.direction;
    f.factor = previous.factor;
    f.negated = previous.negated;
    f.excess = previous.excess;
    f.lack = previous.lack;
    f.inherited = [...previous.qualities, ...previous.inherited].filter((q) => q.family !== undefined);
  }

  const polarity = polarityOf(f);
  const consumed = new Set<Quality>(f.qualities.filter((q) => STRUCTURAL.has(q.target)));
  const structural = structuralActions(f, polarity, consumed);
  if ('unknown' in structural) return { status: 'unknown', words: [structural.unknown] };
  const sliders = sliderActions(f, polarity, consumed);
  const actions = [...structural.actions, ...sliders.actions];
  if (actions.length > 0) return { status: 'ok', actions };
  if (structural.noop || sliders.noop) return { status: 'noop' };
  return f.unknown.length > 0 || f.nouns.length > 0 || f.lines || f.cast ? { status: 'unknown', words: f.unknown.length > 0 ? f.unknown : f.nouns } : { status: 'empty' };
}

interface Resolved {
  actions: Action[];
  /** Something was understood and asks for nothing ("don't crop", "fix the white balance"). */
  noop: boolean;
}

/**
 * Verticals, straightening, rotation, crop and sky as operations; `unknown` names a
 * rotation angle or a sky request that cannot be placed. A negated one asks for nothing.
 */
function structuralActions(f: Features, { steer, flip, factor }: Polarity, consumed: Set<Quality>): Resolved | { unknown: string } {
  const actions: Action[] = [];
  const verticals = f.nouns.includes('verticals') || f.qualities.some((q) => q.target === 'verticals') || (f.lines && (f.nouns.includes('straighten') || f.direction === 'remedy' || f.qualities.some((q) => q.target === 'straighten')));
  const straighten = !verticals && (f.nouns.includes('straighten') || f.qualities.some((q) => q.target === 'straighten'));
  const rotate = !verticals && !straighten && (f.nouns.includes('rotate') || f.amount?.unit === 'degrees');
  const crop = f.nouns.includes('crop') || f.aspect !== null || f.qualities.some((q) => q.target === 'crop');
  const sky = hasSky(f);
  if (f.negated) return { actions, noop: verticals || straighten || rotate || crop || sky };

  if (verticals) actions.push(f.reset ? { kind: 'undo', undo: 'verticals' } : { kind: 'op', op: { auto: 'perspective' } });
  if (straighten) {
    if (f.reset) actions.push({ kind: 'undo', undo: 'straighten' });
    else if (f.amount) actions.push({ kind: 'straighten', degrees: turnOf(f) * Math.abs(f.amount.value) });
    else actions.push({ kind: 'op', op: { auto: 'straighten' } });
  }
  if (rotate) {
    const rotation = rotationAction(f);
    if (rotation === null) return { unknown: `rotate by ${f.amount?.value}°` };
    if (rotation) actions.push(rotation);
  }
  if (crop) {
    if (f.reset) actions.push({ kind: 'op', op: { crop: 'reset' } });
    else if (f.aspect) actions.push({ kind: 'op', op: { crop: { aspect: f.aspect } } });
    else {
      const tighter = (f.qualities.find((q) => q.target === 'crop')?.sign ?? 1) * (steer ?? 1) * flip;
      const step = f.amount && f.amount.unit === 'percent' ? f.amount.value / 100 : CROP_STEP * factor;
      const scale = Math.max(0.5, 1 - Math.min(0.5, Math.abs(step)));
      actions.push({ kind: 'op', op: { crop: { scale: tighter > 0 ? scale : 1 / scale } } });
    }
  }
  if (sky) {
    const result = skyActions(f, consumed, steer, factor);
    if (result === null) return { unknown: 'sky' };
    actions.push(...result);
  }
  return { actions, noop: false };
}

/** Slider steps: nouns with the quality they take or their own direction, then the free qualities. */
function sliderActions(f: Features, { steer, negation, faulty, flip, factor }: Polarity, consumed: Set<Quality>): Resolved {
  const actions: Action[] = [];
  let noop = false;
  // Nouns take a quality of their family as their own direction: "darken the shadows".
  const sliderNouns = f.nouns.filter(isSlider);
  const taken = new Map<SliderId, Quality>();
  for (const noun of sliderNouns) {
    const absorbs = SLIDER_TARGETS[noun].absorbs ?? {};
    const q = [...f.qualities, ...f.inherited].find((q) => !consumed.has(q) && q.family !== undefined && absorbs[q.family] !== undefined);
    if (q) {
      consumed.add(q);
      taken.set(noun, q);
    }
  }
  const free = f.qualities.filter((q) => !consumed.has(q) && isSlider(q.target));
  for (const noun of sliderNouns) {
    const target = SLIDER_TARGETS[noun];
    const q = taken.get(noun);
    if (f.direction === 'remedy') {
      if (target.remedy === undefined) noop = true;
      else actions.push({ kind: 'slider', target: noun, sign: (target.remedy * negation) as Sign, factor, amount: f.amount, explicit: true });
      continue;
    }
    // A noun beside a quality it cannot take is that quality's object ("warmer colours",
    // "more vivid colours") unless a direction of its own moves it ("more contrast warmer").
    if (!q && (free.length > 0 || f.cast) && (steer === null || f.objects.includes(noun))) continue;
    const sign = q ? q.familySign! * target.absorbs![q.family!]! * (steer ?? 1) : (steer ?? target.remedy ?? 1);
    const explicit = q !== undefined || steer !== null || faulty || f.negated || f.lack;
    actions.push({ kind: 'slider', target: noun, sign: (sign * flip) as Sign, factor, amount: f.amount, explicit });
  }
  for (const q of free) {
    actions.push({ kind: 'slider', target: q.target as SliderId, sign: (q.sign * (steer ?? 1) * flip) as Sign, factor, amount: f.amount, explicit: true });
  }
  // An amount in stops or kelvin names its target: "+1 stop", "500 K warmer".
  if (f.amount && (f.amount.unit === 'ev' || f.amount.unit === 'kelvin') && actions.length === 0) {
    const target: SliderId = f.amount.unit === 'ev' ? 'exposure' : 'temperature';
    actions.push({ kind: 'slider', target, sign: ((steer ?? 1) * negation) as Sign, factor, amount: f.amount, explicit: steer !== null });
  }
  return { actions, noop };
}

function hasSky(f: Features): boolean {
  return f.nouns.includes('sky') || f.templates.length > 0;
}

/** +1 clockwise, −1 counter-clockwise: a turn word, else the number's sign, else clockwise. */
function turnOf(f: Features): Sign {
  return f.turn ?? (f.amount && f.amount.value < 0 ? -1 : 1);
}

/** Quarter turns as an operation, small angles as straightening; null for an angle neither can do. */
function rotationAction(f: Features): Action | null | undefined {
  const degrees = f.amount ? Math.abs(f.amount.value) : 90;
  const clockwise = turnOf(f) * degrees;
  if (degrees % 90 === 0) {
    const quarter = (((clockwise % 360) + 360) % 360) as 0 | 90 | 180 | 270;
    return quarter === 0 ? undefined : { kind: 'op', op: { rotate: quarter } };
  }
  return degrees <= 45 ? { kind: 'straighten', degrees: clockwise } : null;
}

/**
 * Sky: a named template replaces the sky; bluer / warmer blend in a clear-blue / sunset sky
 * partly; "darker sky" holds back the highlights; stronger / weaker change the blend;
 * "remove / undo / original" takes the replacement away. Null when nothing says what to do.
 */
function skyActions(f: Features, consumed: Set<Quality>, steer: Sign | null, factor: number): Action[] | null {
  const sky = (template: SkyTemplateName | null, strength: number): Action => ({ kind: 'op', op: { sky: { template, strength } } });
  if (f.reset && !(f.templates.some((t) => t.includes('clouds')) && !f.nouns.includes('sky'))) return [{ kind: 'op', op: { sky: 'remove' } }];
  const named = f.templates[0];
  if (named) for (const q of f.qualities) if (q.family !== undefined) consumed.add(q);
  // "remove the clouds", "fewer clouds": a clear sky.
  if (named?.includes('clouds') && steer === -1) return [sky('clear blue', 1)];
  if (named) return [steer === -1 ? sky(null, -SKY_NUDGE * factor) : sky(named, 1)];
  const actions: Action[] = [];
  for (const q of [...f.qualities, ...f.inherited]) {
    if (consumed.has(q) || q.family === undefined) continue;
    const template = TEMPLATE_OF_FAMILY[q.family];
    if (template) {
      consumed.add(q);
      const towards = (q.familySign ?? 1) * (steer ?? 1);
      actions.push(f.replace || q.family === 'drama' ? sky(template, 1) : towards > 0 ? sky(template, SKY_BLEND * factor) : sky(null, -SKY_BLEND * factor));
    } else if (q.family === 'tone') {
      consumed.add(q);
      actions.push({ kind: 'slider', target: 'highlights', sign: ((q.familySign ?? 1) * (steer ?? 1)) as Sign, factor, amount: null, explicit: true });
    }
  }
  if (actions.length > 0) return actions;
  if (f.replace && steer !== -1) return [sky(DEFAULT_SKY_TEMPLATE, 1)];
  if (steer !== null) return [sky(null, steer * SKY_NUDGE * factor)];
  return null;
}
