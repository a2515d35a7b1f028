/**
 * Adobe Camera Raw sidecars (XMP, crs namespace, Process 2012 sliders) for Lightroom
 * Classic, and reading them back. Sliders map one to one; white balance and crop need
 * conversion (docs/imaging-engine.md, "XMP mapping"). Settings Lightroom has no field for
 * (sky, window pull, skin smoothing, HDR, automatic crop) go in our own namespace so a
 * sidecar round-trips whole; Lightroom ignores them.
 */
import { assertIntegerInRange, invalidParameterError } from './args.js';
import { REFERENCE_WHITE, TEMPERATURE_RANGE, mired } from './colour.js';
import { clamp } from './math.js';
import { defaultSettings, validateSettings, type DevelopSettings } from './settings.js';

const CRS = 'http://ns.adobe.com/camera-raw-settings/1.0/';
const OURS = 'urn:retouch:develop:1';
/** Process Version 6 (Lightroom Classic 10 and later): the 2012 sliders with today's rendering. */
const PROCESS_VERSION = '11.0';
const CAMERA_RAW_VERSION = '15.0';

export interface XmpOptions {
  /** RAW files get absolute Temperature/Tint; others IncrementalTemperature/IncrementalTint. */
  isRaw: boolean;
  /** Recorded as crs:RawFileName, which Lightroom shows for the sidecar's photo. */
  sourceFileName?: string;
  /** The camera's as-shot white of a RAW (what decoding balanced for); defaults to the reference white. */
  asShot?: { temperature: number; tint: number };
  /** Size of the displayed (orientation-corrected) original; needed when the picture is straightened. */
  width?: number;
  height?: number;
  /** EXIF orientation of the original file (1..8): Lightroom's crop is in stored-pixel coordinates. */
  orientation?: number;
}

/** The incremental scale maps mireds piecewise-linearly: −100 ↔ 2000 K, 0 ↔ reference, +100 ↔ 50000 K. */
const REF_MIRED = mired(REFERENCE_WHITE.temperature);
const WARM_MIRED = mired(TEMPERATURE_RANGE.min);
const COOL_MIRED = mired(TEMPERATURE_RANGE.max);

/**
 * Scale of the largest rectangle of the original's aspect ratio, centred, that fits
 * inside a width × height picture rotated by angle degrees (Lightroom's straighten crop).
 */
function straightenScale(width: number, height: number, angle: number): number {
  const t = (Math.abs(angle) * Math.PI) / 180;
  const c = Math.cos(t);
  const sn = Math.sin(t);
  return Math.min(width / (width * c + height * sn), height / (width * sn + height * c));
}

export function incrementalTemperature(temperature: number): number {
  const m = mired(temperature);
  if (m === REF_MIRED) return 0;
  return m > REF_MIRED ? (-100 * (m - REF_MIRED)) / (WARM_MIRED - REF_MIRED) : (100 * (REF_MIRED - m)) / (REF_MIRED - COOL_MIRED);
}

export function temperatureFromIncremental(increment: number): number {
  const m = increment <= 0 ? REF_MIRED - (increment / 100) * (WARM_MIRED - REF_MIRED) : REF_MIRED - (increment / 100) * (REF_MIRED - COOL_MIRED);
  return 1e6 / m;
}

type Point = [number, number];

/** Clockwise rotation by degrees in image coordinates (y down). */
function rotate([x, y]: Point, degrees: number): Point {
  const t = (degrees * Math.PI) / 180;
  return [x * Math.cos(t) - y * Math.sin(t), x * Math.sin(t) + y * Math.cos(t)];
}

/** Displayed-image fractions to stored-pixel fractions for an EXIF orientation. */
function toStored([x, y]: Point, orientation: number): Point {
  switch (orientation) {
    case 2:
      return [1 - x, y];
    case 3:
      return [1 - x, 1 - y];
    case 4:
      return [x, 1 - y];
    case 5:
      return [y, x];
    case 6:
      return [y, 1 - x];
    case 7:
      return [1 - y, 1 - x];
    case 8:
      return [1 - y, x];
    default:
      return [x, y];
  }
}

function toDisplayed([x, y]: Point, orientation: number): Point {
  switch (orientation) {
    case 6:
      return [1 - y, x];
    case 8:
      return [y, 1 - x];
    default:
      return toStored([x, y], orientation);
  }
}

const MIRRORED = new Set([2, 4, 5, 7]);
const SWAPPED = new Set([5, 6, 7, 8]);

interface LrCrop {
  left: number;
  top: number;
  right: number;
  bottom: number;
  angle: number;
}

