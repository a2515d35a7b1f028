import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { request } from '../support/http.js';
import { startTestServer, testEngines } from '../support/server.js';

/** Links issued by the API live LINK_TTL_SECONDS; both stores date them to the second, so one is refused at most a second after that. */
const TTL_SECONDS = 3;

for (const engine of await testEngines()) {
  describe(`presigned link expiry (${engine.label})`, async () => {
    const t = await startTestServer(engine, { LINK_TTL_SECONDS: String(TTL_SECONDS) });
    const { api } = t;
    const local = engine.blobs === 'local';
    const expired = (res: { status: number; json: any; text: string }) => res.status === 403 && (local ? res.json.error.message === 'This link has expired.' : /<Code>AccessDenied<\/Code>[\s\S]*expired/.test(res.text));

    test('upload and download links the API hands out work until LINK_TTL_SECONDS have passed, and are refused after', async () => {
      const uuid = (await api.post('/v1/i2i/projects', {})).json.data.project_uuid;
      // The first listing renders the previews: done before any link is timed.
      await api.get('/v1/projects/sky_replacement/templates');
      const preview = (await api.get('/v1/projects/sky_replacement/templates')).json.data.templates[0].preview_link;
      const uploads = (await api.post(`/v1/i2i/projects/${uuid}/get_temporary_upload_links`, { files_list: [{ file_name: 'now.jpg' }, { file_name: 'late.jpg' }] })).json.data.files_list;
      // Timed from the last answer: a link is dated when the server answers, which on a loaded machine can come a second or more after the request.
      const issued = Date.now();
      assert.equal((await request('PUT', uploads[0].upload_link, { headers: { 'content-type': '' }, body: 'bytes' })).status, 200, 'a fresh upload link');
      assert.equal((await request('GET', preview)).status, 200, 'a fresh download link');

      await new Promise((r) => setTimeout(r, (TTL_SECONDS + 1) * 1000 + 200 - (Date.now() - issued)));
      const put = await request('PUT', uploads[1].upload_link, { headers: { 'content-type': '' }, body: 'bytes' });
      assert.ok(expired(put), `upload after expiry: ${put.status} ${put.text.slice(0, 200)}`);
      const get = await request('GET', preview);
      assert.ok(expired(get), `download after expiry: ${get.status} ${get.text.slice(0, 200)}`);
      assert.equal(await t.server.services.blobs.head(`projects/${uuid}/uploads/late.jpg`), null, 'nothing stored');
    });
  });
}
