import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { decodeImage } from '../../src/imaging/decode.js';
import { render } from '../../src/imaging/render.js';
import { fromXmp } from '../../src/imaging/xmp.js';
import { callbackReceiver } from '../support/callback-receiver.js';
import { writeDng } from '../support/dng.js';
import { downloadAll, editProfileProject, exportProject, profileProjectWith, waitForStage } from '../support/flow.js';
import { request } from '../support/http.js';
import { exposed, jpegOf, testScene } from '../support/photos.js';
import { expose, hdrScene } from '../imaging/hdr-scenes.js';
import { startTestServer, testEngines } from '../support/server.js';
import { assertWellFormedXml } from '../support/xml.js';

const env = { CALLBACK_ALLOW_PRIVATE: 'true', CALLBACK_RETRY_BASE_SECONDS: '0.2' };

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/**
 * What the vendor's Node SDK parses a project item as (its ProjectListItemSchema):
 * getProject and listProjects throw on anything else.
 */
function assertSdkProjectItem(item: Record<string, unknown>): void {
  const nullOr = (value: unknown, type: string) => value === null || value === undefined || typeof value === type;
  assert.ok(nullOr(item.project_id, 'number') && typeof item.project_uuid === 'string' && nullOr(item.name, 'string'), JSON.stringify(item));
  assert.ok(typeof item.status === 'string' && typeof item.created_at === 'string' && Number.isInteger(item.number_of_images), JSON.stringify(item));
  assert.ok(nullOr(item.profile, 'string'), `profile is a string or null: ${JSON.stringify(item.profile)}`);
  assert.ok(item.ai_tools === null || (Array.isArray(item.ai_tools) && item.ai_tools.every((t) => typeof t === 'string')), JSON.stringify(item));
  assert.ok(Number.isInteger(item.customer_reference_id) && nullOr(item.thumbnail_src, 'string') && nullOr(item.export_status, 'string'), JSON.stringify(item));
}

