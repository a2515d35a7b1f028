import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request } from '../support/http.js';
import { startTestServer, testEngines } from '../support/server.js';

for (const engine of await testEngines()) {
  describe(`operator endpoints (${engine.label})`, async () => {
    const t = await startTestServer(engine);

    test('/healthz answers with a database round trip', async () => {
      const res = await request('GET', `${t.url}/healthz`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { status: 'ok', database: engine.name });
    });

    test('/metrics is Prometheus text with request durations by route pattern', async () => {
      await t.api.get('/v1/i2i/projects');
      const res = await request('GET', `${t.url}/metrics`);
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /text\/plain/);
      assert.match(res.text, /http_request_duration_seconds_count\{route="\/v1\/i2i\/projects",method="GET",status="200"\}/);
      assert.match(res.text, /process_resident_memory_bytes/);
      assert.match(res.text, /retouch_jobs\{state="queued"\} \d+/, 'the job backlog');
    });

    test('/openapi.json is OpenAPI 3.1.0, version 0.1.0, documenting the /v1 routes and their security', async () => {
      const res = await request('GET', `${t.url}/openapi.json`);
      assert.equal(res.status, 200);
      const doc = res.json;
      assert.equal(doc.openapi, '3.1.0');
      assert.equal(doc.info.version, '0.1.0');
      for (const path of ['/v1/i2i/projects', '/v1/i2i/projects/{project_uuid}', '/v1/i2i/projects/{project_uuid}/multipart_uploads/{upload_id}']) {
        assert.ok(doc.paths[path], `${path} documented`);
      }
      assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/storage')), 'storage internals hidden');
      assert.deepEqual(doc.components.securitySchemes.APIKeyHeader, { type: 'apiKey', in: 'header', name: 'x-api-key' });
      const list = doc.paths['/v1/i2i/projects'].get;
      const size = list.parameters.find((p: { name: string }) => p.name === 'size');
      assert.deepEqual([size.schema.minimum, size.schema.maximum, size.schema.default], [1, 100, 20]);
      // A client generated from the document must be free to leave out what has a default.
      for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, { parameters?: { name: string; required?: boolean; schema: { default?: unknown } }[] }>][]) {
        for (const [method, operation] of Object.entries(item)) {
          for (const p of operation.parameters ?? []) {
            if (p.schema.default !== undefined) assert.notEqual(p.required, true, `${method.toUpperCase()} ${path}: ${p.name} has a default, so it is optional`);
          }
        }
      }
      assert.equal(size.required, false);
    });

    test('/docs serves a readable page', async () => {
      const res = await request('GET', `${t.url}/docs/`);
      assert.equal(res.status, 200);
      assert.match(res.text, /<html/i);
    });
  });
}