function requireSize(options: { width?: number; height?: number }): { width: number; height: number } {
  const { width, height } = options;
  if (!(Number.isInteger(width) && width! > 0 && Number.isInteger(height) && height! > 0)) {
    throw invalidParameterError('options.width × options.height', 'the positive integer width and height of the original (to convert a straightened crop)', `${String(width)} × ${String(height)}`);
  }
  return { width: width!, height: height! };
}

/**
 * Our crop (fractions of the straightened frame, rotation about the picture's centre) as
 * Lightroom's: the crop's corners in stored-pixel fractions of the original, and the
 * angle of the crop rectangle (negative of the picture's clockwise rotation).
 */
function toLightroomCrop(s: DevelopSettings, options: XmpOptions): LrCrop {
  const orientation = options.orientation ?? 1;
  // The geometry below turns the picture clockwise; our straightenAngle is counter-clockwise.
  const clockwise = -s.straightenAngle;
  const crop = s.crop ?? { left: 0, top: 0, right: 1, bottom: 1 };
  const { width, height } = clockwise === 0 ? { width: 1, height: 1 } : requireSize(options);
  const scale = straightenScale(width, height, clockwise);
  const fw = width * scale;
  const fh = height * scale;
  const corners: Point[] = [
    [crop.left, crop.top],
    [crop.right, crop.top],
    [crop.right, crop.bottom],
    [crop.left, crop.bottom],
  ].map(([x, y]) => {
    const [px, py] = rotate([(x! - 0.5) * fw, (y! - 0.5) * fh], -clockwise);
    return toStored([px / width + 0.5, py / height + 0.5], orientation);
  });
  const angle = MIRRORED.has(orientation) ? clockwise : -clockwise;
  const [sw, sh] = SWAPPED.has(orientation) ? [height, width] : [width, height];
  // The rectangle's own top-left and bottom-right: undo its angle, then take the extremes.
  const aligned = corners.map(([x, y]) => rotate([(x - 0.5) * sw, (y - 0.5) * sh], -angle));
  const sums = aligned.map(([x, y]) => x + y);
  const tl = corners[sums.indexOf(Math.min(...sums))]!;
  const br = corners[sums.indexOf(Math.max(...sums))]!;
  return { left: tl[0], top: tl[1], right: br[0], bottom: br[1], angle };
}

function fromLightroomCrop(c: LrCrop, options: Omit<XmpOptions, 'isRaw'>): { straightenAngle: number; crop: DevelopSettings['crop'] } {
  const orientation = options.orientation ?? 1;
  const clockwise = MIRRORED.has(orientation) ? c.angle : -c.angle;
  const { width, height } = c.angle === 0 ? { width: 1, height: 1 } : requireSize(options);
  const [sw, sh] = SWAPPED.has(orientation) ? [height, width] : [width, height];
  const tl: Point = [(c.left - 0.5) * sw, (c.top - 0.5) * sh];
  const br: Point = [(c.right - 0.5) * sw, (c.bottom - 0.5) * sh];
  const centre: Point = [(tl[0] + br[0]) / 2, (tl[1] + br[1]) / 2];
  const [hx, hy] = rotate([br[0] - centre[0], br[1] - centre[1]], -c.angle);
  const corners = [
    [-hx, -hy],
    [hx, -hy],
    [hx, hy],
    [-hx, hy],
  ].map(([x, y]) => {
    const [px, py] = rotate([x!, y!], c.angle);
    const [dx, dy] = toDisplayed([(centre[0] + px) / sw + 0.5, (centre[1] + py) / sh + 0.5], orientation);
    return rotate([(dx - 0.5) * width, (dy - 0.5) * height], clockwise);
  });
  const scale = straightenScale(width, height, clockwise);
  const fw = width * scale;
  const fh = height * scale;
  const xs = corners.map(([x]) => x / fw + 0.5);
  const ys = corners.map(([, y]) => y / fh + 0.5);
  const crop = { left: clamp(Math.min(...xs), 0, 1), top: clamp(Math.min(...ys), 0, 1), right: clamp(Math.max(...xs), 0, 1), bottom: clamp(Math.max(...ys), 0, 1) };
  const full = crop.left < 1e-4 && crop.top < 1e-4 && crop.right > 1 - 1e-4 && crop.bottom > 1 - 1e-4;
  return { straightenAngle: -clockwise, crop: full ? null : crop };
}