for (const engine of await testEngines()) {
  describe(`profile-based flow (${engine.label})`, async () => {
    const t = await startTestServer(engine, env);
    const { api } = t;
    const profiles = (await api.get('/v1/profiles')).json.data.profiles as { profile_key: number; profile_name: string; image_type: string }[];
    const jpgProfile = profiles.find((p) => p.image_type === 'JPG' && p.profile_name === 'Natural')!.profile_key;
    const rawProfile = profiles.find((p) => p.image_type === 'RAW' && p.profile_name === 'Natural')!.profile_key;
    const photo1 = await jpegOf(testScene(480, 320, 11));
    const photo2 = await jpegOf(exposed(testScene(320, 480, 12), -1));

    test('profiles: built-in styles for RAW and JPG, with the reference fields; never a 422', async () => {
      assert.ok(profiles.length >= 10);
      for (const p of profiles) assert.deepEqual(Object.keys(p).sort(), ['image_type', 'profile_key', 'profile_name', 'profile_type']);
      assert.deepEqual(new Set(profiles.map((p) => p.image_type)), new Set(['RAW', 'JPG']));
      assert.equal((await api.get('/v1/profiles?size=oops&page=-4')).status, 200);
    });

    test('projects: create on both paths, look up the uuid by name both ways, list, detail', async () => {
      const uuid = (await api.post('/v1/projects/', { name: 'Smith wedding' })).json.data.project_uuid;
      assert.equal((await api.post('/v1/projects')).status, 200, 'no body');
      assert.deepEqual((await api.get('/v1/projects/Smith%20wedding/uuid')).json, { data: { project_uuid: uuid } });
      assert.deepEqual((await api.get('/v1/projects/uuid?project_name=Smith%20wedding')).json, { data: { project_uuid: uuid } });
      assert.equal((await api.get('/v1/projects/nobody/uuid')).status, 404);
      assert.equal((await api.get('/v1/projects/uuid')).status, 422);
      const item = (await api.get(`/v1/projects/${uuid}`)).json.data;
      assert.equal(item.profile, null);
      assert.equal(item.export_status, null);
      assert.equal(item.status, 'Pending');
      const list = await api.get('/v1/projects?size=1&page=0&client_type=API&is_archived=false&get_thumbnail=false');
      assert.equal(list.json.data.pagination.size, 1);
      assert.equal(list.json.data.projects.length, 1);
      for (const clientType of ['WEB', 'api', '']) {
        const other = await api.get(`/v1/projects?client_type=${clientType}`);
        assert.equal(other.status, 422, `client_type=${clientType}: an enum, as the reference types it`);
        assert.deepEqual(
          other.json.detail.map((d: any) => [d.type, d.loc, d.msg]),
          [['enum', ['query', 'client_type'], "Input should be 'API'"]],
        );
      }
      assert.equal((await api.get(`/v1/i2i/projects/${uuid}`)).status, 404, 'not a Smart Editing project');
    });

    test('sky templates: at least four, one default, previews that download', async () => {
      const { templates } = (await api.get('/v1/projects/sky_replacement/templates')).json.data;
      assert.ok(templates.length >= 4);
      assert.equal(templates.filter((s: { is_default: boolean }) => s.is_default).length, 1);
      for (const s of templates) assert.deepEqual(Object.keys(s).sort(), ['id', 'is_default', 'name', 'preview_link']);
      const preview = await request('GET', templates[0].preview_link);
      assert.equal((await sharp(preview.body).metadata()).format, 'jpeg');
    });

    test('JPEGs: edit → XMP sidecars and previews, export → JPEGs that match a render of their XMP', async () => {
      const uuid = await profileProjectWith(api, { 'IMG_1.jpg': photo1, 'IMG_2.jpg': photo2 });
      const res = await editProfileProject(api, uuid, { profile_key: jpgProfile, photography_type: 'REAL_ESTATE' });
      assert.equal(res.status, 200, res.text);
      assert.equal(typeof res.json.data.message, 'string');
      const status = await waitForStage(api, uuid, 'edit');
      assert.deepEqual(status, { status: 'Completed', progress: 100, details: null });
      const item = (await api.get(`/v1/projects/${uuid}`)).json.data;
      assertSdkProjectItem(item);
      assert.equal(item.status, 'Completed');
      assert.equal(item.profile, String(jpgProfile), 'the profile key as a decimal string');
      assert.equal(item.export_status, null);
      const listed = (await api.get('/v1/projects?size=100')).json.data.projects;
      for (const entry of listed) assertSdkProjectItem(entry);
      assert.equal(listed.find((p: { project_uuid: string }) => p.project_uuid === uuid).profile, String(jpgProfile));
      assert.match(new URL(item.thumbnail_src).pathname, /\/edit-thumbnails\/IMG_1\.jpg$/, 'the thumbnail is a JPEG by name');
      const thumbnail = await request('GET', item.thumbnail_src);
      assert.equal(thumbnail.headers['content-type'], 'image/jpeg', 'and by type');
      assert.equal((await sharp(thumbnail.body).metadata()).format, 'jpeg');

      const xmps = await downloadAll((await api.get(`/v1/projects/${uuid}/edit/get_temporary_download_links`)).json.data.files_list);
      assert.deepEqual(Object.keys(xmps), ['IMG_1.xmp', 'IMG_2.xmp']);
      const project = (await t.server.services.repos.projects.byUuid(uuid))!;
      for (const [name, bytes] of Object.entries(xmps)) {
        const xml = bytes.toString('utf8');
        assertWellFormedXml(xml);
        assert.match(xml, /crs:IncrementalTemperature/, 'JPEG sidecars use incremental white balance');
        const stored = JSON.parse((await t.server.services.repos.outputs.byName(project.id, 'edit', name))!.settings!);
        const back = fromXmp(xml);
        for (const key of ['exposure', 'contrast', 'highlights', 'shadows', 'whites', 'blacks', 'vibrance', 'saturation', 'clarity'] as const) {
          assert.ok(Math.abs(back[key] - stored[key]) <= 0.51, `${name} ${key}: ${back[key]} vs ${stored[key]}`);
        }
      }

      assert.equal((await api.get(`/v1/projects/${uuid}/export/get_upload_link?file_name=IMG_1.jpg`)).status, 400, 'nothing exported yet');
      const exported = await exportProject(api, uuid);
      assert.equal(exported.status, 200, exported.text);
      assert.ok(exported.json.data.message);
      assert.equal((await waitForStage(api, uuid, 'export')).status, 'Completed');
      assert.equal((await api.get(`/v1/projects/${uuid}`)).json.data.export_status, 'Completed');
      const jpegs = await downloadAll((await api.get(`/v1/projects/${uuid}/export/get_temporary_download_links`)).json.data.files_list);
      assert.deepEqual(Object.keys(jpegs), ['IMG_1.jpg', 'IMG_2.jpg']);

      const original = await decodeImage(photo1);
      const expected = await render(original.image, fromXmp(xmps['IMG_1.xmp']!.toString('utf8')));
      const got = await sharp(jpegs['IMG_1.jpg']!).raw().toBuffer();
      const want = Buffer.from(Array.from(expected.data, (v) => Math.round(v / 257)));
      assert.equal(got.length, want.length, 'full resolution');
      const diff = meanAbsDiff(got, want);
      assert.ok(diff < 2.5, `the export matches a render of its XMP (mean difference ${diff.toFixed(2)} levels)`);

      const one = await api.get(`/v1/projects/${uuid}/export/get_download_link?file_name=IMG_2.jpg`);
      assert.deepEqual(Object.keys(one.json.data), ['file_name', 'download_link']);
      const upload = await api.get(`/v1/projects/${uuid}/export/get_upload_link?file_name=IMG_2.jpg`);
      assert.equal(upload.status, 200);
      const replacement = await jpegOf(testScene(64, 64, 3));
      await request('PUT', upload.json.data.upload_link, { headers: { 'content-type': '' }, body: replacement });
      assert.ok((await request('GET', one.json.data.download_link)).body.equals(replacement), 'replaced');
    });

    test('post-editing: resize, format, watermark, metadata stripping, with its status and downloads', async () => {
      const uuid = await profileProjectWith(api, { 'P_1.jpg': photo1 });
      await editProfileProject(api, uuid, { profile_key: jpgProfile });
      await waitForStage(api, uuid, 'edit');
      const early = await api.post(`/v1/projects/${uuid}/post_editing`, {});
      assert.equal(early.status, 400, 'needs an export');
      await exportProject(api, uuid);
      await waitForStage(api, uuid, 'export');
      const announced = await api.get(`/v1/projects/${uuid}/export/get_upload_link?file_name=P_2.jpg`);
      assert.equal(announced.status, 200, 'a link to add an exported image, never used');
      const body = { resize_long_edge: 200, output_format: 'PNG', watermark: { text: '© Studio', position: 'bottom_left', opacity: 0.8 }, strip_metadata: true };
      assert.equal((await api.post(`/v1/projects/${uuid}/post_editing`, body)).status, 200);
      assert.deepEqual(await waitForStage(api, uuid, 'post_editing', 20_000), { status: 'Completed', progress: 100, details: null }, 'the image never uploaded is not waited for');
      const files = await downloadAll((await api.get(`/v1/projects/${uuid}/post_editing/get_temporary_download_links`)).json.data.files_list);
      assert.deepEqual(Object.keys(files), ['P_1.png']);
      const meta = await sharp(files['P_1.png']).metadata();
      assert.deepEqual([meta.format, Math.max(meta.width!, meta.height!), meta.exif], ['png', 200, undefined]);
      const bad = await api.post(`/v1/projects/${uuid}/post_editing`, { quality: 0 });
      assert.equal(bad.status, 422);
    });

    test('post-editing delivers every output format the route accepts, end to end', async () => {
      const uuid = await profileProjectWith(api, { 'F_1.jpg': photo1 });
      await editProfileProject(api, uuid, { profile_key: jpgProfile });
      await waitForStage(api, uuid, 'edit');
      await exportProject(api, uuid);
      await waitForStage(api, uuid, 'export');
      const doc = (await api.get('/openapi.json')).json;
      const formats: string[] = doc.paths['/v1/projects/{project_uuid}/post_editing'].post.requestBody.content['application/json'].schema.properties.output_format.enum;
      assert.deepEqual(formats, ['JPEG', 'PNG', 'TIFF', 'WEBP']);
      const expected: Record<string, [string, string, string]> = {
        JPEG: ['F_1.jpg', 'jpeg', 'image/jpeg'],
        PNG: ['F_1.png', 'png', 'image/png'],
        TIFF: ['F_1.tif', 'tiff', 'image/tiff'],
        WEBP: ['F_1.webp', 'webp', 'image/webp'],
      };
      for (const output_format of formats) {
        assert.equal((await api.post(`/v1/projects/${uuid}/post_editing`, { output_format, resize_long_edge: 300 })).status, 200);
        assert.deepEqual(await waitForStage(api, uuid, 'post_editing'), { status: 'Completed', progress: 100, details: null }, output_format);
        const [entry, ...more] = (await api.get(`/v1/projects/${uuid}/post_editing/get_temporary_download_links`)).json.data.files_list;
        const [name, format, type] = expected[output_format]!;
        assert.equal(more.length, 0);
        assert.equal(entry.file_name, name);
        const file = await request('GET', entry.download_link);
        assert.equal(file.headers['content-type'], type, `${output_format} served as ${type}`);
        const meta = await sharp(file.body).metadata();
        assert.deepEqual([meta.format, Math.max(meta.width!, meta.height!)], [format, 300], output_format);
      }
    });

    test('DNGs with a RAW profile; the RAW / JPEG profile mismatch errors', async () => {
      const dng = writeDng({ image: testScene(400, 300, 13), make: 'Seed', model: 'Test DNG' });
      const uuid = await profileProjectWith(api, { 'RAW_1.dng': dng });
      const wrong = await editProfileProject(api, uuid, { profile_key: jpgProfile });
      assert.equal(wrong.status, 400);
      assert.deepEqual(wrong.json, { error: { message: 'Unable to send raw images with JPEG profile' } });
      assert.equal((await editProfileProject(api, uuid, { profile_key: rawProfile })).status, 200);
      assert.equal((await waitForStage(api, uuid, 'edit')).status, 'Completed');
      const xmps = await downloadAll((await api.get(`/v1/projects/${uuid}/edit/get_temporary_download_links`)).json.data.files_list);
      assert.match(xmps['RAW_1.xmp']!.toString(), /crs:Temperature="\d+"/, 'RAW sidecars carry absolute white balance');
      await exportProject(api, uuid);
      assert.equal((await waitForStage(api, uuid, 'export')).status, 'Completed');

      const jpegProject = await profileProjectWith(api, { 'J.jpg': photo1 });
      const mismatch = await editProfileProject(api, jpegProject, { profile_key: rawProfile });
      assert.deepEqual(mismatch.json, { error: { message: 'Unable to send JPEGs images with raw profile' } });
    });

    test('edit refusals: unknown or foreign profile, option conflicts (422), no images, incomplete upload, trial cap', async () => {
      const uuid = await profileProjectWith(api, { 'a.jpg': photo1 });
      const unknown = await editProfileProject(api, uuid, { profile_key: 99999 });
      assert.deepEqual(unknown.json, { error: { message: 'Profile key 99999 not found.' } });
      await t.newAccount('profile-stranger');
      const foreign = await t.server.services.profiles.create('profile-stranger', { name: 'Mine', type: 'PERSONAL_AI', imageType: 'JPG', style: { name: 'Mine' } });
      assert.deepEqual((await editProfileProject(api, uuid, { profile_key: foreign.id })).json, { error: { message: `Profile key ${foreign.id} not found.` } });

      const crops = await editProfileProject(api, uuid, { profile_key: jpgProfile, crop: true, headshot_crop: 'yes' });
      assert.equal(crops.status, 422);
      assert.equal(crops.json.detail[0].type, 'value_error');
      assert.deepEqual(crops.json.detail[0].loc, ['body']);
      assert.deepEqual(crops.json.detail[0].input, { profile_key: jpgProfile, crop: true, headshot_crop: 'yes' }, 'the body as sent, without defaults');
      const both = await editProfileProject(api, uuid, { profile_key: jpgProfile, straighten: true, perspective_correction: true });
      assert.equal(both.status, 422);
      assert.equal((await editProfileProject(api, uuid, {})).json.detail[0].type, 'missing');
      assert.equal((await editProfileProject(api, uuid, { profile_key: jpgProfile, photography_type: 'CATS' })).json.detail[0].type, 'enum');

      const empty = (await api.post('/v1/projects', {})).json.data.project_uuid;
      assert.deepEqual((await editProfileProject(api, empty, { profile_key: jpgProfile })).json, { error: { message: 'No images were uploaded for this project.' } });
      await api.post(`/v1/projects/${empty}/get_temporary_upload_links`, { files_list: [{ file_name: 'x.jpg' }, { file_name: 'y.jpg' }] });
      const links = await api.post(`/v1/projects/${empty}/get_temporary_upload_links`, { files_list: [{ file_name: 'x.jpg' }] });
      await request('PUT', links.json.data.files_list[0].upload_link, { body: photo1 });
      assert.deepEqual((await editProfileProject(api, empty, { profile_key: jpgProfile })).json, { error: { message: 'Upload Incomplete: 1 out of 2 files are missing.' } });

      const trial = await t.newAccount(`profile-trial-${engine.name}`, 1);
      const capped = await profileProjectWith(trial, { 'a.jpg': photo1, 'b.jpg': photo2 });
      assert.deepEqual((await editProfileProject(trial, capped, { profile_key: jpgProfile })).json, { error: { message: 'This project exceeds the free edits in your trial.' } });
      assert.equal((await exportProject(api, empty)).status, 400, 'no export before the edit');
    });

    test('HDR brackets grouped from EXIF: one XMP per group with its merged image; callbacks for edit and export', async () => {
      const receiver = await callbackReceiver();
      const scene = testScene(360, 240, 14);
      const frame = (ev: number, second: number) => writeDng({ image: scene, exposure: ev, exposureBias: ev, exposureTime: 2 ** ev / 250, captureTime: `2026:11:22 10:00:0${second}`, make: 'Seed', model: 'Bracket' });
      const uuid = await profileProjectWith(api, { 'H_1.dng': frame(-2, 0), 'H_2.dng': frame(0, 1), 'H_3.dng': frame(2, 2), 'LATER.dng': frame(0, 9) });
      assert.equal((await editProfileProject(api, uuid, { profile_key: rawProfile, hdr_merge: true, callback_url: receiver.url })).status, 200);
      assert.equal((await waitForStage(api, uuid, 'edit')).status, 'Completed');
      const names = (await api.get(`/v1/projects/${uuid}/edit/get_temporary_download_links`)).json.data.files_list.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(names, ['H_2.xmp', 'H_2.jpg', 'LATER.xmp']);
      const editCallback = JSON.parse((await receiver.next()).body);
      assert.equal(editCallback.stage, 'edit');
      assert.equal(editCallback.status, 'Completed');
      await exportProject(api, uuid);
      const exportCallback = JSON.parse((await receiver.next()).body);
      assert.equal(exportCallback.stage, 'export');
      assert.deepEqual(
        exportCallback.files.map((f: { file_name: string }) => f.file_name),
        ['H_2.jpg', 'LATER.jpg'],
      );
    });

    test('HDR without EXIF or manifest, wider than the 1024 px preview, with window pull and perspective correction: grouped, merged, named after the middle exposure', async () => {
      // An export that stripped EXIF: three hand-held frames of one scene at -2/+2/0 EV, uploaded in that order, and a photo of another scene.
      const scene = hdrScene(1320, 908, 21);
      const frame = (ev: number, left: number, top: number) => jpegOf(expose(scene, 2 ** ev, left, top, 1280, 868));
      const uuid = await profileProjectWith(api, {
        'room_1.jpg': await frame(-2, 14, 25),
        'room_2.jpg': await frame(2, 31, 17),
        'room_3.jpg': await frame(0, 20, 20),
        'garden.jpg': await jpegOf(testScene(1100, 740, 22)),
      });
      const options = { profile_key: jpgProfile, hdr_merge: true, window_pull: true, perspective_correction: true };
      assert.equal((await editProfileProject(api, uuid, options)).status, 200);
      const status = await waitForStage(api, uuid, 'edit');
      assert.deepEqual([status.status, status.progress, status.details], ['Completed', 100, null], 'no output failed');
      const files = (await api.get(`/v1/projects/${uuid}/edit/get_temporary_download_links`)).json.data.files_list;
      assert.deepEqual(files.map((f: { file_name: string }) => f.file_name).sort(), ['garden.xmp', 'room_3.jpg', 'room_3.xmp']);
      const merged = await downloadAll(files.filter((f: { file_name: string }) => f.file_name === 'room_3.jpg'));
      assert.deepEqual(
        await sharp(merged['room_3.jpg']!)
          .metadata()
          .then((m) => [m.width, m.height]),
        [1280, 868],
        'merged at full size',
      );
      await exportProject(api, uuid);
      const exported = await waitForStage(api, uuid, 'export');
      assert.deepEqual([exported.status, exported.details], ['Completed', null]);
      const names = (await api.get(`/v1/projects/${uuid}/export/get_temporary_download_links`)).json.data.files_list.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(names.sort(), ['garden.jpg', 'room_3.jpg']);
    });
  });
}
