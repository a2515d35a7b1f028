import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { type Project, projectView } from '../../domain/projects.js';
import type { Services } from '../../services.js';
import { projectItem } from '../presenters.js';
import { CreateProjectBody, Data, errorResponses, Nullable, PageQuery, ProjectCreated, ProjectItem, ProjectList, ProjectUuidParams, Text, UploadLinks, UploadLinksBody } from '../schemas.js';

const tags = ['Profile-based projects'];

const ProjectUuid = Data(Type.Object({ project_uuid: Type.String() }));

/** Profile-based projects, their lookups and uploads, and the sky templates: reference §4.1. */
export const projectRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { projects, deliveries, uploads, skyTemplates } = services;

  /** Project items with their thumbnails. */
  async function items(list: Project[], withThumbnails: boolean): Promise<ProjectItem[]> {
    const thumbnails = withThumbnails ? await deliveries.thumbnailSources(list, 'edit') : new Map<number, string>();
    return list.map((p) => projectItem(projectView(p), { thumbnailSrc: thumbnails.get(p.id) ?? null }));
  }

  app.get(
    '/projects',
    {
      schema: {
        tags,
        summary: 'List profile-based projects',
        querystring: Type.Object({
          ...PageQuery,
          client_type: Type.Enum(['API'], { default: 'API', description: 'projects created through this client; API is the only one retouch has' }),
          is_archived: Type.Optional(Nullable(Type.Boolean({ default: false }))),
          get_thumbnail: Type.Boolean({ default: true }),
        }),
        response: { 200: ProjectList, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await projects.list(request.account, 'regular', { size: q.size, page: q.page, isArchived: q.is_archived === undefined ? false : q.is_archived });
      return { data: { projects: await items(page.projects, q.get_thumbnail), pagination: { total: page.total, size: q.size, page: q.page } } };
    },
  );

  app.post('/projects', { schema: { tags, summary: 'Create a profile-based project', body: CreateProjectBody, response: { 200: ProjectCreated, ...errorResponses } } }, async (request) => ({
    data: { project_uuid: (await projects.create(request.account, 'regular', request.body?.name)).uuid },
  }));

  app.get(
    '/projects/uuid',
    {
      schema: { tags, summary: 'The uuid of the project with this name', querystring: Type.Object({ project_name: Text() }), response: { 200: ProjectUuid, ...errorResponses } },
    },
    async (request) => ({ data: { project_uuid: (await projects.byName(request.account, request.query.project_name)).uuid } }),
  );

  app.get(
    '/projects/:project_name/uuid',
    {
      schema: { tags, summary: 'The uuid of the project with this name', params: Type.Object({ project_name: Text() }), response: { 200: ProjectUuid, ...errorResponses } },
    },
    async (request) => ({ data: { project_uuid: (await projects.byName(request.account, request.params.project_name)).uuid } }),
  );

  app.get(
    '/projects/sky_replacement/templates',
    {
      schema: {
        tags,
        summary: 'Sky templates for sky replacement',
        response: {
          200: Data(Type.Object({ templates: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), is_default: Type.Boolean(), preview_link: Type.String() })) })),
          ...errorResponses,
        },
      },
    },
    async () => ({ data: { templates: await skyTemplates.entries() } }),
  );

  app.get(
    '/projects/:project_uuid',
    {
      config: { project: 'regular' },
      schema: {
        tags,
        summary: 'Get a profile-based project',
        params: ProjectUuidParams,
        querystring: Type.Object({ get_thumbnail: Type.Boolean({ default: true }) }),
        response: { 200: Data(ProjectItem), ...errorResponses },
      },
    },
    async (request) => ({ data: (await items([request.project], request.query.get_thumbnail))[0]! }),
  );

  app.post(
    '/projects/:project_uuid/get_temporary_upload_links',
    {
      config: { project: 'regular' },
      schema: { tags, summary: 'Presigned PUT links, one per file', params: ProjectUuidParams, body: UploadLinksBody, response: { 200: UploadLinks, ...errorResponses } },
    },
    async (request) => ({ data: { files_list: await uploads.requestLinks(request.project, request.body.files_list) } }),
  );
};