function signed(value: number, digits = 0): string {
  const text = value.toFixed(digits);
  return value > 0 && Number(text) !== 0 ? `+${text}` : Number(text) === 0 ? (0).toFixed(digits) : text;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function assertXmpOptions(options: XmpOptions): void {
  if (typeof options !== 'object' || options === null || typeof options.isRaw !== 'boolean') throw invalidParameterError('options', 'an object {isRaw: boolean, ...}', options);
  if (options.orientation !== undefined) assertIntegerInRange(options.orientation, 'options.orientation', 1, 8);
}

/** An XMP sidecar that Lightroom Classic and Camera Raw apply to the original. */
export function toXmp(settings: DevelopSettings, options: XmpOptions): string {
  assertXmpOptions(options);
  const s = validateSettings(settings);
  const attrs: [string, string][] = [
    ['crs:Version', CAMERA_RAW_VERSION],
    ['crs:ProcessVersion', PROCESS_VERSION],
  ];
  if (options.sourceFileName) attrs.push(['crs:RawFileName', options.sourceFileName]);
  const neutral = s.temperature === REFERENCE_WHITE.temperature && s.tint === REFERENCE_WHITE.tint;
  if (options.isRaw) {
    if (neutral) attrs.push(['crs:WhiteBalance', 'As Shot']);
    else {
      // Our white balance is relative to what decoding balanced for (the as-shot white).
      const asShot = options.asShot ?? REFERENCE_WHITE;
      const absolute = 1e6 / (mired(asShot.temperature) + mired(s.temperature) - REF_MIRED);
      attrs.push(['crs:WhiteBalance', 'Custom'], ['crs:Temperature', String(Math.round(absolute))], ['crs:Tint', signed(asShot.tint + s.tint)]);
    }
  } else {
    attrs.push(['crs:WhiteBalance', neutral ? 'As Shot' : 'Custom'], ['crs:IncrementalTemperature', signed(incrementalTemperature(s.temperature))], ['crs:IncrementalTint', signed(Math.max(-100, Math.min(100, s.tint)))]);
  }
  attrs.push(
    ['crs:Exposure2012', signed(s.exposure, 2)],
    ['crs:Contrast2012', signed(s.contrast)],
    ['crs:Highlights2012', signed(s.highlights)],
    ['crs:Shadows2012', signed(s.shadows)],
    ['crs:Whites2012', signed(s.whites)],
    ['crs:Blacks2012', signed(s.blacks)],
    ['crs:Clarity2012', signed(s.clarity)],
    ['crs:Vibrance', signed(s.vibrance)],
    ['crs:Saturation', signed(s.saturation)],
    ['crs:Sharpness', String(Math.round(s.sharpening))],
    ['crs:SharpenRadius', '+1.0'],
    ['crs:LuminanceSmoothing', String(Math.round(s.noiseReduction))],
    ['crs:ToneCurveName2012', 'Linear'],
    ['crs:PerspectiveVertical', signed(s.perspective.vertical)],
    ['crs:PerspectiveHorizontal', signed(s.perspective.horizontal)],
  );
  const hasCrop = s.crop !== null || s.straightenAngle !== 0;
  if (hasCrop) {
    const c = toLightroomCrop(s, options);
    attrs.push(['crs:CropTop', c.top.toFixed(6)], ['crs:CropLeft', c.left.toFixed(6)], ['crs:CropBottom', c.bottom.toFixed(6)], ['crs:CropRight', c.right.toFixed(6)], ['crs:CropAngle', signed(c.angle, 2)], ['crs:CropConstrainToWarp', '1']);
  }
  attrs.push(['crs:HasCrop', hasCrop ? 'True' : 'False'], ['crs:HasSettings', 'True'], ['crs:AlreadyApplied', 'False']);
  attrs.push(['retouch:SettingsVersion', String(s.version)]);
  if (s.sky) attrs.push(['retouch:SkyTemplateId', String(s.sky.templateId)], ['retouch:SkyStrength', String(s.sky.strength)]);
  if (s.hdr) attrs.push(['retouch:HdrFrames', String(s.hdr.frames)]);
  if (s.windowPull) attrs.push(['retouch:WindowPull', String(s.windowPull)]);
  if (s.smoothSkin) attrs.push(['retouch:SmoothSkin', String(s.smoothSkin)]);
  if (s.subjectEmphasis) attrs.push(['retouch:SubjectEmphasis', String(s.subjectEmphasis)]);
  const lines = attrs.map(([k, v]) => `   ${k}="${escapeXml(v)}"`).join('\n');
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="retouch">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `  <rdf:Description rdf:about=""\n    xmlns:crs="${CRS}"\n    xmlns:retouch="${OURS}"\n${lines}/>`,
    ' </rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
    '',
  ].join('\n');
}

function unescapeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, '&');
}

