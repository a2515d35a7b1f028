import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Project, ProjectFlow, ProjectsService } from '../domain/projects.js';

/** The projects a route's :project_uuid may name: of one flow, of either, or of the flow the request itself names. */
export type ProjectScope = ProjectFlow | 'any' | ((request: FastifyRequest) => ProjectFlow);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every route with a :project_uuid: which projects it acts on. */
    project?: ProjectScope;
  }
  interface FastifyRequest {
    /** The project the route's :project_uuid names, found owned by the caller before the handler runs. */
    project: Project;
  }
}

/**
 * One pre-handler for every route with a :project_uuid: the project exists (in the route's
 * flow) and belongs to the caller, or the reference's 404 "Project not found" / 403. It runs
 * after validation, as the lookup in each handler did, so a malformed request is still a 422.
 */
export function registerProjectAccess(app: FastifyInstance, projects: ProjectsService): void {
  app.addHook('onRoute', (route) => {
    if (route.url.includes(':project_uuid') && route.config?.project === undefined) throw new Error(`${route.method} ${route.url} names a project but declares no config.project scope`);
  });
  app.addHook('preHandler', async (request) => {
    const scope = request.routeOptions.config.project;
    if (scope === undefined) return;
    const { project_uuid: uuid } = request.params as { project_uuid: string };
    request.project = scope === 'any' ? await projects.getOwnedAnyFlow(request.account, uuid) : await projects.getOwned(request.account, typeof scope === 'function' ? scope(request) : scope, uuid);
  });
}
