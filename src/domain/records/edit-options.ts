/**
 * What a project keeps of its edit requests: the options of the edit (projects.options), the
 * tools they enabled (projects.ai_tools), and the post-editing options (projects.post_options).
 */
import { type Static, Type } from 'typebox';
import type { PostOptions } from '../../imaging/post.js';
import { listRecord, objectRecord, type StoredRecord } from './stored-record.js';

const Closed = { additionalProperties: false } as const;
const TemplateId = Type.Union([Type.Integer(), Type.Null()]);

/** The options of a Smart Editing edit request (reference §2.4); all off by default. */
const I2iEditOptions = Type.Object(
  {
    hdr_merge: Type.Boolean(),
    perspective_correction: Type.Boolean(),
    sky_replacement: Type.Boolean(),
    /** With sky_replacement: the template, fixed at submit (the default one when the request named none). */
    sky_replacement_template_id: TemplateId,
  },
  Closed,
);
export type I2iEditOptions = Static<typeof I2iEditOptions>;

export const PHOTOGRAPHY_TYPES = [
  'NO_TYPE', 'OTHER', 'PORTRAITS', 'WEDDING', 'REAL_ESTATE', 'LANDSCAPE_NATURE', 'EVENTS', 'FAMILY_NEWBORN', 'BOUDOIR', 'SPORTS', 'SCHOOL',
] as const;
export type PhotographyType = (typeof PHOTOGRAPHY_TYPES)[number];
export const CROP_ASPECT_RATIOS = ['2X3', '4X5', '5X7'] as const;

/** The options of a profile-based edit (reference §4.1, N1). */
const ProfileEditOptions = Type.Object(
  {
    photography_type: Type.Union([Type.Enum([...PHOTOGRAPHY_TYPES]), Type.Null()]),
    crop: Type.Boolean(),
    straighten: Type.Boolean(),
    hdr_merge: Type.Boolean(),
    portrait_crop: Type.Boolean(),
    headshot_crop: Type.Boolean(),
    smooth_skin: Type.Boolean(),
    subject_mask: Type.Boolean(),
    perspective_correction: Type.Boolean(),
    sky_replacement: Type.Boolean(),
    sky_replacement_template_id: TemplateId,
    window_pull: Type.Boolean(),
    crop_aspect_ratio: Type.Union([Type.Enum([...CROP_ASPECT_RATIOS]), Type.Null()]),
    hdr_output_compression: Type.Enum(['LOSSY', 'LOSSLESS']),
  },
  Closed,
);
export type ProfileEditOptions = Static<typeof ProfileEditOptions>;

/** The imaging library's post-editing options, as the route made them from the request. */
const PostOptionsSchema = Type.Object(
  {
    resizeLongEdge: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    format: Type.Enum(['JPEG', 'PNG', 'TIFF', 'WEBP']),
    quality: Type.Integer({ minimum: 1, maximum: 100 }),
    watermark: Type.Union([
      Type.Object(
        {
          text: Type.String(),
          position: Type.Enum(['bottom_right', 'bottom_left', 'top_right', 'top_left', 'center']),
          opacity: Type.Number({ minimum: 0, maximum: 1 }),
        },
        Closed,
      ),
      Type.Null(),
    ]),
    stripMetadata: Type.Boolean(),
    colorSpace: Type.Enum(['sRGB', 'DISPLAY_P3']),
  },
  Closed,
);

export const editOptionsRecords = {
  i2i: objectRecord({ name: 'Smart Editing options', version: 1, schema: I2iEditOptions }),
  profile: objectRecord({ name: 'profile edit options', version: 1, schema: ProfileEditOptions }),
  post: objectRecord({ name: 'post-editing options', version: 1, schema: PostOptionsSchema }) satisfies StoredRecord<PostOptions>,
  /** The boolean options that were on, as the project item's ai_tools lists them. */
  aiTools: listRecord('enabled tools', Type.String()),
};