/** Every property of a namespace, from attributes (prefix:Name="v") and simple elements (<prefix:Name>v</prefix:Name>), whatever prefix the document binds to it. */
function properties(xml: string, namespace: string): Map<string, string> {
  const out = new Map<string, string>();
  const escaped = namespace.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  for (const match of xml.matchAll(new RegExp(`xmlns:([\\w.-]+)\\s*=\\s*["']${escaped}["']`, 'g'))) {
    const prefix = match[1]!;
    for (const m of xml.matchAll(new RegExp(`\\b${prefix}:(\\w+)\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g'))) out.set(m[1]!, unescapeXml(m[2] ?? m[3]!));
    for (const m of xml.matchAll(new RegExp(`<${prefix}:(\\w+)(?:\\s[^>]*)?>([^<]*)</${prefix}:\\1\\s*>`, 'g'))) out.set(m[1]!, unescapeXml(m[2]!.trim()));
  }
  return out;
}

/** Reads a Camera Raw sidecar back into settings; fields it lacks keep their defaults. */
export function fromXmp(xml: string, options: Omit<XmpOptions, 'isRaw' | 'sourceFileName'> = {}): DevelopSettings {
  if (typeof xml !== 'string') throw invalidParameterError('xml', 'XMP text', xml);
  const crs = properties(xml, CRS);
  if (crs.size === 0) throw new Error(`Expected an XMP packet with Camera Raw settings (namespace ${CRS}) but found none`);
  const ours = properties(xml, OURS);
  const s = defaultSettings();
  const num = (map: Map<string, string>, name: string): number | undefined => {
    const raw = map.get(name);
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new Error(`Expected a number for crs:${name} but received "${raw}"`);
    return value;
  };
  const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));
  const sliders: [keyof DevelopSettings, string, number, number][] = [
    ['exposure', 'Exposure2012', -5, 5],
    ['contrast', 'Contrast2012', -100, 100],
    ['highlights', 'Highlights2012', -100, 100],
    ['shadows', 'Shadows2012', -100, 100],
    ['whites', 'Whites2012', -100, 100],
    ['blacks', 'Blacks2012', -100, 100],
    ['clarity', 'Clarity2012', -100, 100],
    ['vibrance', 'Vibrance', -100, 100],
    ['saturation', 'Saturation', -100, 100],
    ['sharpening', 'Sharpness', 0, 150],
    ['noiseReduction', 'LuminanceSmoothing', 0, 100],
  ];
  for (const [key, name, min, max] of sliders) {
    const v = num(crs, name);
    if (v !== undefined) (s as unknown as Record<string, number>)[key] = clamp(v, min, max);
  }
  const temperature = num(crs, 'Temperature');
  const incremental = num(crs, 'IncrementalTemperature');
  if (temperature !== undefined && crs.get('WhiteBalance') !== 'As Shot') {
    const asShot = options.asShot ?? REFERENCE_WHITE;
    s.temperature = clamp(1e6 / (mired(temperature) - mired(asShot.temperature) + REF_MIRED), TEMPERATURE_RANGE.min, TEMPERATURE_RANGE.max);
    s.tint = clamp((num(crs, 'Tint') ?? asShot.tint) - asShot.tint, -150, 150);
  } else if (incremental !== undefined) {
    s.temperature = clamp(temperatureFromIncremental(clamp(incremental, -100, 100)), TEMPERATURE_RANGE.min, TEMPERATURE_RANGE.max);
    s.tint = clamp(num(crs, 'IncrementalTint') ?? 0, -100, 100);
  }
  s.perspective = { vertical: clamp(num(crs, 'PerspectiveVertical') ?? 0, -100, 100), horizontal: clamp(num(crs, 'PerspectiveHorizontal') ?? 0, -100, 100) };
  if (crs.get('HasCrop') === 'True') {
    const c: LrCrop = { left: num(crs, 'CropLeft') ?? 0, top: num(crs, 'CropTop') ?? 0, right: num(crs, 'CropRight') ?? 1, bottom: num(crs, 'CropBottom') ?? 1, angle: num(crs, 'CropAngle') ?? 0 };
    const geometry = fromLightroomCrop(c, options);
    s.straightenAngle = clamp(geometry.straightenAngle, -45, 45);
    s.crop = geometry.crop;
  }
  const skyId = num(ours, 'SkyTemplateId');
  if (skyId !== undefined) s.sky = { templateId: skyId, strength: clamp(num(ours, 'SkyStrength') ?? 1, 0, 1) };
  const frames = num(ours, 'HdrFrames');
  if (frames !== undefined) s.hdr = { frames };
  s.windowPull = clamp(num(ours, 'WindowPull') ?? 0, 0, 100);
  s.smoothSkin = clamp(num(ours, 'SmoothSkin') ?? 0, 0, 100);
  s.subjectEmphasis = clamp(num(ours, 'SubjectEmphasis') ?? 0, 0, 100);
  return validateSettings(s);
}
