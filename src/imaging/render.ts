/**
 * render(image, settings): the one renderer. Stages, in this order:
 *
 *   1. geometry      straighten and perspective in one resampling, cropped to the largest
 *                    rectangle of the original aspect ratio, then `crop` (geometry/)
 *   2. composites    window pull (from the darkest bracket when there is one), then sky
 *                    replacement: before tone, so the new sky is developed like the rest
 *   3. noise         luminance noise reduction, on the decoded data before tone
 *                    curves stretch the noise
 *   4. develop       one fused pass per pixel: sharpening (unsharp mask of the input
 *                    luma, as raw converters sharpen before the tone curve) → white
 *                    balance + exposure (a 3×3 matrix in linear light) → local tone
 *                    (highlights, shadows, clarity on an edge-aware base layer) → tone
 *                    curve (contrast, whites, blacks, sRGB encoding; a lookup table) →
 *                    colour (vibrance, saturation)
 *   5. retouch       skin smoothing, then subject emphasis
 *
 * An 8-bit image (Image8) goes into the develop pass as it is when stages 1–3 have
 * nothing to do; geometry reads it as its exact 16-bit widening, and the other early
 * stages widen it once when geometry does not run. renderForJpeg's develop pass
 * writes 8 bits, what the JPEG keeps, unless a retouch stage follows.
 */
import { ANALYSIS_EDGE, analysisCopy, framedAnalysisCopy } from './analysis-copy.js';
import { planGeometry } from './geometry/index.js';
import type { GeometryPlan } from './geometry/frame.js';
import { renderPlan } from './geometry/warp.js';
import { fitComposites } from './composite-fits.js';
import { assertRgbImage, image16Of } from './image16.js';
import { smoothSkin } from './local/skin.js';
import { applySubjectEmphasis, subjectMask } from './local/subject-mask.js';
import { pullWindows } from './local/window-pull.js';
import { validateSettings, type DevelopSettings } from './settings.js';
import { skyMaskOfFit, type SkyMaskResult } from './sky/mask.js';
import { replaceSky, replacesSky } from './sky/replace.js';
import { offerSkyReading } from './sky/scene.js';
import type { SkyTemplate } from './sky/templates.js';
import { reduceNoise } from './tone/detail.js';
import { developPreviewEdge, planDevelop } from './tone/pixel-pass.js';
import { recycleShared, shareable } from './bands.js';
import { developImage, sharedLinearPreview } from './tone/shared-passes.js';
import type { Image16, Image8, RgbImage } from './types.js';

/** What some settings need beyond the image. */
export interface RenderContext {
  /** Operators' sky templates by id; built-in ids are rendered procedurally. */
  skyTemplates?: ReadonlyMap<number, SkyTemplate>;
  /** The darkest frame of the bracket the image was merged from, same size: window pull recovers windows from it. */
  darkFrame?: Image16;
  /**
   * Whether the sky found on the framed photo is to be replaced: an automatic edit decides on
   * the mask render makes anyway, so the sky is segmented once a photo. Unset: always.
   */
  replaceSkyIf?: (sky: SkyMaskResult) => boolean;
}

/** Renders to a 16-bit image. */
export function render(image: RgbImage, settings: DevelopSettings, context: RenderContext = {}): Promise<Image16> {
  return renderAt(image, settings, context, 16) as Promise<Image16>;
}

/** Renders for a JPEG: 8 bits per channel straight out of the develop pass, unless a retouch stage needs 16. */
export function renderForJpeg(image: RgbImage, settings: DevelopSettings, context: RenderContext = {}): Promise<RgbImage> {
  return renderAt(image, settings, context, 8);
}

async function renderAt(image: RgbImage, settings: DevelopSettings, context: RenderContext, depth: 8 | 16): Promise<RgbImage> {
  assertRgbImage(image);
  const s = validateSettings(settings);
  const retouch = s.smoothSkin > 0 || s.subjectEmphasis > 0;
  const early = hasGeometry(s) || s.windowPull > 0 || s.sky !== null || s.noiseReduction > 0;
  let input: RgbImage = image;
  let framed: Image16 | null = null;
  if (early) {
    // Geometry reads an 8-bit photo as it is; the framed image is render's own, which the composites change where it is.
    const plan = geometryPlan(image, s);
    framed = await geometryStage(image, s, plan);
    const darkFrame = context.darkFrame && (await geometryStage(context.darkFrame, s));
    const composed = await compositeStage(framed, s, { ...context, ...(darkFrame ? { darkFrame } : {}) }, { photo: image, plan });
    input = await reduceNoise(composed, s.noiseReduction);
  }
  const developed = await developStage(input, s, retouch ? 16 : depth);
  // Geometry's output, render's own, is read by nothing more: its memory serves the next photo's.
  if (framed && hasGeometry(s)) recycleShared(framed.data);
  if (!retouch) return developed;
  const wide = developed as Image16;
  const retouched = s.smoothSkin > 0 ? await smoothSkin(wide, s.smoothSkin) : wide;
  return s.subjectEmphasis > 0 ? applySubjectEmphasis(retouched, await subjectMask(retouched), s.subjectEmphasis) : retouched;
}

