import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { projectView } from '../../domain/projects.js';
import type { Services } from '../../services.js';
import { projectItem } from '../presenters.js';
import { CreateProjectBody, Data, errorResponses, Nullable, PageQuery, ProjectCreated, ProjectItem, ProjectList, ProjectUuidParams, Text } from '../schemas.js';

const tags = ['Smart Editing (I2I)'];

/** Smart Editing projects: reference §4.2, first rows. */
export const i2iProjectRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { projects, deliveries } = services;

  app.get(
    '/i2i/projects',
    {
      schema: {
        tags,
        summary: 'List Smart Editing projects',
        querystring: Type.Object({
          ...PageQuery,
          is_archived: Type.Optional(Nullable(Type.Boolean({ default: false }))),
          search: Type.Optional(Nullable(Text())),
          status: Type.Optional(Nullable(Type.Enum(['processing', 'completed', 'failed']))),
          sort_by: Type.Optional(Nullable(Type.Enum(['date', 'name'], { default: 'date' }))),
        }),
        response: { 200: ProjectList, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await projects.list(request.account, 'i2i', {
        size: q.size,
        page: q.page,
        isArchived: q.is_archived === undefined ? false : q.is_archived,
        search: q.search,
        status: q.status,
        sortBy: q.sort_by,
      });
      const thumbnails = await deliveries.thumbnailSources(page.projects, 'i2i');
      return {
        data: {
          projects: page.projects.map((p) => projectItem(projectView(p), { thumbnailSrc: thumbnails.get(p.id) ?? null })),
          pagination: { total: page.total, size: q.size, page: q.page },
        },
      };
    },
  );

  app.post(
    '/i2i/projects',
    {
      schema: {
        tags,
        summary: 'Create a Smart Editing project',
        body: CreateProjectBody,
        response: { 200: ProjectCreated, ...errorResponses },
      },
    },
    async (request) => {
      const project = await projects.create(request.account, 'i2i', request.body?.name);
      return { data: { project_uuid: project.uuid } };
    },
  );

  app.get(
    '/i2i/projects/is_valid_name',
    {
      schema: {
        tags,
        summary: 'Check that a project name is free (best effort)',
        querystring: Type.Object({ name: Text() }),
        response: { 200: Data(Type.Object({ is_valid: Type.Boolean() })), ...errorResponses },
      },
    },
    async (request) => ({ data: { is_valid: await projects.isNameAvailable(request.account, 'i2i', request.query.name) } }),
  );

  app.get(
    '/i2i/projects/:project_uuid',
    {
      config: { project: 'i2i' },
      schema: {
        tags,
        summary: 'Get a Smart Editing project',
        params: ProjectUuidParams,
        querystring: Type.Object({ get_thumbnail: Type.Boolean({ default: true }) }),
        response: { 200: Data(ProjectItem), ...errorResponses },
      },
    },
    async (request) => {
      const { project } = request;
      const thumbnail = request.query.get_thumbnail ? (await deliveries.thumbnailSources([project], 'i2i')).get(project.id) : undefined;
      return { data: projectItem(projectView(project), { thumbnailSrc: thumbnail ?? null }) };
    },
  );
};
