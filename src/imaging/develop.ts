/**
 * The developments the service asks for, each from source bytes to encoded files:
 * decode (merging brackets), estimate the settings (with the detectors the options call
 * for), render, encode. Pure like the rest of imaging/: bytes in, bytes out.
 */
import { type DecodedPhoto, decodeImage } from './decode.js';
import { encodeJpeg, encodeThumbnail, encodeTiff16 } from './encode.js';
import { type EstimateOptions, estimate } from './estimate.js';
import { detectFaces } from './faces/detect.js';
import { applyGeometry, autoCrop, type CropAspect, detectStraighten, offerPerspective, portraitCrop } from './geometry/index.js';
import { DEFAULT_OUTPUT_LONG_EDGE, mergeBrackets } from './hdr/index.js';
import { recycleShared, shareable } from './bands.js';
import { sharedLinearPreview } from './tone/shared-passes.js';
import { FEATURE_EDGE } from './autoedit/features.js';
import { image16Of, resizeImage16, shrinkToLongEdge } from './image16.js';
import { render, renderForJpeg, type RenderContext } from './render.js';
import type { DevelopSettings, Style } from './settings.js';
import { skyPresence } from './sky/mask.js';
import { toXmp } from './xmp.js';
import type { Image16, PhotoMetadata, RgbImage } from './types.js';

export interface SourceFrame {
  fileName: string;
  bytes: Buffer;
  /** Clockwise degrees after the file's own orientation. */
  rotate: 0 | 90 | 180 | 270;
}

/** The image an output is developed from: one photo, or the merge of a bracket. */
export interface Source<I extends RgbImage = Image16> {
  /** 8-bit sources stay 8-bit when sourceImage is asked to keep them. */
  image: I;
  metadata: PhotoMetadata;
  isRaw: boolean;
  /** EXIF orientation of the original file (1 for a merge, which is stored upright). */
  orientation: number;
  /** A RAW's as-shot white, which its XMP Temperature/Tint are absolute against. */
  asShot?: { temperature: number; tint: number };
  /** Frames merged into it (1 for a single photo). */
  frames: number;
  /** The darkest frame of a merged bracket, at the image's size: window pull takes blown windows from it. */
  darkFrame?: Image16;
}

/**
 * Decodes the frames; several are merged into one HDR image of at most
 * DEFAULT_OUTPUT_LONG_EDGE (reference §4.6). With keep8Bit, a single 8-bit photo stays
 * 8-bit. On an imaging thread a large image comes back in shared memory, ready to be
 * split over the threads.
 */
export async function sourceImage(frames: SourceFrame[], options?: { maxLongEdge?: number; keep8Bit?: false }): Promise<Source>;
export async function sourceImage(frames: SourceFrame[], options: { maxLongEdge?: number; keep8Bit: boolean }): Promise<Source<RgbImage>>;
export async function sourceImage(frames: SourceFrame[], options: { maxLongEdge?: number; keep8Bit?: boolean } = {}): Promise<Source<RgbImage>> {
  if (frames.length === 0) throw new Error('Expected at least one frame but received none');
  const decodeOptions = (f: SourceFrame, maxLongEdge?: number) => ({ fileName: f.fileName, rotate: f.rotate, ...(maxLongEdge ? { maxLongEdge } : {}) });
  if (frames.length === 1) {
    const decoded = await decodeImage(frames[0]!.bytes, { ...decodeOptions(frames[0]!, options.maxLongEdge), keep8Bit: options.keep8Bit ?? false });
    const white = decoded.rawInfo?.asShotWhite;
    return {
      image: shareable(decoded.image),
      metadata: decoded.metadata,
      isRaw: decoded.format === 'raw',
      orientation: decoded.orientation,
      ...(white ? { asShot: { temperature: white.temperature, tint: white.tint } } : {}),
      frames: 1,
    };
  }
  const longEdge = Math.min(options.maxLongEdge ?? DEFAULT_OUTPUT_LONG_EDGE, DEFAULT_OUTPUT_LONG_EDGE);
  const decoded: DecodedPhoto[] = [];
  // One at a time: a bracket of 24 MP RAWs at once would need gigabytes.
  for (const frame of frames) decoded.push(await decodeImage(frame.bytes, decodeOptions(frame, longEdge)));
  const sizes = new Set(decoded.map((d) => `${d.image.width}x${d.image.height}`));
  if (sizes.size > 1) throw new Error(`the frames of a bracket must have one size, got ${[...sizes].join(', ')}`);
  const merged = await mergeBrackets(
    decoded.map((d) => d.image),
    { outputLongEdge: longEdge },
  );
  const reference = decoded[merged.referenceIndex]!;
  return {
    image: shareable(merged.image),
    metadata: reference.metadata,
    isRaw: reference.format === 'raw',
    orientation: 1,
    frames: frames.length,
    darkFrame: merged.darkFrame,
  };
}

