/**
 * DevelopSettings: the plain, versioned, JSON-serialisable record of what is done to a
 * photo, close to Lightroom's Process 2012 develop settings. estimate() produces it,
 * render() applies it, toXmp() writes it for Lightroom, Copilot edits it by deltas.
 * Units and ranges are in SETTING_RANGES and docs/imaging-engine.md.
 */
import { assertIntegerInRange, assertNumberInRange, invalidParameterError } from './args.js';
import { REFERENCE_WHITE, TEMPERATURE_RANGE } from './colour.js';
import { clamp } from './math.js';
import type { CropRect } from './types.js';

export const SETTINGS_VERSION = 2;

export interface DevelopSettings {
  version: typeof SETTINGS_VERSION;
  /** EV, −5..5: linear-light gain of 2^exposure. */
  exposure: number;
  /** −100..100: log-space slope of the tone curve through 18 % grey, ×1.5^(contrast/100); raising it lets the brightest tones clip. */
  contrast: number;
  /** −100..100: local, edge-aware; negative darkens bright regions (recovery). */
  highlights: number;
  /** −100..100: local, edge-aware; positive lifts dark regions. */
  shadows: number;
  /** −100..100: moves the top of the tone curve by up to ±0.5 EV. */
  whites: number;
  /** −100..100: negative sets a black point (crush), positive lifts black. */
  blacks: number;
  /** Kelvin, 2000..50000: the light to balance for; 6500 with tint 0 leaves the decoded image unchanged. Lower is bluer. */
  temperature: number;
  /** −150..150: positive is a greener light, so the image turns more magenta. */
  tint: number;
  /** −100..100: saturation that favours muted colours and spares skin. */
  vibrance: number;
  /** −100..100: uniform saturation; −100 is greyscale. */
  saturation: number;
  /** −100..100: mid-tone local contrast. */
  clarity: number;
  /** 0..150: unsharp-mask amount (radius ≈ 1 px). */
  sharpening: number;
  /** 0..100: luminance noise reduction. */
  noiseReduction: number;
  /**
   * Degrees, −45..45: rotation of the picture about its centre, positive counter-clockwise
   * (the sign of Lightroom's CropAngle and of geometry/), cropped to the largest rectangle
   * of the original aspect ratio.
   */
  straightenAngle: number;
  /** Crop in fractions of the straightened, perspective-corrected frame; null for none. */
  crop: CropRect | null;
  /** −100..100 each, Lightroom's Upright sliders; the geometry stage defines the warp. */
  perspective: { vertical: number; horizontal: number };
  /** Sky replacement with a template sky; strength 0..1. null for none. */
  sky: { templateId: number; strength: number } | null;
  /** Set when the image is a merge of a bracket of `frames` exposures (2..9). */
  hdr: { frames: number } | null;
  /** 0..100: recovery of blown-out windows in interiors. */
  windowPull: number;
  /** 0..100: skin smoothing strength. */
  smoothSkin: number;
  /** 0..100: subtle emphasis of the main subject (a touch brighter and crisper than its background). */
  subjectEmphasis: number;
}

/** Fields holding a plain number, with their ranges; also the keys of a settings delta. */
export const SETTING_RANGES = {
  exposure: [-5, 5],
  contrast: [-100, 100],
  highlights: [-100, 100],
  shadows: [-100, 100],
  whites: [-100, 100],
  blacks: [-100, 100],
  temperature: [TEMPERATURE_RANGE.min, TEMPERATURE_RANGE.max],
  tint: [-150, 150],
  vibrance: [-100, 100],
  saturation: [-100, 100],
  clarity: [-100, 100],
  sharpening: [0, 150],
  noiseReduction: [0, 100],
  straightenAngle: [-45, 45],
  windowPull: [0, 100],
  smoothSkin: [0, 100],
  subjectEmphasis: [0, 100],
} as const satisfies Record<string, readonly [number, number]>;

export type NumericSetting = keyof typeof SETTING_RANGES;
const NUMERIC_KEYS = Object.keys(SETTING_RANGES) as NumericSetting[];
const rangeOf = (key: NumericSetting): readonly [number, number] => SETTING_RANGES[key];

const PERSPECTIVE_RANGE = [-100, 100] as const;

