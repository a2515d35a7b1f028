import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startTestServer, testEngines } from '../support/server.js';

const ITEM_KEYS = ['ai_tools', 'created_at', 'customer_reference_id', 'export_status', 'name', 'number_of_images', 'profile', 'project_id', 'project_uuid', 'status', 'thumbnail_src'];

for (const engine of await testEngines()) {
  describe(`Smart Editing projects (${engine.label})`, async () => {
    const t = await startTestServer(engine);
    const { api } = t;

    test('create answers data.project_uuid, with or without a trailing slash and body', async () => {
      const bodies: [string, unknown][] = [
        ['/v1/i2i/projects', undefined],
        ['/v1/i2i/projects/', {}],
        ['/v1/i2i/projects', null],
        ['/v1/i2i/projects/', { name: 'Kitchen shoot' }],
      ];
      for (const [path, body] of bodies) {
        const res = await api.post(path, body);
        assert.equal(res.status, 200, `${path} ${JSON.stringify(body)}: ${res.text}`);
        assert.deepEqual(Object.keys(res.json.data), ['project_uuid']);
        assert.match(res.json.data.project_uuid, /^[0-9a-f-]{36}$/);
      }
    });

    test('the project item has exactly the fields of reference §2.1', async () => {
      const { project_uuid } = (await api.post('/v1/i2i/projects', { name: 'Item shape' })).json.data;
      const res = await api.get(`/v1/i2i/projects/${project_uuid}`);
      assert.equal(res.status, 200);
      const item = res.json.data;
      assert.deepEqual(Object.keys(item).sort(), ITEM_KEYS);
      assert.equal(item.project_uuid, project_uuid);
      assert.equal(item.name, 'Item shape');
      assert.equal(item.status, 'Pending');
      assert.ok(Number.isInteger(item.project_id));
      assert.ok(Number.isInteger(item.customer_reference_id));
      assert.ok(Number.isInteger(item.number_of_images));
      assert.ok(!Number.isNaN(Date.parse(item.created_at)) && /T.*Z$/.test(item.created_at), 'ISO 8601');
      assert.equal(item.profile, null);
      assert.equal(item.export_status, null);
      assert.deepEqual(item.ai_tools, []);
      const noThumb = await api.get(`/v1/i2i/projects/${project_uuid}?get_thumbnail=false`);
      assert.equal(noThumb.json.data.thumbnail_src, null);
    });

    test('names are unique per account: duplicate create is a 400 naming the project; is_valid_name agrees', async () => {
      assert.equal((await api.post('/v1/i2i/projects', { name: 'Unique one' })).status, 200);
      const dup = await api.post('/v1/i2i/projects', { name: 'Unique one' });
      assert.equal(dup.status, 400);
      assert.match(dup.json.error.message, /Unique one/);
      assert.deepEqual((await api.get('/v1/i2i/projects/is_valid_name?name=Unique%20one')).json, { data: { is_valid: false } });
      assert.deepEqual((await api.get('/v1/i2i/projects/is_valid_name?name=Unused')).json, { data: { is_valid: true } });
      const other = await t.newAccount('other-names');
      assert.equal((await other.post('/v1/i2i/projects', { name: 'Unique one' })).status, 200, 'another account may reuse it');
    });

    test('concurrent creates of one name: exactly one wins', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => api.post('/v1/i2i/projects', { name: 'Race' })));
      assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400, 400, 400, 400, 400, 400]);
    });

    test("another account's project is 403, an unknown uuid 404, with the reference messages", async () => {
      const { project_uuid } = (await api.post('/v1/i2i/projects', {})).json.data;
      const stranger = await t.newAccount('stranger');
      const forbidden = await stranger.get(`/v1/i2i/projects/${project_uuid}`);
      assert.equal(forbidden.status, 403);
      assert.deepEqual(forbidden.json, { error: { message: "You don't have permission to access this project" } });
      const missing = await api.get('/v1/i2i/projects/00000000-0000-4000-8000-000000000000');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.json, { error: { message: 'Project not found' } });
      const links = await stranger.post(`/v1/i2i/projects/${project_uuid}/get_temporary_upload_links`, { files_list: [{ file_name: 'a.jpg' }] });
      assert.equal(links.status, 403);
    });

    test('list: pagination, search, status filter, sort and defaults', async () => {
      const client = await t.newAccount('lister');
      const names = ['Alpha beach', 'Bravo house', 'Charlie beach', 'Delta', 'Echo_beach%'];
      for (const name of names) assert.equal((await client.post('/v1/i2i/projects', { name })).status, 200);

      const all = await client.get('/v1/i2i/projects');
      assert.equal(all.status, 200);
      assert.deepEqual(all.json.data.pagination, { total: 5, size: 20, page: 0 });
      assert.deepEqual(
        all.json.data.projects.map((p: { name: string }) => p.name),
        [...names].reverse(),
        'newest first by default (sort_by=date)',
      );
      for (const item of all.json.data.projects) assert.deepEqual(Object.keys(item).sort(), ITEM_KEYS);

      const page1 = await client.get('/v1/i2i/projects?size=2&page=1');
      assert.deepEqual(page1.json.data.pagination, { total: 5, size: 2, page: 1 });
      assert.deepEqual(
        page1.json.data.projects.map((p: { name: string }) => p.name),
        ['Charlie beach', 'Bravo house'],
      );
      const beyond = await client.get('/v1/i2i/projects?size=2&page=9');
      assert.deepEqual(beyond.json.data.projects, []);

      const search = await client.get('/v1/i2i/projects?search=BEACH&sort_by=name');
      assert.deepEqual(
        search.json.data.projects.map((p: { name: string }) => p.name),
        ['Alpha beach', 'Charlie beach', 'Echo_beach%'],
      );
      assert.equal(search.json.data.pagination.total, 3);
      const literal = await client.get(`/v1/i2i/projects?search=${encodeURIComponent('_beach%')}`);
      assert.deepEqual(
        literal.json.data.projects.map((p: { name: string }) => p.name),
        ['Echo_beach%'],
        'wildcards are literal',
      );

      assert.equal((await client.get('/v1/i2i/projects?status=processing')).json.data.pagination.total, 5, 'new projects are Pending');
      assert.equal((await client.get('/v1/i2i/projects?status=completed')).json.data.pagination.total, 0);
      assert.equal((await client.get('/v1/i2i/projects?is_archived=true')).json.data.pagination.total, 0);
      assert.equal((await client.get('/v1/i2i/projects?get_thumbnail=false')).status, 200, 'unknown query parameters are ignored');
    });
  });
}
