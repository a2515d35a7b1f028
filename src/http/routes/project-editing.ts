import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CROP_ASPECT_RATIOS, editRequestFromWire, PHOTOGRAPHY_TYPES } from '../../domain/records/edit-request.js';
import type { Services } from '../../services.js';
import { ModelValidationError } from '../errors.js';
import { Data, DownloadEntry, errorResponses, FileNameQuery, Id, Nullable, ProjectUuidParams, Text, UploadLink } from '../schemas.js';

const tags = ['Profile-based editing, export and post-editing'];

const FilesList = Data(Type.Object({ files_list: Type.Array(DownloadEntry) }));
const Message = Data(Type.Object({ message: Type.String() }));
const Status = Data(
  Type.Object({
    status: Type.Enum(['Pending', 'Processing', 'Completed', 'Failed']),
    progress: Type.Number({ minimum: 0, maximum: 100 }),
    details: Nullable(Type.String()),
  }),
);
const flag = (description: string) => Type.Optional(Type.Boolean({ default: false, description }));

const EditBody = Type.Object({
  profile_key: Id(),
  photography_type: Type.Optional(Nullable(Type.Enum([...PHOTOGRAPHY_TYPES]))),
  crop: flag('crop for composition'),
  straighten: flag('level the horizon (not with perspective_correction)'),
  hdr_merge: flag('merge bracketed exposures; the merged image is delivered beside its XMP'),
  portrait_crop: flag('face-aware crop, head and shoulders'),
  headshot_crop: flag('face-aware tight head crop'),
  smooth_skin: flag('smooth skin in portraits'),
  subject_mask: flag('subtle emphasis of the main subject'),
  perspective_correction: flag('make vertical lines vertical'),
  sky_replacement: flag('replace the sky with a template'),
  sky_replacement_template_id: Type.Optional(Nullable(Id())),
  window_pull: flag('recover blown-out windows in interiors'),
  crop_aspect_ratio: Type.Optional(Nullable(Type.Enum([...CROP_ASPECT_RATIOS]))),
  callback_url: Type.Optional(Nullable(Text())),
  hdr_output_compression: Type.Optional(Nullable(Type.Enum(['LOSSY', 'LOSSLESS'], { description: 'merged HDR images as JPEG (LOSSY, default) or 16-bit TIFF (LOSSLESS)' }))),
});

const PostBody = Type.Object({
  resize_long_edge: Type.Optional(Nullable(Type.Integer({ minimum: 16, maximum: 30000, description: 'pixels; larger images are scaled down, smaller ones kept' }))),
  output_format: Type.Optional(Type.Enum(['JPEG', 'PNG', 'TIFF', 'WEBP'], { default: 'JPEG' })),
  quality: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 90, description: 'JPEG and WEBP quality' })),
  watermark: Type.Optional(
    Nullable(
      Type.Object({
        text: Text({ minLength: 1, maxLength: 200 }),
        position: Type.Optional(Type.Enum(['bottom_right', 'bottom_left', 'top_right', 'top_left', 'center'], { default: 'bottom_right' })),
        opacity: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0.5 })),
      }),
    ),
  ),
  strip_metadata: Type.Optional(Type.Boolean({ default: false, description: 'drop EXIF (camera, capture time, GPS)' })),
  color_space: Type.Optional(Type.Enum(['sRGB', 'DISPLAY_P3'], { default: 'sRGB' })),
});

/** The profile flow's edit, export and post-editing, their statuses and files: reference §4.1. */
export const projectEditingRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { profileEditing, deliveries } = services;
  const config = { project: 'regular' } as const;

  app.post(
    '/projects/:project_uuid/edit',
    { config, schema: { tags, summary: 'Edit with a profile: XMP sidecars and previews', params: ProjectUuidParams, body: EditBody, response: { 200: Message, ...errorResponses } } },
    async (request) => {
      const b = request.body;
      const crops = (['crop', 'portrait_crop', 'headshot_crop'] as const).filter((c) => b[c]);
      if (crops.length > 1) throw new ModelValidationError(`at most one of crop, portrait_crop and headshot_crop may be true, got ${crops.join(' and ')}`);
      if (b.straighten && b.perspective_correction) throw new ModelValidationError('straighten and perspective_correction cannot both be true');
      const message = await profileEditing.submitEdit(request.account, request.project, {
        profileKey: b.profile_key,
        request: editRequestFromWire(b),
        callbackUrl: b.callback_url ?? null,
      });
      return { data: { message } };
    },
  );

  app.post('/projects/:project_uuid/export', { config: { project: 'any' }, schema: { tags, summary: 'Render the edit to full-size JPEGs', params: ProjectUuidParams, response: { 200: Message, ...errorResponses } } }, async (request) => ({
    data: { message: await profileEditing.submitExport(request.project) },
  }));

  app.post(
    '/projects/:project_uuid/post_editing',
    { config, schema: { tags, summary: 'Resize, watermark, convert the exported images', params: ProjectUuidParams, body: PostBody, response: { 200: Message, ...errorResponses } } },
    async (request) => {
      const b = request.body;
      const message = await profileEditing.submitPost(request.project, {
        resizeLongEdge: b.resize_long_edge ?? null,
        format: b.output_format ?? 'JPEG',
        quality: b.quality ?? 90,
        watermark: b.watermark ? { text: b.watermark.text, position: b.watermark.position ?? 'bottom_right', opacity: b.watermark.opacity ?? 0.5 } : null,
        stripMetadata: b.strip_metadata ?? false,
        colorSpace: b.color_space ?? 'sRGB',
      });
      return { data: { message } };
    },
  );

  for (const stage of ['edit', 'export', 'post_editing'] as const) {
    const name = stage === 'post_editing' ? 'post' : stage;
    // A Smart Editing project is exported too (for Copilot, reference §3 rule 5), and a client polls its export's status.
    const statusConfig = { project: stage === 'export' ? ('any' as const) : config.project };
    app.get(
      `/projects/:project_uuid/${stage}/status`,
      { config: statusConfig, schema: { tags, summary: `Status of the ${stage.replace('_', '-')}`, params: ProjectUuidParams, response: { 200: Status, ...errorResponses } } },
      async (request) => ({
        data: await profileEditing.status(request.project, name),
      }),
    );
    app.get(
      `/projects/:project_uuid/${stage}/get_temporary_download_links`,
      { config, schema: { tags, summary: `Presigned links to every file of the ${stage.replace('_', '-')}`, params: ProjectUuidParams, response: { 200: FilesList, ...errorResponses } } },
      async (request) => ({ data: { files_list: await deliveries.downloadLinks(request.project, name) } }),
    );
  }

  app.get(
    '/projects/:project_uuid/export/get_download_link',
    { config, schema: { tags, summary: 'Presigned link to one exported image', params: ProjectUuidParams, querystring: FileNameQuery, response: { 200: Data(DownloadEntry), ...errorResponses } } },
    async (request) => ({ data: await deliveries.downloadLink(request.project, 'export', request.query.file_name) }),
  );

  app.get(
    '/projects/:project_uuid/export/get_upload_link',
    {
      config,
      schema: { tags, summary: 'Presigned PUT link to upload or replace one exported image', params: ProjectUuidParams, querystring: FileNameQuery, response: { 200: Data(UploadLink), ...errorResponses } },
    },
    async (request) => ({ data: await deliveries.uploadLink(request.project, 'export', request.query.file_name) }),
  );
};