export function defaultSettings(): DevelopSettings {
  return {
    version: SETTINGS_VERSION,
    exposure: 0,
    contrast: 0,
    highlights: 0,
    shadows: 0,
    whites: 0,
    blacks: 0,
    temperature: REFERENCE_WHITE.temperature,
    tint: REFERENCE_WHITE.tint,
    vibrance: 0,
    saturation: 0,
    clarity: 0,
    sharpening: 0,
    noiseReduction: 0,
    straightenAngle: 0,
    crop: null,
    perspective: { vertical: 0, horizontal: 0 },
    sky: null,
    hdr: null,
    windowPull: 0,
    smoothSkin: 0,
    subjectEmphasis: 0,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function number(value: unknown, path: string, [min, max]: readonly [number, number]): number {
  assertNumberInRange(value, path, min, max);
  return value;
}

function integer(value: unknown, path: string, [min, max]: readonly [number, number]): number {
  assertIntegerInRange(value, path, min, max);
  return value;
}

function onlyKeys(value: Record<string, unknown>, path: string, keys: readonly string[]): void {
  const extra = Object.keys(value).find((k) => !keys.includes(k));
  if (extra !== undefined) throw new Error(`Unknown field ${path ? `${path}.` : ''}${extra}; known: ${keys.join(', ')}`);
}

function validateCrop(value: unknown): CropRect | null {
  if (value === null) return null;
  if (!isRecord(value)) throw invalidParameterError('crop', 'an object {left, top, right, bottom} or null', value);
  onlyKeys(value, 'crop', ['left', 'top', 'right', 'bottom']);
  const crop = {
    left: number(value.left, 'crop.left', [0, 1]),
    top: number(value.top, 'crop.top', [0, 1]),
    right: number(value.right, 'crop.right', [0, 1]),
    bottom: number(value.bottom, 'crop.bottom', [0, 1]),
  };
  if (crop.right <= crop.left) throw invalidParameterError('crop.right', `a number greater than crop.left (${crop.left})`, crop.right);
  if (crop.bottom <= crop.top) throw invalidParameterError('crop.bottom', `a number greater than crop.top (${crop.top})`, crop.bottom);
  return crop;
}

const FIELDS = Object.keys(defaultSettings());

/** Checks every field of a current-version record and returns a clean copy; throws naming the first bad field. */
export function validateSettings(value: unknown): DevelopSettings {
  if (!isRecord(value)) throw invalidParameterError('settings', 'an object', value);
  if (value.version !== SETTINGS_VERSION) throw invalidParameterError('version', `${SETTINGS_VERSION} (use migrateSettings for older records)`, value.version);
  onlyKeys(value, '', FIELDS);
  const missing = FIELDS.find((k) => !(k in value));
  if (missing !== undefined) throw new Error(`Missing field ${missing} in settings`);
  const out = defaultSettings();
  for (const key of NUMERIC_KEYS) out[key] = number(value[key], key, SETTING_RANGES[key]);
  out.crop = validateCrop(value.crop);
  const p = value.perspective;
  if (!isRecord(p)) throw invalidParameterError('perspective', 'an object {vertical, horizontal}', p);
  onlyKeys(p, 'perspective', ['vertical', 'horizontal']);
  out.perspective = { vertical: number(p.vertical, 'perspective.vertical', PERSPECTIVE_RANGE), horizontal: number(p.horizontal, 'perspective.horizontal', PERSPECTIVE_RANGE) };
  if (value.sky !== null) {
    if (!isRecord(value.sky)) throw invalidParameterError('sky', 'an object {templateId, strength} or null', value.sky);
    onlyKeys(value.sky, 'sky', ['templateId', 'strength']);
    out.sky = { templateId: integer(value.sky.templateId, 'sky.templateId', [0, Number.MAX_SAFE_INTEGER]), strength: number(value.sky.strength, 'sky.strength', [0, 1]) };
  }
  if (value.hdr !== null) {
    if (!isRecord(value.hdr)) throw invalidParameterError('hdr', 'an object {frames} or null', value.hdr);
    onlyKeys(value.hdr, 'hdr', ['frames']);
    out.hdr = { frames: integer(value.hdr.frames, 'hdr.frames', [2, 9]) };
  }
  return out;
}

/**
 * One step per version: MIGRATIONS[n] turns a version-n record into version n+1, as
 * darktable upgrades a module's parameters. Version 0 is the unversioned partial record
 * (a profile or a hand-written preset listing only the fields it sets): the rest take
 * their defaults.
 */
const MIGRATIONS: Record<number, (old: Record<string, unknown>) => Record<string, unknown>> = {
  0: (old) => {
    const { version: _ignored, ...fields } = old;
    return { ...defaultSettings(), ...fields, version: 1 };
  },
  // Version 1 kept the automatic crop the options asked for (autoCrop); the edit request holds it now, and `crop` what it became.
  1: ({ autoCrop: _request, ...fields }) => ({ ...fields, version: 2 }),
};

/** Brings a stored record (object or JSON text) of any known version to the current one, then validates it. */
export function migrateSettings(json: unknown): DevelopSettings {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json) as unknown;
    } catch (err) {
      throw new Error(`Expected settings JSON but could not parse it: ${(err as Error).message}`);
    }
  }
  if (!isRecord(value)) throw invalidParameterError('settings', 'an object', value);
  const stored = value.version ?? 0;
  if (typeof stored !== 'number' || !Number.isInteger(stored) || stored < 0) throw invalidParameterError('version', 'a non-negative integer or no version', stored);
  if (stored > SETTINGS_VERSION) throw new Error(`Settings version ${stored} is newer than this engine supports (${SETTINGS_VERSION})`);
  let record = value;
  for (let version = stored; version < SETTINGS_VERSION; version++) record = MIGRATIONS[version]!(record);
  return validateSettings(record);
}

/** Numeric changes to settings; keys are the numeric fields plus the two perspective sliders. */
export type SettingsDelta = Partial<Record<NumericSetting | 'perspectiveVertical' | 'perspectiveHorizontal', number>>;

