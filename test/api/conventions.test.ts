import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request } from '../support/http.js';
import { startTestServer, testEngines } from '../support/server.js';

for (const engine of await testEngines()) {
  describe(`API conventions (${engine.label})`, async () => {
    const t = await startTestServer(engine);
    const { api } = t;

    test('a missing or unknown API key is refused with 401 in the standard envelope', async () => {
      for (const client of [api.withKey(null), api.withKey('rt_not-a-key')]) {
        const res = await client.get('/v1/i2i/projects');
        assert.equal(res.status, 401);
        assert.deepEqual(Object.keys(res.json), ['error']);
        assert.equal(typeof res.json.error.message, 'string');
      }
    });

    test('unknown route is 404 {"detail":"Not Found"}, wrong method is 405', async () => {
      const missing = await api.get('/v1/nothing/here');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.json, { detail: 'Not Found' });
      const wrong = await api.send('PATCH', '/v1/i2i/projects');
      assert.equal(wrong.status, 405);
      assert.deepEqual(wrong.json, { detail: 'Method Not Allowed' });
      const wrongOnParam = await api.delete('/v1/i2i/projects/some-uuid');
      assert.equal(wrongOnParam.status, 405);
    });

    test('query validation follows pydantic: one entry per failed field, loc, type, msg, raw input', async () => {
      const res = await api.get('/v1/i2i/projects?size=101&page=-1&is_archived=maybe&status=done');
      assert.equal(res.status, 422);
      const byField = Object.fromEntries(res.json.detail.map((d: any) => [d.loc[1], d]));
      assert.equal(res.json.detail.length, 4);
      assert.deepEqual(byField.size.loc, ['query', 'size']);
      assert.equal(byField.size.type, 'less_than_equal');
      assert.equal(byField.size.msg, 'Input should be less than or equal to 100');
      assert.equal(byField.size.input, '101');
      assert.deepEqual(byField.size.ctx, { le: 100 });
      assert.equal(byField.page.type, 'greater_than_equal');
      assert.equal(byField.is_archived.type, 'bool_parsing');
      assert.equal(byField.status.type, 'enum');
      assert.equal(byField.status.msg, "Input should be 'processing', 'completed' or 'failed'");
    });

    test('size=0, size=abc and a missing required query parameter', async () => {
      const zero = await api.get('/v1/i2i/projects?size=0');
      assert.equal(zero.json.detail[0].type, 'greater_than_equal');
      const abc = await api.get('/v1/i2i/projects?size=abc');
      assert.equal(abc.status, 422);
      assert.equal(abc.json.detail[0].type, 'int_parsing');
      assert.equal(abc.json.detail[0].msg, 'Input should be a valid integer, unable to parse string as an integer');
      const missing = await api.get('/v1/i2i/projects/is_valid_name');
      assert.equal(missing.status, 422);
      assert.deepEqual(missing.json.detail, [{ type: 'missing', loc: ['query', 'name'], msg: 'Field required', input: null }]);
    });

    test('pydantic boolean spellings are accepted in queries', async () => {
      for (const value of ['true', 'False', '1', '0', 'yes', 'off']) {
        const res = await api.get(`/v1/i2i/projects?is_archived=${value}`);
        assert.equal(res.status, 200, `is_archived=${value}`);
      }
    });

    test('body validation: invalid JSON, wrong type, nested locations', async () => {
      const { project_uuid } = (await api.post('/v1/i2i/projects', {})).json.data;
      const path = `/v1/i2i/projects/${project_uuid}/get_temporary_upload_links`;

      const broken = await api.send('POST', path, undefined, { 'content-type': 'application/json' });
      assert.equal(broken.status, 422, 'an empty body where one is required');
      assert.deepEqual(broken.json.detail, [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);

      const notJson = await request('POST', `${t.url}${path}`, { headers: { 'x-api-key': api.apiKey!, 'content-type': 'application/json' }, body: '{"files_list": [' });
      assert.equal(notJson.status, 422);
      assert.equal(notJson.json.detail[0].type, 'json_invalid');
      assert.equal(notJson.json.detail[0].loc[0], 'body');
      assert.equal(typeof notJson.json.detail[0].loc[1], 'number');

      const notObject = await api.post(path, [1, 2]);
      assert.equal(notObject.json.detail[0].type, 'model_attributes_type');
      assert.deepEqual(notObject.json.detail[0].loc, ['body']);

      const nested = await api.post(path, { files_list: [{ file_name: 'a.jpg' }, { name: 'b.jpg' }, { file_name: 7 }] });
      assert.equal(nested.status, 422);
      assert.deepEqual(
        nested.json.detail.map((d: any) => [d.loc, d.type]),
        [
          [['body', 'files_list', 1, 'file_name'], 'missing'],
          [['body', 'files_list', 2, 'file_name'], 'string_type'],
        ],
      );
      const short = await api.post(path, { files_list: [{ file_name: '' }] });
      assert.equal(short.json.detail[0].type, 'string_too_short');
      assert.equal(short.json.detail[0].msg, 'String should have at least 1 character');
    });

    test('422s echo the body as sent, before defaults are filled in or unknown fields dropped', async () => {
      const { project_uuid } = (await api.post('/v1/projects', {})).json.data;
      const edit = await api.post(`/v1/projects/${project_uuid}/edit`, { crop: true, extra: 1 });
      assert.equal(edit.status, 422);
      assert.deepEqual(edit.json.detail, [{ type: 'missing', loc: ['body', 'profile_key'], msg: 'Field required', input: { crop: true, extra: 1 } }]);
      const nested = await api.post(`/v1/projects/${project_uuid}/post_editing`, { watermark: { position: 'center' } });
      assert.deepEqual(nested.json.detail, [{ type: 'missing', loc: ['body', 'watermark', 'text'], msg: 'Field required', input: { position: 'center' } }]);
    });

    test("JSON bodies are read in pydantic's lax mode: numeric text as numbers, 0/1 and boolean words as booleans, never numbers as text", async () => {
      const { project_uuid } = (await api.post('/v1/i2i/projects', {})).json.data;
      const started = await api.post(`/v1/i2i/projects/${project_uuid}/multipart_uploads`, { file_name: 'big.jpg', part_count: ' 2 ' });
      assert.equal(started.status, 200, started.text);
      assert.deepEqual(
        started.json.data.parts.map((p: { part_number: number }) => p.part_number),
        [1, 2],
      );
      const edit = await api.post(`/v1/i2i/projects/${project_uuid}/edit`, { hdr_merge: 1, perspective_correction: 'yes', sky_replacement: 'False' });
      assert.equal(edit.status, 400, `validated, then refused for want of photos: ${edit.text}`);
      const fraction = await api.post(`/v1/i2i/projects/${project_uuid}/multipart_uploads`, { file_name: 'big.jpg', part_count: '2.5' });
      assert.deepEqual(fraction.json.detail, [{ type: 'int_parsing', loc: ['body', 'part_count'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '2.5' }]);
      const zero = await api.post(`/v1/i2i/projects/${project_uuid}/multipart_uploads`, { file_name: 'big.jpg', part_count: '0' });
      assert.deepEqual(zero.json.detail, [{ type: 'greater_than_equal', loc: ['body', 'part_count'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } }]);
      const words = await api.post(`/v1/i2i/projects/${project_uuid}/edit`, { hdr_merge: 'maybe', perspective_correction: 2 });
      assert.deepEqual(
        words.json.detail.map((d: any) => [d.loc[1], d.type]),
        [
          ['hdr_merge', 'bool_parsing'],
          ['perspective_correction', 'bool_parsing'],
        ],
      );
    });

    test('a query parameter sent twice counts by its last value, as FastAPI reads it', async () => {
      const last = await api.get('/v1/i2i/projects?size=20&size=3');
      assert.equal(last.status, 200, last.text);
      assert.equal(last.json.data.pagination.size, 3);
      const bad = await api.get('/v1/i2i/projects?size=20&size=abc&is_archived=0&is_archived=maybe');
      assert.deepEqual(
        bad.json.detail.map((d: any) => [d.loc[1], d.type, d.input]),
        [
          ['size', 'int_parsing', 'abc'],
          ['is_archived', 'bool_parsing', 'maybe'],
        ],
      );
    });

    test('JSON is accepted with application/json, with no Content-Type and with an empty Content-Type', async () => {
      const variants: Record<string, string>[] = [{ 'content-type': 'application/json' }, {}, { 'content-type': '' }];
      for (const [i, headers] of variants.entries()) {
        const res = await request('POST', `${t.url}/v1/i2i/projects`, {
          headers: { 'x-api-key': api.apiKey!, ...headers },
          body: JSON.stringify({ name: `ct-${i}-${Date.now()}` }),
        });
        assert.equal(res.status, 200, `variant ${JSON.stringify(headers)}: ${res.text}`);
        assert.ok(res.json.data.project_uuid);
      }
    });

    test('responses carry a request id; logs hold neither API keys nor link signatures', async () => {
      const res = await api.get('/v1/i2i/projects');
      assert.match(String(res.headers['x-request-id']), /^[\w.-]+$/);
      const { project_uuid } = (await api.post('/v1/i2i/projects', {})).json.data;
      const links = await api.post(`/v1/i2i/projects/${project_uuid}/get_temporary_upload_links`, { files_list: [{ file_name: 'a.jpg' }] });
      const link = links.json.data.files_list[0].upload_link as string;
      await request('PUT', link, { body: 'x' });
      const query = new URL(link).searchParams;
      const signature = query.get('signature') ?? query.get('X-Amz-Signature')!;
      const all = t.logs.join('\n');
      assert.ok(all.includes('"reqId"'), 'structured lines with a request id');
      // With S3 the PUT goes to the bucket, not through retouch.
      if (engine.blobs === 'local') assert.ok(all.includes('[redacted]'), 'the storage request was logged, redacted');
      assert.ok(!all.includes(api.apiKey!), 'no API key in logs');
      assert.ok(!all.includes(signature), 'no signature in logs');
    });

    test('page arithmetic is bounded: a page past 2^31 - 1 is a 422, a page past the end is empty', async () => {
      for (const list of ['/v1/i2i/projects', '/v1/projects']) {
        for (const page of ['1000000000000000000000000000000', '9223372036854775808', '1e400']) {
          const res = await api.get(`${list}?page=${page}`);
          assert.equal(res.status, 422, `${list} page=${page}: ${res.text}`);
          assert.deepEqual(res.json.detail, [{ type: 'less_than_equal', loc: ['query', 'page'], msg: 'Input should be less than or equal to 2147483647', input: page, ctx: { le: 2147483647 } }]);
        }
        const last = await api.get(`${list}?page=2147483647&size=100`);
        assert.equal(last.status, 200, last.text);
        assert.deepEqual(last.json.data.projects, []);
        assert.equal(last.json.data.pagination.page, 2147483647);
      }
    });

    test('NUL in free text is a 422 and nothing is stored; a project_uuid that is not a UUID is a 404 without a database lookup', async () => {
      const nul = [
        ['/v1/i2i/projects?search=a%00b', ['query', 'search']],
        ['/v1/i2i/projects/is_valid_name?name=a%00', ['query', 'name']],
        ['/v1/projects/uuid?project_name=a%00', ['query', 'project_name']],
        ['/v1/projects/a%00b/uuid', ['path', 'project_name']],
      ] as const;
      for (const [path, loc] of nul) {
        const res = await api.get(path);
        assert.equal(res.status, 422, `${path}: ${res.text}`);
        assert.deepEqual(
          res.json.detail.map((d: any) => [d.type, d.loc]),
          [['string_pattern_mismatch', loc]],
        );
      }
      for (const flow of ['/v1/i2i/projects', '/v1/projects']) {
        const created = await api.post(flow, { name: 'a\u0000b' });
        assert.equal(created.status, 422, created.text);
        assert.deepEqual(created.json.detail[0].loc, ['body', 'name']);
      }
      const listed = await api.get('/v1/i2i/projects?size=100');
      assert.ok(!listed.json.data.projects.some((p: { name: string }) => p.name.includes('\u0000')), 'no project named with NUL');

      const { projects } = t.server.services.repos;
      const byUuid = projects.byUuid;
      let lookups = 0;
      projects.byUuid = (uuid) => {
        lookups++;
        return byUuid.call(projects, uuid);
      };
      try {
        for (const path of ['/v1/i2i/projects/not-a-uuid', '/v1/i2i/projects/a%00b', '/v1/projects/x%00/export/status', '/v1/projects/12345/finalize']) {
          const res = path.endsWith('finalize') ? await api.post(path) : await api.get(path);
          assert.equal(res.status, 404, `${path}: ${res.text}`);
          assert.deepEqual(res.json, { error: { message: 'Project not found' } });
        }
        assert.equal(lookups, 0, 'no database lookup');
      } finally {
        projects.byUuid = byUuid;
      }
    });

    test('JSON nested past the limit is a 422 at the parser on every body-taking route; 422s echo long inputs shortened', async () => {
      const { project_uuid } = (await api.post('/v1/i2i/projects', {})).json.data;
      const doc = (await api.get('/openapi.json')).json;
      const deep = '['.repeat(5000) + ']'.repeat(5000);
      let routes = 0;
      for (const [template, methods] of Object.entries<Record<string, { requestBody?: unknown }>>(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          if (!op.requestBody) continue;
          routes++;
          const path = template.replace('{project_uuid}', project_uuid).replace(/\{\w+\}/g, 'x');
          const res = await request(method.toUpperCase(), `${t.url}${path}`, { headers: { 'x-api-key': api.apiKey!, 'content-type': 'application/json' }, body: deep });
          assert.equal(res.status, 422, `${method} ${template}: ${res.text.slice(0, 200)}`);
          assert.equal(res.json.detail[0].type, 'json_invalid');
          assert.deepEqual(res.json.detail[0].loc, ['body', 32]);
          assert.equal(res.json.detail[0].ctx.error, 'nested deeper than 32 levels');
        }
      }
      assert.ok(routes >= 14, `${routes} body-taking routes`);
      const within = await api.post('/v1/i2i/projects', JSON.parse('['.repeat(32) + ']'.repeat(32)));
      assert.equal(within.json.detail[0].type, 'model_attributes_type', 'within the limit, validation speaks');

      const huge = 'x'.repeat(1_000_000);
      const long = await api.post(`/v1/i2i/projects/${project_uuid}/get_temporary_upload_links`, { files_list: huge });
      assert.equal(long.status, 422);
      assert.equal(long.json.detail[0].type, 'list_type');
      assert.equal(long.json.detail[0].input, `${'x'.repeat(25)}...${'x'.repeat(24)}`);
      const whole = await api.post('/v1/i2i/projects', [huge]);
      assert.equal(whole.json.detail[0].input, `["${'x'.repeat(23)}...${'x'.repeat(22)}"]`);
      assert.ok(whole.text.length < 1000, 'the answer stays small');
      const short = await api.post(`/v1/i2i/projects/${project_uuid}/get_temporary_upload_links`, { files_list: 'short' });
      assert.equal(short.json.detail[0].input, 'short', 'short inputs are echoed whole, as FastAPI does');
    });

    test('a malformed percent-encoding is a 400 and an overlong path parameter a 414, both in the standard envelope', async () => {
      const bad = await api.get('/v1/i2i/projects/%zz');
      assert.equal(bad.status, 400);
      assert.deepEqual(Object.keys(bad.json), ['error']);
      const invalidUtf8 = await api.get('/v1/i2i/projects/%ED%A0%80');
      assert.equal(invalidUtf8.status, 400);
      const long = await api.get(`/v1/projects/${'n'.repeat(5000)}/uuid`);
      assert.equal(long.status, 414);
      assert.match(long.json.error.message, /longer than 4096/);
      const longName = await api.get(`/v1/projects/${encodeURIComponent('é'.repeat(255))}/uuid`);
      assert.equal(longName.status, 404, 'a 255-character name, percent-encoded, is still looked up');
    });

    test('an unexpected failure is a 500 in the standard envelope without internals', async () => {
      const broken = await startTestServer(engine);
      await broken.server.services.db.close();
      const res = await broken.api.get('/v1/i2i/projects');
      assert.equal(res.status, 500);
      assert.deepEqual(res.json, { error: { message: 'Internal Server Error' } });
    });
  });
}
