/**
 * What a project keeps of its edit requests besides the edit request itself
 * (edit-request.ts): the tools it enabled (projects.ai_tools) and the post-editing options
 * (projects.post_options).
 */
import { Type } from 'typebox';
import type { PostOptions } from '../../imaging/post.js';
import { listRecord, objectRecord, type StoredRecord } from './stored-record.js';

const Closed = { additionalProperties: false } as const;

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
  post: objectRecord({ name: 'post-editing options', version: 1, schema: PostOptionsSchema }) satisfies StoredRecord<PostOptions>,
  /** The boolean options that were on, as the project item's ai_tools lists them. */
  aiTools: listRecord('enabled tools', Type.String()),
};