/** A sky is replaced only when it fills this much of the frame, and is found with this confidence. */
const SKY_MIN_COVERAGE = 0.02;
const SKY_MIN_CONFIDENCE = 0.5;

/** Too little sky, or a doubtful one: replacing would paint over something that is not sky. */
function enoughSky(sky: { coverage: number; confidence: number }): boolean {
  return sky.coverage >= SKY_MIN_COVERAGE && sky.confidence >= SKY_MIN_CONFIDENCE;
}

/** What an automatic edit is asked for: the edit request's options, biased by a profile's style. */
export interface AutoEdit {
  style?: Style;
  options: EstimateOptions;
}

/** The automatic crop the options ask for: a detector's mode and the ratio to reach; null for none. */
function cropRequest(options: EstimateOptions): { mode: 'composition' | 'portrait' | 'headshot' | 'aspect'; aspectRatio: CropAspect | null } | null {
  const aspectRatio = options.cropAspectRatio ?? null;
  if (options.portraitCrop) return { mode: 'portrait', aspectRatio };
  if (options.headshotCrop) return { mode: 'headshot', aspectRatio };
  if (options.crop) return { mode: 'composition', aspectRatio };
  return aspectRatio ? { mode: 'aspect', aspectRatio } : null;
}

/**
 * The settings of an automatic edit: estimate for exposure, colour and tone, then the
 * detectors the options call for (verticals, horizon, crops, sky). With skyOnRender the sky
 * is left as the options ask, for a render that decides on its own mask (developFinished).
 */
export async function automaticSettings(source: Source<RgbImage>, edit: AutoEdit, how: { skyOnRender?: boolean } = {}): Promise<DevelopSettings> {
  const { options } = edit;
  // The sky and crop detectors work on 16 bits; an 8-bit photo is widened once, for those that run.
  const image = () => image16Of(source.image);
  // Offered first: another imaging thread finds the verticals, the longer task, while this one makes the preview and estimates.
  const perspective = options.perspectiveCorrection ? offerPerspective(source.image) : null;
  const preview = await sharedLinearPreview(source.image, FEATURE_EDGE);
  const settings = estimate(source.image, {
    ...(edit.style ? { style: edit.style } : {}),
    ...(options.photographyType ? { photographyType: options.photographyType } : {}),
    // hdr_merge asks for merging; what counts is whether this output is a merge.
    options: { ...options, hdrMerge: source.frames > 1, ...(source.frames > 1 ? { hdrFrames: source.frames } : {}) },
    metadata: source.metadata,
    isRaw: source.isRaw,
    preview,
  });
  // Started first: libvips downscales the photo for the sky on its own threads while the detectors below run here.
  const skyFound = options.skyReplacement && !how.skyOnRender ? skyPresence(image()) : null;
  // Should a detector below throw, this promise is never awaited: its rejection must not go unhandled and end the thread.
  skyFound?.catch(() => undefined);
  if (perspective) {
    const found = await perspective();
    settings.perspective = { vertical: found.vertical, horizontal: found.horizontal };
    settings.straightenAngle = found.straightenAngle;
  } else if (options.straighten) {
    settings.straightenAngle = detectStraighten(source.image).angle;
  }
  if (skyFound) {
    // Render segments the full-size sky once, on the framed photo: here only whether there is enough of it.
    const sky = await skyFound;
    if (!enoughSky(sky)) settings.sky = null;
  }
  const crop = cropRequest(options);
  if (crop) {
    const framed = await applyGeometry(image(), { straightenAngle: settings.straightenAngle, perspective: settings.perspective, crop: null });
    const { mode, aspectRatio } = crop;
    settings.crop = mode === 'portrait' || mode === 'headshot' ? portraitCrop(framed, await detectFaces(framed), { mode, ...(aspectRatio ? { aspect: aspectRatio } : {}), image: framed }) : autoCrop(framed, { mode, aspect: aspectRatio });
  }
  return settings;
}

