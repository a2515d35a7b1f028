import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { signCallback } from '../../src/domain/callbacks.js';
import { decodeImage } from '../../src/imaging/decode.js';
import { verticalTilt } from '../../src/imaging/geometry/tilt.js';
import { renderSkyTemplate } from '../../src/imaging/sky/templates.js';
import type { Image16 } from '../../src/imaging/types.js';
import { callbackReceiver } from '../support/callback-receiver.js';
import { writeDng } from '../support/dng.js';
import { downloadAll, i2iProjectWith, uploadTo, waitForEnd } from '../support/flow.js';
import { request } from '../support/http.js';
import { exposed, jpegOf, testScene } from '../support/photos.js';
import { meanLinear, type Rgb } from '../support/scenes.js';
import { startTestServer, testEngines } from '../support/server.js';
import { keystonedStreet } from '../support/street.js';

const env = { CALLBACK_ALLOW_PRIVATE: 'true', CALLBACK_RETRY_BASE_SECONDS: '0.2', IMAGING_THREADS: '2' };

/** Mean linear RGB of the top 15 % of an image: sky, in the street scene. */
const topBand = (image: Image16): Rgb => meanLinear(image, { x0: 0, y0: 0, x1: image.width, y1: Math.round(image.height * 0.15) });

/** How far `to` moved from `from` towards `target`: 0 not at all, 1 all the way (the projection on the line between them). */
function movedTowards(from: Rgb, to: Rgb, target: Rgb): number {
  const dir = target.map((v, c) => v - from[c]!);
  return dir.reduce((sum, d, c) => sum + d * (to[c]! - from[c]!), 0) / dir.reduce((sum, d) => sum + d * d, 0);
}

