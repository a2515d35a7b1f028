/**
 * EditRequest: what an automatic edit is asked to do, in both flows (Smart Editing sets
 * only hdrMerge, perspectiveCorrection and the sky). The service builds it once from the
 * API's request, stores it, and hands it to the engine unchanged; every option left out
 * takes the schema's default.
 */
import { type Static, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';

export const PHOTOGRAPHY_TYPES = ['NO_TYPE', 'OTHER', 'PORTRAITS', 'WEDDING', 'REAL_ESTATE', 'LANDSCAPE_NATURE', 'EVENTS', 'FAMILY_NEWBORN', 'BOUDOIR', 'SPORTS', 'SCHOOL'] as const;
export type PhotographyType = (typeof PHOTOGRAPHY_TYPES)[number];
export const CROP_ASPECT_RATIOS = ['2X3', '4X5', '5X7'] as const;

const off = Type.Boolean({ default: false });

export const EditRequest = Type.Object(
  {
    /** Tunes the estimate like a built-in style; null for none. */
    photographyType: Type.Union([Type.Enum([...PHOTOGRAPHY_TYPES]), Type.Null()], { default: null }),
    /** Merge bracketed exposures into one image before editing. */
    hdrMerge: off,
    /** A merged image delivered beside its XMP: JPEG (LOSSY) or 16-bit TIFF (LOSSLESS). */
    hdrOutputCompression: Type.Enum(['LOSSY', 'LOSSLESS'], { default: 'LOSSY' }),
    perspectiveCorrection: off,
    straighten: off,
    skyReplacement: off,
    /** With skyReplacement: the template, fixed when the edit is submitted (any integer: the service's lookup says whether it exists). */
    skyTemplateId: Type.Union([Type.Integer(), Type.Null()], { default: null }),
    crop: off,
    portraitCrop: off,
    headshotCrop: off,
    /** The ratio every crop (or, alone, a crop of its own) reaches; null keeps the photo's. */
    cropAspectRatio: Type.Union([Type.Enum([...CROP_ASPECT_RATIOS]), Type.Null()], { default: null }),
    smoothSkin: off,
    subjectMask: off,
    windowPull: off,
  },
  { additionalProperties: false },
);
export type EditRequest = Static<typeof EditRequest>;

const checker = Compile(EditRequest);

/** An EditRequest from the options given (undefined ones take their defaults); throws naming the first field that is not valid. */
export function editRequest(options: Partial<EditRequest> = {}): EditRequest {
  const request = Value.Default(EditRequest, Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
  if (checker.Check(request)) return request;
  const [error] = checker.Errors(request);
  throw new Error(`Expected an EditRequest but ${error ? `${error.instancePath || '/'} ${error.message}` : 'it does not match its schema'}`);
}
