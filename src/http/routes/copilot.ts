import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { copilotFlow, type ProjectSource } from '../../domain/copilot/copilot.js';
import type { Services } from '../../services.js';
import { Data, errorResponses, Id, Nullable, ProjectUuidParams, Text } from '../schemas.js';

const tags = ['AI tools and Copilot'];

const Source = Type.Optional(Type.Enum(['REGULAR', 'I2I'], { default: 'REGULAR', description: 'REGULAR: a profile-based project; I2I: a Smart Editing one' }));
const ImageParams = Type.Object({ project_uuid: Type.String(), filename: Text({ description: 'the exported image' }) });
const Version = Type.Object({
  status: Type.Literal('SUCCESS'),
  version_id: Type.Integer(),
  enhanced_image_url: Type.String(),
  changes: Type.String({ description: 'what the instruction or tool changed, e.g. "exposure +0.40 EV, temperature +600 K" (an addition to the reference)' }),
});
const Parent = Type.Optional(Nullable(Id({ description: 'the version to build on; omitted or null: the post-edit state' })));
const SourceBody = Nullable(Type.Object({ project_source: Source }));

/** AI tools and Copilot on single exported images: reference §4.3, §3 rules 5 and 6. */
export const copilotRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { copilot } = services;
  /** Projects of the flow the request names by project_source (validated by then), in its body or its query. */
  const config = {
    project: (request: FastifyRequest) => {
      const named = (request.body as { project_source?: ProjectSource } | null)?.project_source ?? (request.query as { project_source?: ProjectSource }).project_source;
      return copilotFlow(named ?? 'REGULAR');
    },
  };

  app.get(
    '/projects/:project_uuid/ai-tools',
    {
      config,
      schema: {
        tags,
        summary: 'The one-click tools (needs a Completed, exported project)',
        params: ProjectUuidParams,
        querystring: Type.Object({ project_source: Source }),
        response: { 200: Data(Type.Object({ prompts: Type.Array(Type.Object({ enhancement_type: Type.String(), label: Type.String(), enabled_for_batch: Type.Boolean() })) })), ...errorResponses },
      },
    },
    async (request) => ({ data: { prompts: copilot.tools(request.project) } }),
  );

  app.post(
    '/projects/:project_uuid/images/:filename/enhance',
    {
      config,
      schema: {
        tags,
        summary: 'Apply a one-click tool: a new version',
        params: ImageParams,
        body: Type.Object({ tool_id: Text(), project_source: Source, parent_version_id: Parent }),
        response: { 200: Data(Version), ...errorResponses },
      },
    },
    async (request) => {
      const b = request.body;
      return { data: await copilot.enhance(request.project, request.params.filename, b.tool_id, b.parent_version_id ?? null) };
    },
  );

  app.post(
    '/projects/:project_uuid/images/:filename/copilot',
    {
      config,
      schema: {
        tags,
        summary: 'Apply a natural-language instruction: a new version (fields at top level, not in data)',
        params: ImageParams,
        body: Type.Object({ instruction: Text({ minLength: 1, maxLength: 255 }), parent_version_id: Parent, project_source: Source }),
        response: { 200: Version, ...errorResponses },
      },
    },
    async (request) => {
      const b = request.body;
      return copilot.prompt(request.project, request.params.filename, b.instruction, b.parent_version_id ?? null);
    },
  );

  app.delete(
    '/projects/:project_uuid/images/:filename/copilot',
    {
      config,
      schema: {
        tags,
        summary: 'Reset: discard every Copilot version of the image',
        params: ImageParams,
        body: SourceBody,
        response: { 200: Data(Type.Object({ file_name: Type.String(), discarded_versions: Type.Integer() })), ...errorResponses },
      },
    },
    async (request) => ({ data: await copilot.reset(request.project, request.params.filename) }),
  );

  app.post(
    '/projects/:project_uuid/finalize',
    {
      config,
      schema: {
        tags,
        summary: 'Render the latest version of every touched image at full size; the flow’s downloads then serve them',
        params: ProjectUuidParams,
        body: SourceBody,
        response: { 200: Data(Type.Object({ files_list: Type.Array(Type.Object({ file_name: Type.String(), download_link: Type.String() })) })), ...errorResponses },
      },
    },
    async (request) => ({ data: { files_list: await copilot.finalize(request.project) } }),
  );
};