export interface Developed {
  bytes: Buffer;
  thumbnail: Buffer | null;
  settings?: DevelopSettings;
  companion?: { fileName: string; bytes: Buffer };
}

function renderContext(source: Source<RgbImage>, context: RenderContext): RenderContext {
  return { ...context, ...(source.darkFrame ? { darkFrame: source.darkFrame } : {}) };
}

/** Long edge of the profile flow's rendered preview (its thumbnails). */
const PREVIEW_LONG_EDGE = 1024;

/**
 * The source at most longEdge on its long side, with every image that goes with it (a merge's
 * dark frame) at the very same size: the tools that take both (window pull, geometry) require it.
 */
async function shrunkSource(source: Source, longEdge: number): Promise<Source> {
  const image = await shrinkToLongEdge(source.image, longEdge);
  if (!source.darkFrame) return { ...source, image };
  return { ...source, image, darkFrame: await resizeImage16(source.darkFrame, image.width, image.height) };
}

/**
 * Smart Editing: an automatic edit rendered to a finished JPEG. Whether to replace the sky is
 * decided on the mask render makes of the framed photo (one segmentation), and the settings
 * reported say what was done.
 */
export async function developFinished(frames: SourceFrame[], edit: AutoEdit, context: RenderContext = {}): Promise<Developed> {
  const source = await sourceImage(frames, { keep8Bit: true });
  const settings = await automaticSettings(source, edit, { skyOnRender: true });
  let skyReplaced = true;
  const replaceSkyIf = (sky: { coverage: number; confidence: number }) => (skyReplaced = enoughSky(sky));
  const rendered = await renderForJpeg(source.image, settings, { ...renderContext(source, context), replaceSkyIf });
  if (!skyReplaced) settings.sky = null;
  return { ...(await finished(source, rendered)), settings };
}

/**
 * The JPEG and its thumbnail, encoded side by side (libvips runs both at once). Then the
 * source photo's pixels and the rendered ones are read by nothing more: their shared memory
 * goes to the next photo (recycleShared). A merge's are not, its frames' memory not being its own.
 */
async function finished(source: Source<RgbImage>, image: RgbImage): Promise<Omit<Developed, 'settings'>> {
  const [bytes, thumbnail] = await Promise.all([encodeJpeg(image, { metadata: source.metadata }), encodeThumbnail(image)]);
  if (source.frames === 1 && image.data.buffer !== source.image.data.buffer) recycleShared(source.image.data, image.data);
  return { bytes, thumbnail };
}

/**
 * Profile flow edit: the settings as an XMP sidecar for the original, a rendered preview
 * for thumbnails, and for a merged bracket the merged image (the XMP applies to it).
 */
export async function developSidecar(frames: SourceFrame[], edit: AutoEdit & { mergedName: string }, context: RenderContext = {}): Promise<Developed> {
  const source = await sourceImage(frames);
  const settings = await automaticSettings(source, edit);
  const small = await shrunkSource(source, PREVIEW_LONG_EDGE);
  const preview = await render(small.image, settings, renderContext(small, context));
  // A merge is delivered as an ordinary image beside its sidecar; a single RAW's sidecar is relative to its as-shot white.
  const single = source.frames === 1;
  const xmp = Buffer.from(
    toXmp(settings, {
      isRaw: source.isRaw && single,
      sourceFileName: single ? frames[0]!.fileName : edit.mergedName,
      ...(single && source.asShot ? { asShot: source.asShot } : {}),
      width: source.image.width,
      height: source.image.height,
      orientation: source.orientation,
    }),
  );
  const developed: Developed = { bytes: xmp, thumbnail: await encodeThumbnail(preview), settings };
  if (source.frames > 1) {
    const merged = edit.options.hdrOutputCompression === 'LOSSLESS' ? await encodeTiff16(source.image, { metadata: source.metadata }) : await encodeJpeg(source.image, { metadata: source.metadata, quality: 95 });
    developed.companion = { fileName: edit.mergedName, bytes: merged };
  }
  return developed;
}

/** Renders given settings at full resolution: exports, and Copilot's finalize. */
export async function developWithSettings(frames: SourceFrame[], settings: DevelopSettings, context: RenderContext = {}): Promise<Developed> {
  const source = await sourceImage(frames, { keep8Bit: true });
  return { ...(await finished(source, await renderForJpeg(source.image, settings, renderContext(source, context)))), settings };
}
