import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import type { ProjectsService } from '../../src/domain/projects.js';
import { registerProjectAccess } from '../../src/http/project-access.js';
import { request } from '../support/http.js';
import { startTestServer, testEngines } from '../support/server.js';

const FORBIDDEN = { error: { message: "You don't have permission to access this project" } };
const NOT_FOUND = { error: { message: 'Project not found' } };
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A body each route validates, so that the request reaches the ownership check. */
function bodyFor(path: string, method: string): unknown {
  if (path.endsWith('/get_temporary_upload_links')) return { files_list: [{ file_name: 'a.jpg' }] };
  if (path.endsWith('/multipart_uploads')) return { file_name: 'a.jpg', part_count: 1 };
  if (path.endsWith('/complete')) return { file_name: 'a.jpg' };
  if (path.endsWith('/multipart_uploads/{upload_id}')) return { key: 'k' };
  if (path === '/v1/projects/{project_uuid}/edit') return { profile_key: 1 };
  if (path.endsWith('/enhance')) return { tool_id: 'BRIGHTEN' };
  if (path.endsWith('/copilot') && method === 'post') return { instruction: 'brighter' };
  return {};
}

for (const engine of await testEngines()) {
  describe(`project ownership on every project route (${engine.label})`, async () => {
    const t = await startTestServer(engine);
    const { api } = t;
    const stranger = await t.newAccount('project-stranger');
    const doc = (await api.get('/openapi.json')).json as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    const projectOf = {
      i2i: (await api.post('/v1/i2i/projects', {})).json.data.project_uuid as string,
      regular: (await api.post('/v1/projects', {})).json.data.project_uuid as string,
    };

    test("another account's project is a 403 and an unknown one a 404, on each route that names one, with the reference's messages", async () => {
      let routes = 0;
      for (const [template, methods] of Object.entries(doc.paths).filter(([path]) => path.includes('{project_uuid}'))) {
        for (const [method, op] of Object.entries(methods)) {
          routes++;
          const query = op.parameters?.some((p) => p.in === 'query' && p.name === 'file_name') ? '?file_name=a.jpg' : '';
          const url = (uuid: string) => `${t.url}${template.replace('{project_uuid}', uuid).replace('{upload_id}', 'u1').replace('{filename}', 'a.jpg')}${query}`;
          const owned = projectOf[template.startsWith('/v1/i2i/') ? 'i2i' : 'regular'];
          const send = (client: typeof api, uuid: string) => request(method.toUpperCase(), url(uuid), { headers: { 'x-api-key': client.apiKey!, 'content-type': 'application/json' }, body: JSON.stringify(bodyFor(template, method)) });
          const foreign = await send(stranger, owned);
          assert.deepEqual([foreign.status, foreign.json], [403, FORBIDDEN], `${method} ${template}: ${foreign.text}`);
          const unknown = await send(api, UNKNOWN);
          assert.deepEqual([unknown.status, unknown.json], [404, NOT_FOUND], `${method} ${template}: ${unknown.text}`);
        }
      }
      assert.ok(routes >= 25, `${routes} routes name a project`);
    });
  });
}

describe('project access', () => {
  test('a route that names a project but declares no scope is refused when it is registered', async () => {
    const app = Fastify();
    registerProjectAccess(app, {} as ProjectsService);
    assert.throws(() => app.get('/projects/:project_uuid/thing', async () => ({})), /GET \/projects\/:project_uuid\/thing names a project but declares no config.project scope/);
    app.get('/projects/:project_uuid/scoped', { config: { project: 'i2i' } }, async () => ({}));
    await app.close();
  });
});