/** The develop pass (see tone/pixel-pass.ts) and the preview its plan reads, spread over the imaging threads for large images. */
async function developStage(image: RgbImage, s: DevelopSettings, depth: 8 | 16 = 16): Promise<RgbImage> {
  const shared = shareable(image);
  const edge = developPreviewEdge(s);
  const preview = edge === null ? undefined : await sharedLinearPreview(shared, edge);
  return developImage(planDevelop(shared, s, preview), shared, depth);
}

/** The photo render was given and geometry's plan for it (null: none), which framed the image the composites change. */
interface FramedPhoto {
  photo: RgbImage;
  plan: GeometryPlan | null;
}

/**
 * Window pull and sky replacement, on the framed image before tone (context.darkFrame framed
 * like it); in the image's own pixels when it is render's to change (geometry ran). Both read one
 * analysis copy of the framed photo, and the sky is found on it as framed, before windows
 * are pulled: one segmentation a photo. The copy is made before either changes the image, so
 * an 8-bit photo's is made from the photo through geometry's plan (framedAnalysisCopy), a
 * fraction of the cost of shrinking the 16-bit framed image. The sky's segmentation and
 * the window detection on the copy run at once on two imaging threads (composite-fits.ts), and
 * so do pulling the windows and what sky replacement reads off the mask (sky/scene.ts).
 */
async function compositeStage(image: Image16, s: DevelopSettings, context: RenderContext, { photo, plan }: FramedPhoto): Promise<Image16> {
  if (s.windowPull === 0 && !s.sky) return image;
  const owned = plan !== null;
  const analysis = await (photo.data instanceof Uint8Array ? framedAnalysisCopy(photo as Image8, plan, image, ANALYSIS_EDGE) : analysisCopy(image, ANALYSIS_EDGE));
  const fits = await fitComposites(analysis, { width: image.width, height: image.height, sky: s.sky !== null, windows: s.windowPull > 0, base: !context.darkFrame });
  const mask = s.sky ? await skyMaskOfFit(image, fits.sky) : null;
  const sky = s.sky && mask && (!context.replaceSkyIf || context.replaceSkyIf(mask)) ? { ...s.sky, mask } : null;
  // What replacing reads off the mask and the copy, read by another imaging thread while this one pulls the windows.
  const reading = sky?.mask.spans && replacesSky(sky.mask, sky.strength) ? offerSkyReading(sky.mask.mask, sky.mask.spans, image.width, image.height, analysis) : null;
  const darkFrame = context.darkFrame ? { darkFrame: context.darkFrame } : {};
  const pulled = fits.windows ? await pullWindows(image, s.windowPull, { ...darkFrame, analysis, found: fits.windows, inPlace: owned }) : image;
  if (!sky) return pulled;
  const template = context.skyTemplates?.get(sky.templateId) ?? sky.templateId;
  // Window pull's result is a copy of its own when it is not in place: the sky may change it.
  return replaceSky(pulled, { template, strength: sky.strength, mask: sky.mask, analysis, ...(reading ? { reading: await reading() } : {}), inPlace: owned || pulled !== image });
}

/** Geometry: straighten and perspective, then crop (geometry/applyGeometry's plan, rendered), to a new image; the input at 16 bits when there is nothing to do. */
export async function geometryStage(image: RgbImage, s: DevelopSettings, plan = geometryPlan(image, s)): Promise<Image16> {
  return plan ? renderPlan(image, plan) : image16Of(image);
}

/** What geometry does to a photo of this size under the settings (validated); null when nothing. */
function geometryPlan(image: RgbImage, s: DevelopSettings): GeometryPlan | null {
  return hasGeometry(s) ? planGeometry(image.width, image.height, { straightenAngle: s.straightenAngle, perspective: s.perspective, crop: s.crop }) : null;
}

export function hasGeometry(s: DevelopSettings): boolean {
  return s.straightenAngle !== 0 || s.crop !== null || s.perspective.vertical !== 0 || s.perspective.horizontal !== 0;
}