for (const engine of await testEngines()) {
  describe(`Smart Editing edits (${engine.label})`, async () => {
    const t = await startTestServer(engine, env);
    const { api } = t;
    const jpeg = await jpegOf(testScene(480, 320, 1));
    const jpeg2 = await jpegOf(testScene(320, 480, 2));
    const detail = (uuid: string) => `/v1/i2i/projects/${uuid}`;

    test('create → upload → edit → poll → download, on JPEGs', async () => {
      const uuid = await i2iProjectWith(api, { 'IMG_1.jpg': jpeg, 'IMG_2.JPEG': jpeg2 });
      const edit = await api.post(`${detail(uuid)}/edit`, undefined, { 'content-type': '' });
      assert.equal(edit.status, 200, edit.text);
      assert.equal(typeof edit.json.data.message, 'string');
      const item = await waitForEnd(api, detail(uuid));
      assert.equal(item.status, 'Completed');
      assert.equal(item.number_of_images, 2);
      assert.deepEqual(item.ai_tools, []);
      assert.match(item.thumbnail_src, /^http/);

      const links = await api.get(`${detail(uuid)}/get_temporary_download_links`);
      assert.deepEqual(
        links.json.data.files_list.map((f: { file_name: string }) => f.file_name),
        ['IMG_1.jpg', 'IMG_2.jpg'],
      );
      const files = await downloadAll(links.json.data.files_list);
      const meta = await sharp(files['IMG_2.jpg']).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 320, 480]);
      for (const entry of links.json.data.files_list) assert.ok(new URL(entry.download_link).pathname.endsWith(`/${entry.file_name}`));

      const thumbs = await api.get(`${detail(uuid)}/get_temporary_thumbnail_links`);
      assert.deepEqual(
        thumbs.json.data.files_list.map((f: { file_name: string; is_thumbnail: boolean }) => [f.file_name, f.is_thumbnail]),
        [
          ['IMG_1.jpg', true],
          ['IMG_2.jpg', true],
        ],
      );
      const thumb = await request('GET', thumbs.json.data.files_list[0].thumbnail_link);
      assert.ok(Math.max((await sharp(thumb.body).metadata()).width!, 1) <= 512);

      const one = await api.get(`${detail(uuid)}/get_download_link?file_name=IMG_1.jpg`);
      assert.deepEqual(Object.keys(one.json.data), ['file_name', 'download_link']);
      assert.equal((await api.get(`${detail(uuid)}/get_download_link?file_name=nope.jpg`)).status, 404);
      assert.equal((await api.get(`${detail(uuid)}/get_download_link?file_name=`)).status, 422);
      const completed = await api.get('/v1/i2i/projects?status=completed');
      assert.ok(completed.json.data.projects.some((p: { project_uuid: string }) => p.project_uuid === uuid));
    });

    test('on DNGs the test writes itself, with perspective correction and sky replacement: the verticals straightened, the sky the template’s', async () => {
      const street = keystonedStreet(480, 360);
      const dng = writeDng({ image: street, bits: 14, make: 'Seed', model: 'Test DNG' });
      const uuid = await i2iProjectWith(api, { 'IMG_7.dng': dng });
      const edit = await api.post(`${detail(uuid)}/edit`, { perspective_correction: true, sky_replacement: true, sky_replacement_template_id: 2 });
      assert.equal(edit.status, 200, edit.text);
      const item = await waitForEnd(api, detail(uuid));
      assert.equal(item.status, 'Completed');
      assert.deepEqual(item.ai_tools, ['perspective_correction', 'sky_replacement']);
      const files = await downloadAll((await api.get(`${detail(uuid)}/get_temporary_download_links`)).json.data.files_list);
      assert.deepEqual(Object.keys(files), ['IMG_7.jpg']);
      assert.equal((await sharp(files['IMG_7.jpg']).metadata()).format, 'jpeg');
      const output = (await decodeImage(files['IMG_7.jpg']!)).image;
      const [before, after] = [verticalTilt(street), verticalTilt(output)];
      assert.ok(before > 1 && after < before / 4, `verticals lean ${after}° after, ${before}° before`);
      // The overcast sky went well on the way to template 2’s blue (0.64 measured); left alone it moves 0.07, by the tone edit.
      const sky = topBand(await renderSkyTemplate(2, output.width, output.height));
      const moved = movedTowards(topBand(street), topBand(output), sky);
      assert.ok(moved > 0.4, `the sky moved ${moved} of the way to the template's (${topBand(output)} from ${topBand(street)}, template ${sky})`);
    });

    test("sky replacement with an operator's template", async () => {
      const sky = await jpegOf(testScene(480, 200, 21));
      const template = await t.server.services.skyTemplates.add('Operator sky', sky, false);
      const uuid = await i2iProjectWith(api, { 'sky.jpg': jpeg });
      assert.equal((await api.post(`${detail(uuid)}/edit`, { sky_replacement: true, sky_replacement_template_id: template.id })).status, 200);
      assert.equal((await waitForEnd(api, detail(uuid))).status, 'Completed');
      const project = (await t.server.services.repos.projects.byUuid(uuid))!;
      const settings = JSON.parse((await t.server.services.repos.outputs.byName(project.id, 'i2i', 'sky.jpg'))!.settings!);
      assert.equal(settings.sky.templateId, template.id);
    });

    test('hdr_merge: a groups manifest makes one output per group, named after the middle frame', async () => {
      const scene = testScene(360, 240, 4);
      const frames = {
        'B_1.jpg': await jpegOf(exposed(scene, -2)),
        'B_2.jpg': await jpegOf(scene),
        'B_3.jpg': await jpegOf(exposed(scene, 2)),
        'single.jpg': jpeg,
      };
      const uuid = await i2iProjectWith(api, frames);
      const manifest = await api.post(`${detail(uuid)}/get_hdr_groups_upload_link`);
      await request('PUT', manifest.json.data.upload_link, { body: JSON.stringify([['B_1.jpg', 'B_2.jpg', 'B_3.jpg']]) });
      assert.equal((await api.post(`${detail(uuid)}/edit`, { hdr_merge: true })).status, 200);
      const item = await waitForEnd(api, detail(uuid));
      assert.equal(item.status, 'Completed');
      assert.equal(item.number_of_images, 2);
      assert.deepEqual(item.ai_tools, ['hdr_merge']);
      const names = (await api.get(`${detail(uuid)}/get_temporary_download_links`)).json.data.files_list.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(names, ['B_2.jpg', 'single.jpg']);
    });

    test('the orientations file rotates photos before editing', async () => {
      const uuid = await i2iProjectWith(api, { 'turn.jpg': jpeg });
      const link = await api.post(`${detail(uuid)}/get_orientations_upload_link`);
      await request('PUT', link.json.data.upload_link, { body: JSON.stringify({ 'turn.jpg': 90 }) });
      await api.post(`${detail(uuid)}/edit`, {});
      await waitForEnd(api, detail(uuid));
      const files = await downloadAll((await api.get(`${detail(uuid)}/get_temporary_download_links`)).json.data.files_list);
      const meta = await sharp(files['turn.jpg']).metadata();
      assert.deepEqual([meta.width, meta.height], [320, 480]);
    });

    test('bad manifests are refused at edit time with a 400 that says why', async () => {
      const uuid = await i2iProjectWith(api, { 'a.jpg': jpeg });
      const groups = await api.post(`${detail(uuid)}/get_hdr_groups_upload_link`);
      await request('PUT', groups.json.data.upload_link, { body: JSON.stringify([['a.jpg', 'ghost.jpg', 'other.jpg']]) });
      const res = await api.post(`${detail(uuid)}/edit`, { hdr_merge: true });
      assert.equal(res.status, 400);
      assert.match(res.json.error.message, /ghost\.jpg/);
      await request('PUT', groups.json.data.upload_link, { body: JSON.stringify([['a.jpg']]) });
      await uploadTo(api, uuid, { 'b.jpg': jpeg });
      await request('PUT', groups.json.data.upload_link, { body: JSON.stringify([['a.jpg', 'b.jpg']]) });
      const pair = await api.post(`${detail(uuid)}/edit`, { hdr_merge: true });
      assert.equal(pair.status, 400);
      assert.match(pair.json.error.message, /3 to 9/);
      const turns = await api.post(`${detail(uuid)}/get_orientations_upload_link`);
      await request('PUT', groups.json.data.upload_link, { body: '[]' });
      await request('PUT', turns.json.data.upload_link, { body: JSON.stringify({ 'a.jpg': 45 }) });
      const rotation = await api.post(`${detail(uuid)}/edit`, {});
      assert.equal(rotation.status, 400);
      assert.match(rotation.json.error.message, /0, 90, 180 or 270/);
    });

    test('a second edit, also racing, answers the same message and starts nothing', async () => {
      const uuid = await i2iProjectWith(api, { 'r1.jpg': jpeg, 'r2.jpg': jpeg2 });
      const answers = await Promise.all(Array.from({ length: 6 }, () => api.post(`${detail(uuid)}/edit`, {})));
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));
      assert.equal(new Set(answers.map((a) => a.json.data.message)).size, 1);
      await waitForEnd(api, detail(uuid));
      const again = await api.post(`${detail(uuid)}/edit`, { sky_replacement: true });
      assert.equal(again.json.data.message, answers[0]!.json.data.message);
      const project = (await t.server.services.repos.projects.byUuid(uuid))!;
      const jobs = await t.server.services.db.kysely.selectFrom('jobs').select(['kind']).where('payload', 'like', `%"projectId":${project.id}}`).execute();
      assert.deepEqual(
        jobs.map((j) => j.kind),
        ['i2i.plan'],
        'one plan',
      );
      assert.equal((await t.server.services.repos.outputs.list(project.id, 'i2i')).length, 2, 'one output per photo');
      assert.deepEqual((await api.get(detail(uuid))).json.data.ai_tools, [], 'the first request decided');
    });

    test('refusals before queuing: no images, upload incomplete, trial cap', async () => {
      const empty = (await api.post('/v1/i2i/projects', {})).json.data.project_uuid;
      const none = await api.post(`${detail(empty)}/edit`, {});
      assert.equal(none.status, 400);
      assert.deepEqual(none.json, { error: { message: 'No images were uploaded for this project.' } });

      const announced = (await api.post('/v1/i2i/projects', {})).json.data.project_uuid;
      await api.post(`${detail(announced)}/get_temporary_upload_links`, { files_list: [{ file_name: 'x.jpg' }, { file_name: 'y.jpg' }, { file_name: 'z.jpg' }] });
      assert.deepEqual((await api.post(`${detail(announced)}/edit`, {})).json.error.message, 'No images were uploaded for this project.');
      await uploadTo(api, announced, { 'x.jpg': jpeg });
      const partial = await api.post(`${detail(announced)}/edit`, {});
      assert.equal(partial.status, 400);
      assert.deepEqual(partial.json, { error: { message: 'Upload Incomplete: 2 out of 3 files are missing.' } });
      assert.equal((await api.get(detail(announced))).json.data.status, 'Pending', 'nothing queued');

      const trial = await t.newAccount(`trial-${engine.name}`, 3);
      const first = await i2iProjectWith(trial, { 'a.jpg': jpeg, 'b.jpg': jpeg });
      assert.equal((await trial.post(`${detail(first)}/edit`, {})).status, 200);
      await waitForEnd(trial, detail(first));
      const second = await i2iProjectWith(trial, { 'c.jpg': jpeg, 'd.jpg': jpeg });
      const capped = await trial.post(`${detail(second)}/edit`, {});
      assert.equal(capped.status, 400);
      assert.deepEqual(capped.json, { error: { message: 'This project exceeds the free edits in your trial.' } });
    });

    test('unknown sky template and callback URLs of the wrong scheme are refused', async () => {
      const uuid = await i2iProjectWith(api, { 'a.jpg': jpeg });
      const sky = await api.post(`${detail(uuid)}/edit`, { sky_replacement: true, sky_replacement_template_id: 999 });
      assert.equal(sky.status, 400);
      assert.match(sky.json.error.message, /999/);
      const ftp = await api.post(`${detail(uuid)}/edit`, { callback_url: 'ftp://example.com/x' });
      assert.equal(ftp.status, 400);
      const types = await api.post(`${detail(uuid)}/edit`, { hdr_merge: 'yes please' });
      assert.equal(types.status, 422);
      assert.deepEqual(types.json.detail[0].loc, ['body', 'hdr_merge']);
    });

    test('one bad photo does not lose the others: Completed with the good ones; all bad → Failed', async () => {
      const receiver = await callbackReceiver();
      const uuid = await i2iProjectWith(api, { 'good.jpg': jpeg, 'bad.jpg': crypto.randomBytes(5000) });
      await api.post(`${detail(uuid)}/edit`, { callback_url: receiver.url });
      const item = await waitForEnd(api, detail(uuid));
      assert.equal(item.status, 'Completed');
      assert.equal(item.number_of_images, 1);
      const names = (await api.get(`${detail(uuid)}/get_temporary_download_links`)).json.data.files_list.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(names, ['good.jpg']);
      const callback = JSON.parse((await receiver.next()).body);
      assert.equal(callback.status, 'Completed');
      assert.deepEqual(
        callback.failed_files.map((f: { file_name: string }) => f.file_name),
        ['bad.jpg'],
      );
      assert.ok(callback.failed_files[0].error);

      const hopeless = await i2iProjectWith(api, { 'bad1.jpg': crypto.randomBytes(100), 'bad2.jpg': Buffer.from('not a photo') });
      await api.post(`${detail(hopeless)}/edit`, {});
      assert.equal((await waitForEnd(api, detail(hopeless))).status, 'Failed');
      assert.equal((await api.get('/v1/i2i/projects?status=failed')).json.data.projects[0].project_uuid, hopeless);
    });

    test('storage and database trouble while developing is retried: the photos are delivered, none is failed', async () => {
      const uuid = await i2iProjectWith(api, { 'T_1.jpg': jpeg, 'T_2.jpg': jpeg2 });
      const { blobs, repos, db } = t.server.services;
      const { read } = blobs;
      const { update } = repos.outputs;
      const pending = new Set(['storage', 'database']);
      blobs.read = async (key) => {
        if (key.endsWith(`${uuid}/originals/T_1.jpg`) && pending.delete('storage')) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
        return read.call(blobs, key);
      };
      const project = (await repos.projects.byUuid(uuid))!;
      // Only this project's outputs: an earlier test's photos may still be developing.
      repos.outputs.update = async (id, changes) => {
        if (changes.state === 'done' && (await repos.outputs.byId(id))?.project_id === project.id && pending.delete('database')) throw new Error('Connection terminated unexpectedly');
        return update.call(repos.outputs, id, changes);
      };
      try {
        await api.post(`${detail(uuid)}/edit`, {});
        const item = await waitForEnd(api, detail(uuid));
        assert.deepEqual([item.status, item.number_of_images], ['Completed', 2]);
        assert.equal(pending.size, 0, 'both faults happened');
      } finally {
        blobs.read = read;
        repos.outputs.update = update;
      }
      const names = (await api.get(`${detail(uuid)}/get_temporary_download_links`)).json.data.files_list.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(names, ['T_1.jpg', 'T_2.jpg']);
      const keys = (await repos.outputs.list(project.id, 'i2i')).map((o) => `i2i.render:${o.id}`);
      const jobs = await db.kysely.selectFrom('jobs').select(['state', 'attempts']).where('key', 'in', keys).execute();
      assert.deepEqual(
        jobs.map((j) => j.state),
        ['done', 'done'],
      );
      assert.equal(
        jobs.reduce((n, j) => n + j.attempts, 0),
        2,
        'each fault cost one retry',
      );
    });

    test('the callback: payload, HMAC-SHA256 signature, and a retry after a failed delivery', async () => {
      const receiver = await callbackReceiver([500, 200]);
      const uuid = await i2iProjectWith(api, { 'cb.jpg': jpeg });
      await api.post(`${detail(uuid)}/edit`, { callback_url: receiver.url });
      const first = await receiver.next();
      const second = await receiver.next();
      assert.ok(second.at - first.at >= 150, 'retried after a delay');
      assert.equal(second.headers['x-retouch-delivery'], first.headers['x-retouch-delivery'], 'one delivery, tried twice');
      const payload = JSON.parse(second.body);
      assert.equal(JSON.parse(first.body).finished_at, payload.finished_at);
      assert.deepEqual(Object.keys(payload).sort(), ['failed_files', 'files', 'finished_at', 'number_of_images', 'project_uuid', 'status']);
      assert.equal(payload.project_uuid, uuid);
      assert.equal(payload.status, 'Completed');
      assert.equal(payload.number_of_images, 1);
      assert.deepEqual(
        payload.files.map((f: { file_name: string }) => f.file_name),
        ['cb.jpg'],
      );
      assert.equal((await request('GET', payload.files[0].download_link)).status, 200);

      const header = String(second.headers['x-retouch-signature']);
      const timestamp = Number(/t=(\d+)/.exec(header)![1]);
      const account = (await t.server.services.repos.projects.byUuid(uuid))!.account_id;
      const secret = await t.server.services.accounts.webhookSecret(account);
      assert.equal(header, signCallback(secret, second.body, timestamp), 'verifiable with the account secret');
      assert.notEqual(header, signCallback('another secret', second.body, timestamp));
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(receiver.received.length, 2, 'no more deliveries after a 2xx');
    });

    test('get_upload_link: 400 until Completed, then a PUT replaces the output and its thumbnail', async () => {
      const uuid = await i2iProjectWith(api, { 'swap.jpg': jpeg });
      const early = await api.get(`${detail(uuid)}/get_upload_link?file_name=swap.jpg`);
      assert.equal(early.status, 400);
      await api.post(`${detail(uuid)}/edit`, {});
      await waitForEnd(api, detail(uuid));
      const link = await api.get(`${detail(uuid)}/get_upload_link?file_name=swap.jpg`);
      assert.equal(link.status, 200, link.text);
      assert.deepEqual(Object.keys(link.json.data), ['file_name', 'upload_link']);
      const replacement = await jpegOf(testScene(200, 100, 9));
      assert.equal((await request('PUT', link.json.data.upload_link, { headers: { 'content-type': '' }, body: replacement })).status, 200);
      const files = await downloadAll((await api.get(`${detail(uuid)}/get_temporary_download_links`)).json.data.files_list);
      assert.ok(files['swap.jpg']!.equals(replacement));
      const stale = (await api.get(`${detail(uuid)}/get_temporary_thumbnail_links`)).json.data.files_list[0];
      assert.equal(stale.is_thumbnail, false, 'the full image stands in while the thumbnail is remade');
      let fresh = stale;
      for (let i = 0; i < 100 && !fresh.is_thumbnail; i++) {
        await new Promise((r) => setTimeout(r, 100));
        fresh = (await api.get(`${detail(uuid)}/get_temporary_thumbnail_links`)).json.data.files_list[0];
      }
      assert.equal(fresh.is_thumbnail, true);
      const thumb = await sharp((await request('GET', fresh.thumbnail_link)).body).metadata();
      assert.equal(thumb.width! / thumb.height!, 2, 'made from the replacement');
    });
  });
}

describe('callback URLs without the operator allowing private addresses', async () => {
  const [engine] = await testEngines();
  const t = await startTestServer(engine!);
  const jpeg = await jpegOf(testScene(64, 48, 5));
  test('http, loopback, private and link-local targets are refused with a 400', async () => {
    const uuid = await i2iProjectWith(t.api, { 'a.jpg': jpeg });
    for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'https://localhost/hook', 'https://10.1.2.3/x', 'https://[::1]/x', 'https://169.254.169.254/latest']) {
      const res = await t.api.post(`/v1/i2i/projects/${uuid}/edit`, { callback_url: url });
      assert.equal(res.status, 400, url);
      assert.match(res.json.error.message, /callback_url/);
    }
    assert.equal((await t.api.get(`/v1/i2i/projects/${uuid}`)).json.data.status, 'Pending');
  });
});
