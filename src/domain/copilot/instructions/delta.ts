/**
 * CopilotDelta: what one instruction or one AI tool does to a version's settings. Numeric
 * slider changes are relative to the parent version (settings.ts' SettingsDelta); the
 * structured operations say what a slider cannot (an aspect crop, a quarter turn, a
 * detector's answer, a sky template). The built-in engine, the model path and the tools all
 * produce this one shape; applyCopilotDelta turns it into the child version's settings.
 */
import { detectPerspective, detectStraighten } from '../../../imaging/geometry/index.js';
import { applyDelta, clampSettings, SETTING_RANGES, validateSettings, type DevelopSettings, type NumericSetting, type SettingsDelta } from '../../../imaging/settings.js';
import type { CropRect, Image16 } from '../../../imaging/types.js';

/** The built-in sky templates (docs/imaging-sky.md), by the name instructions use. */
export const SKY_TEMPLATES = ['clear blue', 'light clouds', 'dramatic clouds', 'sunset'] as const;
export type SkyTemplateName = (typeof SKY_TEMPLATES)[number];
/** The template a plain "replace the sky" uses: the service's default one. */
export const DEFAULT_SKY_TEMPLATE: SkyTemplateName = 'light clouds';

export const QUARTER_TURNS = [90, 180, 270] as const;
export type QuarterTurn = (typeof QUARTER_TURNS)[number];

export const AUTO_CORRECTIONS = ['straighten', 'perspective'] as const;
export type AutoCorrection = (typeof AUTO_CORRECTIONS)[number];

export type CopilotOp =
  /** Crop: the largest window of this "W:H" ratio inside the current crop; a relative size about its centre (0.9 = 10 % tighter); or none. */
  | { crop: { aspect: string } | { scale: number } | 'reset' }
  /** Clockwise quarter turn of the whole photo. */
  | { rotate: QuarterTurn }
  /** Take a detector's answer on the photo: detectStraighten or detectPerspective. */
  | { auto: AutoCorrection }
  /** Sky replacement: switch to a template (null keeps the current one) and change its strength (0..1) by `strength`; or none. */
  | { sky: { template: SkyTemplateName | null; strength: number } | 'remove' };

export interface CopilotDelta {
  /** Relative changes of numeric settings, added to the parent's and clamped. */
  adjust: SettingsDelta;
  /** Structured operations, applied in order before `adjust`. */
  ops: CopilotOp[];
}

/** The keys `adjust` may hold. */
export const ADJUST_KEYS = [...(Object.keys(SETTING_RANGES) as NumericSetting[]), 'perspectiveVertical', 'perspectiveHorizontal'] as const;
export type AdjustKey = (typeof ADJUST_KEYS)[number];

/** Limits of a structured operation's numbers. */
const CROP_SCALE = [0.25, 4] as const;
const ASPECT = [0.2, 5] as const;
const ASPECT_PATTERN = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/;

function spanOf(key: AdjustKey): number {
  const [min, max] = key === 'perspectiveVertical' || key === 'perspectiveHorizontal' ? [-100, 100] : SETTING_RANGES[key];
  return max - min;
}

