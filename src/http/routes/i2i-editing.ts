import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { editRequestFromWire } from '../../domain/records/edit-request.js';
import type { Services } from '../../services.js';
import { Data, DownloadEntry, errorResponses, FileNameQuery, Id, Nullable, ProjectUuidParams, Text, UploadLink } from '../schemas.js';

const tags = ['Smart Editing (I2I) editing and results'];

const EditBody = Nullable(
  Type.Object({
    hdr_merge: Type.Optional(Type.Boolean({ default: false, description: 'merge bracketed exposures (groups manifest, else EXIF) before editing' })),
    perspective_correction: Type.Optional(Type.Boolean({ default: false, description: 'make vertical lines vertical' })),
    sky_replacement: Type.Optional(Type.Boolean({ default: false, description: 'replace the sky with a template' })),
    sky_replacement_template_id: Type.Optional(Nullable(Id({ description: 'with sky_replacement: which template (GET /v1/projects/sky_replacement/templates); the default template otherwise' }))),
    callback_url: Type.Optional(Nullable(Text({ description: 'HTTPS URL POSTed to when the edit ends (docs/callbacks.md)' }))),
  }),
);

/** Smart Editing edit and its results: reference §4.2 and §4.5. */
export const i2iEditingRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { i2iEditing, deliveries } = services;
  const config = { project: 'i2i' } as const;

  app.post(
    '/i2i/projects/:project_uuid/edit',
    {
      config,
      schema: {
        tags,
        summary: 'Edit the uploaded photos; a second call starts nothing and answers the same',
        params: ProjectUuidParams,
        body: EditBody,
        response: { 200: Data(Type.Object({ message: Type.String() })), ...errorResponses },
      },
    },
    async (request) => {
      const body = request.body ?? {};
      const message = await i2iEditing.submit(request.account, request.project, { request: editRequestFromWire(body), callbackUrl: body.callback_url ?? null });
      return { data: { message } };
    },
  );

  app.get(
    '/i2i/projects/:project_uuid/get_temporary_download_links',
    {
      config,
      schema: {
        tags,
        summary: 'Presigned links to every delivered JPEG, in one response',
        params: ProjectUuidParams,
        response: { 200: Data(Type.Object({ files_list: Type.Array(DownloadEntry) })), ...errorResponses },
      },
    },
    async (request) => ({ data: { files_list: await deliveries.downloadLinks(request.project, 'i2i') } }),
  );

  app.get(
    '/i2i/projects/:project_uuid/get_temporary_thumbnail_links',
    {
      config,
      schema: {
        tags,
        summary: 'One thumbnail link per delivered image; the link is in thumbnail_link',
        params: ProjectUuidParams,
        response: {
          200: Data(Type.Object({ files_list: Type.Array(Type.Object({ file_name: Type.String(), is_thumbnail: Type.Boolean(), thumbnail_link: Type.String() })) })),
          ...errorResponses,
        },
      },
    },
    async (request) => ({ data: { files_list: await deliveries.thumbnailLinks(request.project, 'i2i') } }),
  );

  app.get(
    '/i2i/projects/:project_uuid/get_download_link',
    {
      config,
      schema: {
        tags,
        summary: 'Presigned link to one delivered file',
        params: ProjectUuidParams,
        querystring: FileNameQuery,
        response: { 200: Data(DownloadEntry), ...errorResponses },
      },
    },
    async (request) => ({ data: await deliveries.downloadLink(request.project, 'i2i', request.query.file_name) }),
  );

  app.get(
    '/i2i/projects/:project_uuid/get_upload_link',
    {
      config,
      schema: {
        tags,
        summary: 'Presigned PUT link to upload or replace one output; only once Completed',
        params: ProjectUuidParams,
        querystring: FileNameQuery,
        response: { 200: Data(UploadLink), ...errorResponses },
      },
    },
    async (request) => ({ data: await deliveries.uploadLink(request.project, 'i2i', request.query.file_name) }),
  );
};
