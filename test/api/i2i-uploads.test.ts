import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { i2iProjectWith, waitForEnd } from '../support/flow.js';
import { request } from '../support/http.js';
import { jpegOf, testScene } from '../support/photos.js';
import { startTestServer, testEngines } from '../support/server.js';

const md5 = (data: Buffer | string) => crypto.createHash('md5').update(data).digest('base64');
const MB = 1024 * 1024;

for (const engine of await testEngines()) {
  describe(`Smart Editing uploads (${engine.label})`, async () => {
    const t = await startTestServer(engine);
    const { api } = t;
    const newProject = async () => (await api.post('/v1/i2i/projects', {})).json.data.project_uuid as string;
    const linksFor = (uuid: string, files_list: unknown[], extra: Record<string, unknown> = {}) => api.post(`/v1/i2i/projects/${uuid}/get_temporary_upload_links`, { files_list, ...extra });
    const local = engine.blobs === 'local';
    /** Why the store refused a request: the embedded store's error message, or S3's error code. */
    const refusal = (res: { json: any; text: string }): string => (local ? res.json.error.message : /<Code>([^<]+)<\/Code>/.exec(res.text)![1]!);

    test('upload links: one absolute link per file, the path ending with the file name', async () => {
      const uuid = await newProject();
      const res = await linksFor(uuid, [{ file_name: 'IMG 1.jpg' }, { file_name: 'b.JPEG' }], { client_type: 'API' });
      assert.equal(res.status, 200, res.text);
      const files = res.json.data.files_list;
      assert.deepEqual(
        files.map((f: { file_name: string }) => f.file_name),
        ['IMG 1.jpg', 'b.JPEG'],
      );
      for (const f of files) {
        assert.deepEqual(Object.keys(f), ['file_name', 'upload_link']);
        const url = new URL(f.upload_link);
        assert.equal(url.origin, local ? t.url : t.config.s3!.endpoint, 'links point at the store');
        assert.equal(decodeURIComponent(url.pathname.split('/').pop()!), f.file_name);
      }
      const detail = await api.get(`/v1/i2i/projects/${uuid}`);
      assert.equal(detail.json.data.number_of_images, 2);
    });

    test('the exact 400s: duplicate names, unsupported types, mixed JPEG and RAW, unsafe names', async () => {
      const uuid = await newProject();
      const dup = await linksFor(uuid, [{ file_name: 'a.jpg' }, { file_name: 'b.jpg' }, { file_name: 'a.jpg' }]);
      assert.equal(dup.status, 400);
      assert.deepEqual(dup.json, { error: { message: 'File "a.jpg" appears 2 times.' } });

      const unsupported = await linksFor(uuid, [{ file_name: 'a.txt' }]);
      assert.equal(unsupported.status, 400);
      assert.match(unsupported.json.error.message, /^file a\.txt is not supported\. supported files types are .*jpg.*dng.*cr2/);

      const mixed = await linksFor(uuid, [{ file_name: 'a.jpg' }, { file_name: 'b.CR2' }]);
      assert.equal(mixed.status, 400);
      assert.match(mixed.json.error.message, /^Invalid combination of file types/);

      const rawAndDng = await linksFor(await newProject(), [{ file_name: 'a.cr2' }, { file_name: 'b.dng' }, { file_name: 'c.NEF' }]);
      assert.equal(rawAndDng.status, 200, 'RAW plus DNG is allowed');

      assert.equal((await linksFor(uuid, [{ file_name: 'x.jpg' }])).status, 200);
      const laterRaw = await linksFor(uuid, [{ file_name: 'y.dng' }]);
      assert.equal(laterRaw.status, 400, 'the combination rule spans requests');
      assert.match(laterRaw.json.error.message, /^Invalid combination of file types/);

      for (const bad of ['../a.jpg', 'dir/a.jpg', 'dir\\a.jpg', 'a\n.jpg']) {
        const res = await linksFor(uuid, [{ file_name: bad }]);
        assert.equal(res.status, 400, JSON.stringify(bad));
        assert.ok(res.json.error.message);
      }
      const nul = await linksFor(uuid, [{ file_name: 'a\u0000.jpg' }]);
      assert.equal(nul.status, 422, 'NUL, as in every text field');
      assert.deepEqual(nul.json.detail[0].loc, ['body', 'files_list', 0, 'file_name']);
    });

    test('presigned PUT and GET: no API key, empty or any Content-Type, Range, ETag; bytes intact', async () => {
      const uuid = await newProject();
      const link = (await linksFor(uuid, [{ file_name: 'photo.jpg' }])).json.data.files_list[0].upload_link;
      const bytes = crypto.randomBytes(300_000);
      const put = await request('PUT', link, { headers: { 'content-type': '' }, body: bytes });
      assert.equal(put.status, 200, put.text);
      if (local) assert.ok(put.json, 'a JSON body on success');
      assert.ok(put.headers.etag);
      const again = await request('PUT', link, { headers: { 'content-type': 'image/jpeg' }, body: bytes });
      assert.equal(again.status, 200, 'another Content-Type is fine too, and replaces the object');

      const stored = await t.server.services.blobs.read(`projects/${uuid}/uploads/photo.jpg`);
      assert.ok(stored.equals(bytes));
      const get = await request('GET', await t.server.services.blobs.presignGet(`projects/${uuid}/uploads/photo.jpg`));
      assert.equal(get.status, 200);
      assert.equal(get.headers['content-type'], 'image/jpeg');
      assert.equal(get.headers['content-disposition'], `attachment; filename="photo.jpg"; filename*=UTF-8''photo.jpg`);
      assert.equal(Number(get.headers['content-length']), bytes.length);
      assert.ok(get.body.equals(bytes));
      const getLink = await t.server.services.blobs.presignGet(`projects/${uuid}/uploads/photo.jpg`);
      const ranged = await request('GET', getLink, { headers: { range: 'bytes=100-199' } });
      assert.equal(ranged.status, 206);
      assert.equal(ranged.headers['content-range'], `bytes 100-199/${bytes.length}`);
      assert.ok(ranged.body.equals(bytes.subarray(100, 200)));
      const suffix = await request('GET', getLink, { headers: { range: 'bytes=-10' } });
      assert.ok(suffix.body.equals(bytes.subarray(bytes.length - 10)));
      const beyond = await request('GET', getLink, { headers: { range: `bytes=${bytes.length}-` } });
      assert.equal(beyond.status, 416);
    });

    test('tampered, expired and wrong-method links are refused with 403', async () => {
      const uuid = await newProject();
      const link = new URL((await linksFor(uuid, [{ file_name: 'p.jpg' }])).json.data.files_list[0].upload_link);
      const [signature, expiry] = local ? ['signature', 'expires'] : ['X-Amz-Signature', 'X-Amz-Expires'];
      const tampered = new URL(link);
      tampered.pathname = tampered.pathname.replace('p.jpg', 'q.jpg');
      const forged = new URL(link);
      forged.searchParams.set(signature, '0'.repeat(64));
      const stretched = new URL(link);
      stretched.searchParams.set(expiry, String(Number(link.searchParams.get(expiry)) + 3600));
      // S3 takes anonymous writes where a bucket policy allows them; the test server, like a private bucket, does not.
      const unsigned = new URL(link);
      unsigned.search = '';
      for (const bad of local ? [tampered, forged, stretched] : [tampered, forged, stretched, unsigned]) {
        const res = await request('PUT', bad.toString(), { body: 'x' });
        assert.equal(res.status, 403, bad.toString());
        assert.ok(refusal(res));
      }
      const asGet = await request('GET', link.toString());
      assert.equal(asGet.status, 403, 'a PUT link does not read');

      const key = `projects/${uuid}/uploads/p.jpg`;
      let expired: string;
      if (local) {
        const expires = Math.floor(Date.now() / 1000) - 1;
        const sig = t.server.services.embeddedStorage!.signer.sign({ method: 'PUT', key, expires });
        expired = `${t.url}/storage/${key}?method=PUT&expires=${expires}&signature=${sig}`;
      } else {
        const shortLived = new S3BlobStore({ ...t.config.s3!, linkTtlSeconds: 1 });
        expired = await shortLived.presignPut(key);
        shortLived.close();
        // S3 dates links to the second: two seconds are past a one-second lifetime whatever the rounding.
        await new Promise((r) => setTimeout(r, 2000));
      }
      const res = await request('PUT', expired, { body: 'x' });
      assert.equal(res.status, 403);
      assert.match(local ? refusal(res) : res.text, /expired/);
      assert.equal(await t.server.services.blobs.head(key), null, 'nothing stored');
    });

    test('MD5: a Content-MD5 header and a declared md5 are verified; a mismatch stores nothing', async () => {
      const uuid = await newProject();
      const body = Buffer.from('the real bytes');
      const files = (await linksFor(uuid, [{ file_name: 'declared.jpg', md5: md5(body) }, { file_name: 'header.jpg' }])).json.data.files_list;
      const [declared, header] = files.map((f: { upload_link: string }) => f.upload_link);

      const corrupt = await request('PUT', declared, { headers: { 'content-md5': md5(body) }, body: 'other bytes' });
      assert.equal(corrupt.status, 400);
      assert.match(refusal(corrupt), local ? /MD5/ : /^BadDigest$/);
      // The embedded store checks a declared md5 by itself; S3 can only check the header, so its link requires it.
      const noHeader = await request('PUT', declared, { body: 'other bytes' });
      assert.equal(noHeader.status, local ? 400 : 403);
      assert.equal(await t.server.services.blobs.head(`projects/${uuid}/uploads/declared.jpg`), null);
      assert.equal((await request('PUT', declared, { headers: { 'content-md5': md5(body) }, body })).status, 200);

      const wrongHeader = await request('PUT', header, { headers: { 'content-md5': md5('something else') }, body });
      assert.equal(wrongHeader.status, 400);
      assert.equal(await t.server.services.blobs.head(`projects/${uuid}/uploads/header.jpg`), null);
      assert.equal((await request('PUT', header, { headers: { 'content-md5': md5(body) }, body })).status, 200);

      const badFormat = await linksFor(uuid, [{ file_name: 'c.jpg', md5: 'not-base64' }]);
      assert.equal(badFormat.status, 422);
      assert.deepEqual(badFormat.json.detail[0].loc, ['body', 'files_list', 0, 'md5']);
    });

    test('links close on submit: a late PUT or part never changes what was submitted; override links open at Completed', async () => {
      const first = await jpegOf(testScene(96, 64, 1));
      const uuid = await i2iProjectWith(api, { 'a.jpg': first });
      const [link] = (await linksFor(uuid, [{ file_name: 'a.jpg' }])).json.data.files_list;
      const multipart = (await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads`, { file_name: 'b.jpg', part_count: 1 })).json.data;
      assert.equal((await request('PUT', multipart.parts[0].upload_url, { body: first })).status, 200);
      // b.jpg never completed: its link was requested, so the edit waits for it...
      const incomplete = await api.post(`/v1/i2i/projects/${uuid}/edit`, {});
      assert.equal(incomplete.status, 400);
      assert.equal(incomplete.json.error.message, 'Upload Incomplete: 1 out of 2 files are missing.');
      assert.equal((await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads/${multipart.upload_id}/complete`, { file_name: 'b.jpg' })).status, 200);
      const again = (await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads`, { file_name: 'b.jpg', part_count: 1 })).json.data;
      assert.equal((await api.post(`/v1/i2i/projects/${uuid}/edit`, {})).status, 200);

      const late = await request('PUT', link.upload_link, { headers: { 'content-type': '' }, body: await jpegOf(testScene(96, 64, 2)) });
      const latePart = await request('PUT', again.parts[0].upload_url, { body: first });
      if (local) {
        assert.equal(late.status, 403, 'the embedded store refuses writes to a submitted project');
        assert.match(refusal(late), /submitted/);
        assert.equal(latePart.status, 403);
      } else {
        assert.equal(late.status, 200, 'S3 cannot refuse a presigned PUT before it expires');
        assert.equal(latePart.status, 404, 'the multipart upload still open at submit was aborted');
        assert.equal(refusal(latePart), 'NoSuchUpload');
      }
      const complete = await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads/${again.upload_id}/complete`, { file_name: 'b.jpg' });
      assert.equal(complete.status, 400);
      assert.match(complete.json.error.message, /submitted/);
      const original = await t.server.services.blobs.read(`projects/${uuid}/originals/a.jpg`);
      assert.ok(original.equals(first), 'the submitted bytes are the ones kept and edited');

      assert.equal((await waitForEnd(api, `/v1/i2i/projects/${uuid}`)).status, 'Completed');
      const override = await api.get(`/v1/i2i/projects/${uuid}/get_upload_link?file_name=a.jpg`);
      assert.equal(override.status, 200, override.text);
      const replacement = await jpegOf(testScene(96, 64, 3));
      assert.equal((await request('PUT', override.json.data.upload_link, { headers: { 'content-type': '' }, body: replacement })).status, 200);
      const download = await api.get(`/v1/i2i/projects/${uuid}/get_download_link?file_name=a.jpg`);
      assert.ok((await request('GET', download.json.data.download_link)).body.equals(replacement), 'the override link still writes');
    });

    test('HDR groups and orientations links', async () => {
      const uuid = await newProject();
      for (const [path, name] of [
        ['get_hdr_groups_upload_link', 'hdr_groups.json'],
        ['get_orientations_upload_link', 'orientations.json'],
      ]) {
        const res = await api.post(`/v1/i2i/projects/${uuid}/${path}`);
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(Object.keys(res.json.data), ['file_name', 'upload_link']);
        assert.equal(res.json.data.file_name, name);
        assert.ok(res.json.data.upload_link.split('?')[0].endsWith(`/${name}`));
        assert.equal((await request('PUT', res.json.data.upload_link, { body: '[]' })).status, 200);
      }
    });

    test('multipart: start, parallel parts, complete assembles; short or missing parts are refused', async () => {
      const uuid = await newProject();
      const start = await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads`, { file_name: 'big.cr2', part_count: 3 });
      assert.equal(start.status, 200, start.text);
      const { upload_id, key, parts } = start.json.data;
      assert.equal(typeof upload_id, 'string');
      assert.equal(typeof key, 'string');
      assert.deepEqual(
        parts.map((p: { part_number: number }) => p.part_number),
        [1, 2, 3],
      );

      const chunks = [crypto.randomBytes(5 * MB), crypto.randomBytes(5 * MB), crypto.randomBytes(1000)];
      const complete = () => api.post(`/v1/i2i/projects/${uuid}/multipart_uploads/${upload_id}/complete`, { file_name: 'big.cr2' });

      await request('PUT', parts[0].upload_url, { headers: { 'content-type': '' }, body: chunks[0] });
      const missing = await complete();
      assert.equal(missing.status, 400);
      assert.match(missing.json.error.message, /Part 2 of 3/);

      await request('PUT', parts[1].upload_url, { body: chunks[1]!.subarray(0, MB) });
      await request('PUT', parts[2].upload_url, { body: chunks[2] });
      const short = await complete();
      assert.equal(short.status, 400);
      assert.match(short.json.error.message, /Part 2 is 1048576 bytes/);

      await Promise.all(parts.map((p: { upload_url: string }, i: number) => request('PUT', p.upload_url, { headers: { 'content-type': '' }, body: chunks[i] })));
      const done = await complete();
      assert.equal(done.status, 200, done.text);
      assert.deepEqual(done.json, { data: null });
      const stored = await t.server.services.blobs.read(key);
      assert.ok(stored.equals(Buffer.concat(chunks)));
      assert.equal((await complete()).status, 400, 'completing twice');
      assert.equal((await api.get(`/v1/i2i/projects/${uuid}`)).json.data.number_of_images, 1);
    });

    test('multipart: abort drops the parts; complete after abort and unknown uploads are refused', async () => {
      const uuid = await newProject();
      const start = (await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads`, { file_name: 'x.dng', part_count: 1 })).json.data;
      assert.equal((await request('PUT', start.parts[0].upload_url, { body: 'abc' })).status, 200);
      const wrongKey = await api.delete(`/v1/i2i/projects/${uuid}/multipart_uploads/${start.upload_id}`, { key: 'nope' });
      assert.equal(wrongKey.status, 400);
      const abort = await api.delete(`/v1/i2i/projects/${uuid}/multipart_uploads/${start.upload_id}`, { key: start.key });
      assert.equal(abort.status, 200);
      assert.deepEqual(abort.json, { data: null });
      assert.deepEqual(await t.server.services.blobs.listParts(start.key, start.upload_id), []);
      const late = await request('PUT', start.parts[0].upload_url, { body: 'abc' });
      assert.equal(late.status, 404, 'parts of an aborted upload are refused');
      const after = await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads/${start.upload_id}/complete`, { file_name: 'x.dng' });
      assert.equal(after.status, 400);
      assert.match(after.json.error.message, /aborted/);
      const unknown = await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads/no-such-upload/complete`, { file_name: 'x.dng' });
      assert.equal(unknown.status, 404);
      const limits = await api.post(`/v1/i2i/projects/${uuid}/multipart_uploads`, { file_name: 'y.dng', part_count: 10001 });
      assert.equal(limits.status, 422);
      assert.equal(limits.json.detail[0].type, 'less_than_equal');
      const noBody = await api.delete(`/v1/i2i/projects/${uuid}/multipart_uploads/${start.upload_id}`);
      assert.equal(noBody.status, 422);
    });
  });
}
