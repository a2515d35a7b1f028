import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { Data, errorResponses, ProjectUuidParams, Text, UploadLink, UploadLinks, UploadLinksBody } from '../schemas.js';

const tags = ['Smart Editing (I2I) uploads'];

const MultipartParams = Type.Object({ project_uuid: Type.String(), upload_id: Text() });

/** Direct-to-storage uploads of Smart Editing projects: reference §4.2 and §4.4. */
export const i2iUploadRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { uploads } = services;
  const config = { project: 'i2i' } as const;

  app.post(
    '/i2i/projects/:project_uuid/get_temporary_upload_links',
    {
      config,
      schema: {
        tags,
        summary: 'Presigned PUT links, one per file',
        params: ProjectUuidParams,
        body: UploadLinksBody,
        response: { 200: UploadLinks, ...errorResponses },
      },
    },
    async (request) => ({ data: { files_list: await uploads.requestLinks(request.project, request.body.files_list) } }),
  );

  app.post(
    '/i2i/projects/:project_uuid/get_hdr_groups_upload_link',
    {
      config,
      schema: {
        tags,
        summary: 'Presigned PUT link for the HDR groups manifest (docs/uploads.md)',
        params: ProjectUuidParams,
        response: { 200: Data(UploadLink), ...errorResponses },
      },
    },
    async (request) => ({ data: await uploads.manifestLink(request.project, 'hdr_groups') }),
  );

  app.post(
    '/i2i/projects/:project_uuid/get_orientations_upload_link',
    {
      config,
      schema: {
        tags,
        summary: 'Presigned PUT link for the orientations file (docs/uploads.md)',
        params: ProjectUuidParams,
        response: { 200: Data(UploadLink), ...errorResponses },
      },
    },
    async (request) => ({ data: await uploads.manifestLink(request.project, 'orientations') }),
  );

  app.post(
    '/i2i/projects/:project_uuid/multipart_uploads',
    {
      config,
      schema: {
        tags,
        summary: 'Start a multipart upload',
        params: ProjectUuidParams,
        body: Type.Object({ file_name: Text({ minLength: 1 }), part_count: Type.Integer({ minimum: 1, maximum: 10000 }) }),
        response: {
          200: Data(
            Type.Object({
              upload_id: Type.String(),
              key: Type.String(),
              parts: Type.Array(Type.Object({ part_number: Type.Integer(), upload_url: Type.String() })),
            }),
          ),
          ...errorResponses,
        },
      },
    },
    async (request) => ({
      data: await uploads.startMultipart(request.project, request.body.file_name, request.body.part_count),
    }),
  );

  app.post(
    '/i2i/projects/:project_uuid/multipart_uploads/:upload_id/complete',
    {
      config,
      schema: {
        tags,
        summary: 'Complete a multipart upload; the service lists the parts itself',
        params: MultipartParams,
        body: Type.Object({ file_name: Text({ minLength: 1 }) }),
        response: { 200: Data(Type.Null()), ...errorResponses },
      },
    },
    async (request) => {
      await uploads.completeMultipart(request.project, request.params.upload_id, request.body.file_name);
      return { data: null };
    },
  );

  app.delete(
    '/i2i/projects/:project_uuid/multipart_uploads/:upload_id',
    {
      config,
      schema: {
        tags,
        summary: 'Abort a multipart upload and drop its parts',
        params: MultipartParams,
        body: Type.Object({ key: Text({ minLength: 1 }) }),
        response: { 200: Data(Type.Null()), ...errorResponses },
      },
    },
    async (request) => {
      await uploads.abortMultipart(request.project, request.params.upload_id, request.body.key);
      return { data: null };
    },
  );
};