/** The width / height of an aspect "W:H", or throws. */
function aspectValue(aspect: string): number {
  const m = ASPECT_PATTERN.exec(aspect);
  const value = m ? Number(m[1]) / Number(m[2]) : NaN;
  if (!(value >= ASPECT[0] && value <= ASPECT[1])) throw new Error(`Expected an aspect "W:H" between ${ASPECT[0]} and ${ASPECT[1]} for crop.aspect but received "${aspect}"`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(path: string, expected: string, actual: unknown): never {
  throw new Error(`Expected ${expected} for ${path} but received ${JSON.stringify(actual) ?? String(actual)}`);
}

function only(value: Record<string, unknown>, path: string, key: string): unknown {
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== key) fail(path, `an object with the single key ${key}`, value);
  return value[key];
}

function checkOp(op: unknown, path: string): CopilotOp {
  if (!isRecord(op) || Object.keys(op).length !== 1) fail(path, 'an operation object with one key (crop, rotate, auto or sky)', op);
  const [key] = Object.keys(op) as [string];
  const body = op[key];
  switch (key) {
    case 'crop':
      if (body === 'reset') return { crop: 'reset' };
      if (isRecord(body) && 'aspect' in body) {
        const aspect = only(body, `${path}.crop`, 'aspect');
        if (typeof aspect !== 'string') fail(`${path}.crop.aspect`, 'a string "W:H"', aspect);
        aspectValue(aspect);
        return { crop: { aspect } };
      }
      if (isRecord(body) && 'scale' in body) {
        const scale = only(body, `${path}.crop`, 'scale');
        if (typeof scale !== 'number' || !(scale >= CROP_SCALE[0] && scale <= CROP_SCALE[1])) fail(`${path}.crop.scale`, `a number between ${CROP_SCALE[0]} and ${CROP_SCALE[1]}`, scale);
        return { crop: { scale } };
      }
      return fail(`${path}.crop`, '"reset", {aspect} or {scale}', body);
    case 'rotate':
      if (!QUARTER_TURNS.includes(body as QuarterTurn)) fail(`${path}.rotate`, `one of ${QUARTER_TURNS.join(', ')}`, body);
      return { rotate: body as QuarterTurn };
    case 'auto':
      if (!AUTO_CORRECTIONS.includes(body as AutoCorrection)) fail(`${path}.auto`, `one of ${AUTO_CORRECTIONS.join(', ')}`, body);
      return { auto: body as AutoCorrection };
    case 'sky': {
      if (body === 'remove') return { sky: 'remove' };
      if (!isRecord(body)) fail(`${path}.sky`, '"remove" or {template, strength}', body);
      const keys = Object.keys(body).sort().join(',');
      if (keys !== 'strength,template') fail(`${path}.sky`, 'exactly the keys template and strength', body);
      if (body.template !== null && !SKY_TEMPLATES.includes(body.template as SkyTemplateName)) fail(`${path}.sky.template`, `null or one of ${SKY_TEMPLATES.join(', ')}`, body.template);
      if (typeof body.strength !== 'number' || !(Math.abs(body.strength) <= 1)) fail(`${path}.sky.strength`, 'a number between -1 and 1', body.strength);
      return { sky: { template: body.template as SkyTemplateName | null, strength: body.strength } };
    }
    default:
      return fail(path, 'an operation crop, rotate, auto or sky', op);
  }
}

/** Checks a delta from outside (a model, a stored record) and returns a clean copy; throws naming the first bad field. */
export function checkDelta(value: unknown): CopilotDelta {
  if (!isRecord(value)) fail('delta', 'an object {adjust, ops}', value);
  const extra = Object.keys(value).find((k) => k !== 'adjust' && k !== 'ops');
  if (extra !== undefined) throw new Error(`Unknown field delta.${extra}; known: adjust, ops`);
  if (!isRecord(value.adjust)) fail('delta.adjust', 'an object of numeric changes', value.adjust);
  if (!Array.isArray(value.ops)) fail('delta.ops', 'an array of operations', value.ops);
  const adjust: SettingsDelta = {};
  for (const [key, change] of Object.entries(value.adjust)) {
    if (!(ADJUST_KEYS as readonly string[]).includes(key)) throw new Error(`Unknown field delta.adjust.${key}; known: ${ADJUST_KEYS.join(', ')}`);
    const span = spanOf(key as AdjustKey);
    if (typeof change !== 'number' || !Number.isFinite(change) || Math.abs(change) > span) fail(`delta.adjust.${key}`, `a number between -${span} and ${span}`, change);
    adjust[key as AdjustKey] = change;
  }
  return { adjust, ops: value.ops.map((op, i) => checkOp(op, `delta.ops[${i}]`)) };
}

/** What applyCopilotDelta needs besides the settings, depending on the operations. */
export interface ApplyContext {
  /** Size of the photo as it enters the renderer (after earlier quarter turns): aspect crops need its shape. */
  frame?: { width: number; height: number };
  /** detectStraighten(photo) on the oriented source photo, as it returns it, for { auto: 'straighten' }. */
  straighten?: { angle: number };
  /** detectPerspective(photo) on the oriented source photo, as it returns it, for { auto: 'perspective' }. */
  perspective?: { vertical: number; horizontal: number; straightenAngle: number };
  /** The stored id of a named sky template; by default the built-in ids 1..4 in SKY_TEMPLATES order. */
  skyTemplateId?: (name: SkyTemplateName) => number;
}

export interface AppliedDelta {
  settings: DevelopSettings;
  /** Clockwise quarter turn to add to the photo's orientation (0 for none): DevelopSettings has no field for it. */
  rotate: 0 | QuarterTurn;
}

const FULL: CropRect = { left: 0, top: 0, right: 1, bottom: 1 };

/** A crop of fractional size w × h centred at (cx, cy), slid inside the frame; null when it is the whole frame. */
function centredCrop(cx: number, cy: number, w: number, h: number): CropRect | null {
  if (w >= 1 - 1e-9 && h >= 1 - 1e-9) return null;
  const left = Math.min(1 - w, Math.max(0, cx - w / 2));
  const top = Math.min(1 - h, Math.max(0, cy - h / 2));
  return { left, top, right: left + w, bottom: top + h };
}

/** The largest window of `aspect` (pixels) inside the current crop of a frame, about its centre. */
function aspectCrop(crop: CropRect | null, frame: { width: number; height: number }, aspect: number): CropRect | null {
  const c = crop ?? FULL;
  let w = c.right - c.left;
  let h = c.bottom - c.top;
  if ((w * frame.width) / (h * frame.height) > aspect) w = (h * frame.height * aspect) / frame.width;
  else h = (w * frame.width) / (aspect * frame.height);
  return centredCrop((c.left + c.right) / 2, (c.top + c.bottom) / 2, w, h);
}

/** The current crop resized by `scale` about its centre, keeping its shape and staying inside the frame. */
function scaledCrop(crop: CropRect | null, scale: number): CropRect | null {
  const c = crop ?? FULL;
  const w = c.right - c.left;
  const h = c.bottom - c.top;
  const s = Math.min(scale, 1 / w, 1 / h);
  return centredCrop((c.left + c.right) / 2, (c.top + c.bottom) / 2, w * s, h * s);
}

/** A crop and perspective as they read after the photo turns a quarter clockwise. */
function turnQuarter(s: DevelopSettings): void {
  const c = s.crop;
  if (c) s.crop = { left: 1 - c.bottom, top: c.left, right: 1 - c.top, bottom: c.right };
  // The old top edge becomes the right edge: narrowing it is a negative horizontal.
  s.perspective = { vertical: s.perspective.horizontal, horizontal: -s.perspective.vertical };
}

function required<T>(value: T | undefined, what: string, op: string): T {
  if (value === undefined) throw new Error(`Expected context.${what} for the operation ${op} but it was not given`);
  return value;
}

function finite(value: number, what: string): number {
  if (!Number.isFinite(value)) fail(`context.${what}`, 'a finite number', value);
  return value;
}

function checkFrame(frame: ApplyContext['frame']): ApplyContext['frame'] {
  if (frame === undefined) return undefined;
  if (!isRecord(frame) || !(Number.isInteger(frame.width) && frame.width >= 1 && Number.isInteger(frame.height) && frame.height >= 1)) fail('context.frame', 'positive integers {width, height}', frame);
  return frame;
}

/**
 * The child version's settings: the operations in order, then the relative slider changes,
 * every field clamped into its range. Operations that need the photo (aspect crops, auto
 * corrections) take it from `context` and throw naming what is missing.
 */
export function applyCopilotDelta(settings: DevelopSettings, delta: CopilotDelta, context: ApplyContext = {}): AppliedDelta {
  const s = validateSettings(settings);
  const clean = checkDelta(delta);
  let frame = checkFrame(context.frame);
  let turns = 0;
  for (const op of clean.ops) {
    if ('rotate' in op) {
      for (let q = 0; q < op.rotate / 90; q++) turnQuarter(s);
      turns += op.rotate / 90;
      if (frame && op.rotate !== 180) frame = { width: frame.height, height: frame.width };
    } else if ('crop' in op) {
      if (op.crop === 'reset') s.crop = null;
      else if ('scale' in op.crop) s.crop = scaledCrop(s.crop, op.crop.scale);
      else s.crop = aspectCrop(s.crop, required(frame, 'frame', 'crop.aspect'), aspectValue(op.crop.aspect));
    } else if ('auto' in op) {
      if (op.auto === 'straighten') s.straightenAngle = finite(required(context.straighten, 'straighten', 'auto straighten').angle, 'straighten.angle');
      else {
        const p = required(context.perspective, 'perspective', 'auto perspective');
        s.perspective = { vertical: finite(p.vertical, 'perspective.vertical'), horizontal: finite(p.horizontal, 'perspective.horizontal') };
        s.straightenAngle = finite(p.straightenAngle, 'perspective.straightenAngle');
      }
    } else if (op.sky === 'remove') {
      s.sky = null;
    } else {
      const templateId = context.skyTemplateId ?? ((name: SkyTemplateName) => SKY_TEMPLATES.indexOf(name) + 1);
      const current = s.sky?.strength ?? 0;
      const strength = Math.min(1, Math.max(0, current + op.sky.strength));
      const id = op.sky.template !== null ? templateId(op.sky.template) : (s.sky?.templateId ?? templateId(DEFAULT_SKY_TEMPLATE));
      s.sky = strength > 0 ? { templateId: id, strength } : null;
    }
  }
  return { settings: clampSettings(applyDelta(s, clean.adjust)), rotate: ((turns % 4) * 90) as AppliedDelta['rotate'] };
}

/** Operations that need a detector run on the photo before applyCopilotDelta. */
export function detectorsNeeded(delta: CopilotDelta): AutoCorrection[] {
  return AUTO_CORRECTIONS.filter((a) => delta.ops.some((op) => 'auto' in op && op.auto === a));
}

/**
 * applyCopilotDelta on a photo, as it enters the renderer: its shape for aspect crops, and
 * the detectors the delta's auto corrections ask for, run on it (only those: each takes time).
 */
export function applyCopilotDeltaToPhoto(settings: DevelopSettings, delta: CopilotDelta, photo: Image16): AppliedDelta {
  const needs = detectorsNeeded(delta);
  return applyCopilotDelta(settings, delta, {
    frame: { width: photo.width, height: photo.height },
    ...(needs.includes('straighten') ? { straighten: detectStraighten(photo) } : {}),
    ...(needs.includes('perspective') ? { perspective: detectPerspective(photo) } : {}),
  });
}

const ADJUST_LABELS: Record<AdjustKey, [label: string, unit: string, digits: number]> = {
  exposure: ['exposure', ' EV', 2],
  contrast: ['contrast', '', 0],
  highlights: ['highlights', '', 0],
  shadows: ['shadows', '', 0],
  whites: ['whites', '', 0],
  blacks: ['blacks', '', 0],
  temperature: ['temperature', ' K', 0],
  tint: ['tint', '', 0],
  vibrance: ['vibrance', '', 0],
  saturation: ['saturation', '', 0],
  clarity: ['clarity', '', 0],
  sharpening: ['sharpening', '', 0],
  noiseReduction: ['noise reduction', '', 0],
  straightenAngle: ['straighten', '°', 1],
  windowPull: ['window pull', '', 0],
  smoothSkin: ['skin smoothing', '', 0],
  subjectEmphasis: ['subject emphasis', '', 0],
  perspectiveVertical: ['vertical perspective', '', 0],
  perspectiveHorizontal: ['horizontal perspective', '', 0],
};

function describeOp(op: CopilotOp): string {
  if ('rotate' in op) return `rotate ${op.rotate}° clockwise`;
  if ('auto' in op) return op.auto === 'straighten' ? 'auto straighten' : 'fix verticals';
  if ('crop' in op) return op.crop === 'reset' ? 'remove crop' : 'aspect' in op.crop ? `crop ${op.crop.aspect}` : `crop ${op.crop.scale < 1 ? 'tighter' : 'looser'} (×${op.crop.scale.toFixed(2)})`;
  if (op.sky === 'remove') return 'remove sky replacement';
  const strength = `${op.sky.strength >= 0 ? '+' : '−'}${Math.abs(op.sky.strength).toFixed(2)}`;
  return op.sky.template ? `sky: ${op.sky.template} (strength ${strength})` : `sky strength ${strength}`;
}

/** A short human summary: "exposure +0.40 EV, temperature +600 K, crop 4:5". */
export function describeDelta(delta: CopilotDelta): string {
  const parts = delta.ops.map(describeOp);
  for (const key of ADJUST_KEYS) {
    const change = delta.adjust[key];
    if (change === undefined || change === 0) continue;
    const [label, unit, digits] = ADJUST_LABELS[key];
    parts.push(`${label} ${change > 0 ? '+' : '−'}${Math.abs(change).toFixed(digits)}${unit}`);
  }
  return parts.length > 0 ? parts.join(', ') : 'no change';
}