/** What to add to `from`'s numeric fields to reach `to`'s (zero differences left out). */
export function diffSettings(from: DevelopSettings, to: DevelopSettings): SettingsDelta {
  const delta: SettingsDelta = {};
  for (const key of NUMERIC_KEYS) if (to[key] !== from[key]) delta[key] = to[key] - from[key];
  if (to.perspective.vertical !== from.perspective.vertical) delta.perspectiveVertical = to.perspective.vertical - from.perspective.vertical;
  if (to.perspective.horizontal !== from.perspective.horizontal) delta.perspectiveHorizontal = to.perspective.horizontal - from.perspective.horizontal;
  return delta;
}

/** Adds a delta to settings, clamping each field into its range; returns a new record. */
export function applyDelta(settings: DevelopSettings, delta: SettingsDelta): DevelopSettings {
  if (!isRecord(delta)) throw invalidParameterError('delta', 'an object of numeric changes', delta);
  const out: DevelopSettings = { ...settings, perspective: { ...settings.perspective } };
  for (const [key, change] of Object.entries(delta)) {
    if (typeof change !== 'number' || !Number.isFinite(change)) throw invalidParameterError(`delta.${key}`, 'a finite number', change);
    if (key === 'perspectiveVertical') out.perspective.vertical = clamp(out.perspective.vertical + change, ...PERSPECTIVE_RANGE);
    else if (key === 'perspectiveHorizontal') out.perspective.horizontal = clamp(out.perspective.horizontal + change, ...PERSPECTIVE_RANGE);
    else if (key in SETTING_RANGES) out[key as NumericSetting] = clamp(out[key as NumericSetting] + change, ...rangeOf(key as NumericSetting));
    else throw new Error(`Unknown field delta.${key}; known: ${[...NUMERIC_KEYS, 'perspectiveVertical', 'perspectiveHorizontal'].join(', ')}`);
  }
  return out;
}

/** Clamps every numeric field into range: for settings computed by arithmetic (estimate, styles). */
export function clampSettings(settings: DevelopSettings): DevelopSettings {
  const out: DevelopSettings = { ...settings, perspective: { ...settings.perspective } };
  for (const key of NUMERIC_KEYS) out[key] = clamp(out[key], ...rangeOf(key));
  out.perspective.vertical = clamp(out.perspective.vertical, ...PERSPECTIVE_RANGE);
  out.perspective.horizontal = clamp(out.perspective.horizontal, ...PERSPECTIVE_RANGE);
  return out;
}

/**
 * What a profile holds: biases added to the automatic estimate, one per slider. Every
 * field is an additive offset in the slider's own units (warmth in mireds), so a style is
 * fitted from examples as the mean difference between the photographer's settings and
 * the plain estimate of the same photos.
 */
export interface Style {
  name: string;
  exposure: number;
  contrast: number;
  highlights: number;
  shadows: number;
  whites: number;
  blacks: number;
  /** Mireds; positive warms the image (the white balance moves to a higher temperature). */
  warmth: number;
  tint: number;
  vibrance: number;
  saturation: number;
  clarity: number;
}

export type StyleBias = Omit<Style, 'name'>;

const NO_BIAS: StyleBias = { exposure: 0, contrast: 0, highlights: 0, shadows: 0, whites: 0, blacks: 0, warmth: 0, tint: 0, vibrance: 0, saturation: 0, clarity: 0 };

export function neutralStyle(name = 'natural'): Style {
  return { name, ...NO_BIAS };
}

/** The styles every account starts with, by key. */
export const BUILT_IN_STYLES: Readonly<Record<'natural' | 'bright-airy' | 'warm-wedding' | 'moody' | 'real-estate-bright', Style>> = {
  natural: neutralStyle('Natural'),
  'bright-airy': { ...NO_BIAS, name: 'Bright & airy', exposure: 0.35, contrast: -15, highlights: -20, shadows: 25, whites: 10, blacks: 10, warmth: 4, vibrance: 10, saturation: -10 },
  'warm-wedding': { ...NO_BIAS, name: 'Warm wedding', exposure: 0.15, contrast: -5, highlights: -15, shadows: 10, warmth: 15, tint: 4, vibrance: 12, clarity: -5 },
  moody: { ...NO_BIAS, name: 'Moody', exposure: -0.3, contrast: 25, highlights: -30, shadows: -10, whites: -10, blacks: -15, warmth: -6, saturation: -20, clarity: 15 },
  'real-estate-bright': { ...NO_BIAS, name: 'Real-estate bright', exposure: 0.3, highlights: -40, shadows: 35, whites: 10, blacks: -5, vibrance: 10, clarity: 10 },
};

/** Adds a style's (or any) biases to settings, clamped into range. */
export function applyBias(settings: DevelopSettings, bias: Partial<Style>): DevelopSettings {
  const { warmth = 0, name: _name, ...sliders } = bias;
  const out = applyDelta(settings, sliders);
  out.temperature = clamp(1e6 / (1e6 / out.temperature - warmth), ...SETTING_RANGES.temperature);
  return out;
}
