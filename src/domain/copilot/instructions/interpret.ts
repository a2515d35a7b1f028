/**
 * interpretInstruction: English → CopilotDelta, offline and in well under a millisecond.
 * tokenise → clauses (split on and / but / commas) → each clause read into features and
 * resolved into actions → actions summed into one delta relative to the parent settings.
 */
import { validateSettings, type DevelopSettings } from '../../../imaging/settings.js';
import { resolveClause, readClause, type Action, type Amount, type Features, type SliderAction } from './clauses.js';
import { ADJUST_KEYS, describeDelta, type AdjustKey, type CopilotDelta, type CopilotOp } from './delta.js';
import { splitClauses, tokenise } from './tokens.js';
import { SLIDER_TARGETS, UNDERSTOOD } from './vocabulary.js';

/** What is known of the photo when the instruction comes; every field optional. */
export interface ImageStats {
  /** Fraction of the frame that is sky (skyMask().coverage); sky requests on a photo without sky are refused. */
  skyCoverage?: number;
}

export interface InstructionContext {
  /** The parent version's settings: amounts such as "to 30" and "10 % warmer" are read against them. */
  settings: DevelopSettings;
  image?: ImageStats;
}

export type Interpretation =
  | { kind: 'edit'; delta: CopilotDelta; summary: string }
  | { kind: 'unrealistic'; reason: string }
  /** `understood`: what the engine can do, a short human list; `words`: what it could not place. */
  | { kind: 'not_understood'; understood: string[]; words: string[] };

/** Below this sky coverage a photo has no sky to change. */
const MIN_SKY = 0.005;
/** A darkening percentage past this is read as this (a 100 % darker photo is black). */
const MAX_DARKER = 0.95;

function notUnderstood(words: string[]): Interpretation {
  return { kind: 'not_understood', understood: [...UNDERSTOOD], words };
}

/** An amount in the units of the first setting `key`, as a positive magnitude; `sign` is the direction it goes. */
function magnitude(key: AdjustKey, sign: number, amount: Amount, settings: DevelopSettings): number {
  const v = Math.abs(amount.value);
  if (key === 'exposure' && (amount.unit === 'percent' || (amount.unit === null && v > 5))) {
    // "20 % brighter" is 20 % more light; "20 % darker" 20 % less.
    const p = v / 100;
    return sign > 0 ? Math.log2(1 + p) : -Math.log2(1 - Math.min(MAX_DARKER, p));
  }
  if (key === 'temperature' && (amount.unit === 'percent' || (amount.unit === null && v < 100))) return (settings.temperature * v) / 100;
  return v;
}

/** The setting changes of one slider action. */
function sliderChanges(action: SliderAction, settings: DevelopSettings): Partial<Record<AdjustKey, number>> {
  const target = SLIDER_TARGETS[action.target];
  const steps = Object.entries(target.step) as [AdjustKey, number][];
  const [key, step] = steps[0]!;
  const amount = action.amount;
  const current = key === 'perspectiveVertical' || key === 'perspectiveHorizontal' ? 0 : settings[key];
  let scale: number;
  if (target.setTo !== undefined) scale = (target.setTo - current) / step;
  else if (!amount || amount.unit === 'degrees') scale = action.sign * action.factor;
  else if (amount.absolute) scale = (amount.value - current) / step;
  else {
    // Without a direction in words, the number's own sign decides: "highlights -40".
    const sign = action.explicit ? action.sign : amount.value < 0 ? -1 : 1;
    scale = (sign * magnitude(key, sign, amount, settings)) / Math.abs(step);
  }
  return Object.fromEntries(steps.map(([k, s]) => [k, s * scale]));
}

function addChanges(into: Partial<Record<AdjustKey, number>>, changes: Partial<Record<AdjustKey, number>>): void {
  for (const [k, v] of Object.entries(changes) as [AdjustKey, number][]) into[k] = (into[k] ?? 0) + v;
}

function toDelta(actions: Action[], settings: DevelopSettings): CopilotDelta {
  const sums: Partial<Record<AdjustKey, number>> = {};
  const ops: CopilotOp[] = [];
  for (const a of actions) {
    if (a.kind === 'op') ops.push(a.op);
    else if (a.kind === 'slider') addChanges(sums, sliderChanges(a, settings));
    // The degrees here count clockwise; DevelopSettings.straightenAngle counts counter-clockwise (Lightroom's sign).
    else if (a.kind === 'straighten') addChanges(sums, { straightenAngle: -a.degrees });
    else if (a.undo === 'straighten') addChanges(sums, { straightenAngle: -settings.straightenAngle });
    else addChanges(sums, { perspectiveVertical: -settings.perspective.vertical, perspectiveHorizontal: -settings.perspective.horizontal });
  }
  const adjust: CopilotDelta['adjust'] = {};
  for (const key of ADJUST_KEYS) {
    const v = Math.round((sums[key] ?? 0) * 100) / 100;
    if (v !== 0) adjust[key] = v;
  }
  return { adjust, ops };
}

/**
 * Reads an English editing instruction against the parent version's settings. Pure and
 * synchronous; the answer is an edit (a delta and a summary), a request no realistic
 * edit can do, or one it does not understand (with the list of what it does).
 */
export function interpretInstruction(text: string, context: InstructionContext): Interpretation {
  if (typeof text !== 'string') throw new Error(`Expected a string for text but received ${typeof text}`);
  if (typeof context !== 'object' || context === null) throw new Error(`Expected an object {settings, image?} for context but received ${String(context)}`);
  const settings = validateSettings(context.settings);

  const actions: Action[] = [];
  const unknown: string[] = [];
  let previous: Features | null = null;
  let previousActions: Action[] = [];
  for (const tokens of splitClauses(tokenise(text))) {
    const features = readClause(tokens);
    const result = resolveClause(features, previous);
    if (result.status === 'unrealistic') return { kind: 'unrealistic', reason: result.reason };
    if (result.status === 'unknown') unknown.push(...result.words);
    if (result.status === 'modify') {
      for (const a of previousActions) if (a.kind === 'slider') a.factor *= result.scale;
      continue;
    }
    previousActions = result.status === 'ok' ? result.actions : [];
    actions.push(...previousActions);
    previous = features;
  }
  if (unknown.length > 0 || actions.length === 0) return notUnderstood(unknown);

  const delta = toDelta(actions, settings);
  const skyCoverage = context.image?.skyCoverage;
  if (skyCoverage !== undefined && skyCoverage < MIN_SKY && delta.ops.some((op) => 'sky' in op && op.sky !== 'remove')) {
    return { kind: 'unrealistic', reason: 'there is no sky in this photo to change' };
  }
  return { kind: 'edit', delta, summary: describeDelta(delta) };
}
