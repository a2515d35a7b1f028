import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { downloadAll, editProfileProject, exportProject, i2iProjectWith, profileProjectWith, waitForEnd, waitForStage } from '../support/flow.js';
import { request } from '../support/http.js';
import { jpegOf, testScene } from '../support/photos.js';
import { startTestServer, testEngines } from '../support/server.js';

/** Mean of R − B over an encoded image: rises as it gets warmer. */
async function warmth(jpeg: Buffer): Promise<number> {
  const { channels } = await sharp(jpeg).stats();
  return channels[0]!.mean - channels[2]!.mean;
}

async function brightness(jpeg: Buffer): Promise<number> {
  const { channels } = await sharp(jpeg).stats();
  return (channels[0]!.mean + channels[1]!.mean + channels[2]!.mean) / 3;
}

for (const engine of await testEngines()) {
  describe(`AI tools and Copilot (${engine.label})`, async () => {
    const t = await startTestServer(engine);
    const { api } = t;
    const jpgProfile = (await api.get('/v1/profiles')).json.data.profiles.find((p: { image_type: string }) => p.image_type === 'JPG').profile_key;

    /** A profile-based project edited (and optionally exported) with two photos. */
    async function editedProject(exported: boolean): Promise<string> {
      const uuid = await profileProjectWith(api, { 'IMG_1.jpg': await jpegOf(testScene(480, 320, 31)), 'IMG_2.jpg': await jpegOf(testScene(480, 320, 32)) });
      await editProfileProject(api, uuid, { profile_key: jpgProfile });
      assert.equal((await waitForStage(api, uuid, 'edit')).status, 'Completed');
      if (exported) {
        await exportProject(api, uuid);
        assert.equal((await waitForStage(api, uuid, 'export')).status, 'Completed');
      }
      return uuid;
    }

    const base = (uuid: string) => `/v1/projects/${uuid}`;
    const copilot = (uuid: string, file: string, body: Record<string, unknown>) => api.post(`${base(uuid)}/images/${file}/copilot`, body);

    test('every Copilot call, the tool list included, needs a Completed and exported project', async () => {
      const uuid = await editedProject(false);
      const calls = [
        api.get(`${base(uuid)}/ai-tools`),
        api.post(`${base(uuid)}/images/IMG_1.jpg/enhance`, { tool_id: 'BRIGHTEN' }),
        copilot(uuid, 'IMG_1.jpg', { instruction: 'brighter' }),
        api.delete(`${base(uuid)}/images/IMG_1.jpg/copilot`),
        api.post(`${base(uuid)}/finalize`),
      ];
      for (const res of await Promise.all(calls)) {
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.json, { error: { message: 'Project has not been exported yet.' } });
      }
    });

    test('tools, versions in a chain, branch and discard, reset, finalize and the downloads after it', async () => {
      const uuid = await editedProject(true);
      const tools = await api.get(`${base(uuid)}/ai-tools?project_source=REGULAR`);
      assert.equal(tools.status, 200);
      assert.ok(tools.json.data.prompts.length >= 12);
      for (const p of tools.json.data.prompts) assert.deepEqual(Object.keys(p).sort(), ['enabled_for_batch', 'enhancement_type', 'label']);
      assert.equal((await api.get(`${base(uuid)}/ai-tools?project_source=I2I`)).status, 404, 'a profile-based uuid is not a Smart Editing project');

      const unknownTool = await api.post(`${base(uuid)}/images/IMG_1.jpg/enhance`, { tool_id: 'TELEPORT' });
      assert.equal(unknownTool.status, 400);
      assert.match(unknownTool.json.error.message, /TELEPORT.*BRIGHTEN/);
      const tool = await api.post(`${base(uuid)}/images/IMG_1.jpg/enhance`, { tool_id: 'BRIGHTEN', project_source: 'REGULAR' });
      assert.equal(tool.status, 200, tool.text);
      assert.deepEqual(Object.keys(tool.json.data).sort(), ['changes', 'enhanced_image_url', 'status', 'version_id']);
      assert.equal(tool.json.data.status, 'SUCCESS');
      assert.match(tool.json.data.changes, /^exposure \+\d/, 'what the tool changed');

      const exportedBefore = await downloadAll((await api.get(`${base(uuid)}/export/get_temporary_download_links`)).json.data.files_list);
      // A first version: parent_version_id omitted, as the official clients do.
      const v1 = await copilot(uuid, 'IMG_1.jpg', { instruction: 'make it a bit warmer' });
      assert.equal(v1.status, 200, v1.text);
      assert.deepEqual(Object.keys(v1.json).sort(), ['changes', 'enhanced_image_url', 'status', 'version_id'], 'top level, not in data');
      assert.match(v1.json.changes, /^temperature \+\d+ K/, 'what the instruction changed');
      const preview1 = (await request('GET', v1.json.enhanced_image_url)).body;
      assert.ok((await warmth(preview1)) > (await warmth(exportedBefore['IMG_1.jpg']!)), 'warmer than the export');

      const v2 = await copilot(uuid, 'IMG_1.jpg', { instruction: 'lift the shadows', parent_version_id: v1.json.version_id, project_source: 'REGULAR' });
      const v3 = await copilot(uuid, 'IMG_1.jpg', { instruction: 'more contrast', parent_version_id: v2.json.version_id });
      assert.ok(v2.json.version_id > v1.json.version_id && v3.json.version_id > v2.json.version_id);
      const branch = await copilot(uuid, 'IMG_1.jpg', { instruction: 'much brighter', parent_version_id: v1.json.version_id });
      assert.equal(branch.status, 200);
      const discarded = await copilot(uuid, 'IMG_1.jpg', { instruction: 'cooler', parent_version_id: v2.json.version_id });
      assert.equal(discarded.status, 404, 'the branch not kept is gone');
      const fresh = await copilot(uuid, 'IMG_1.jpg', { instruction: 'cooler', parent_version_id: null });
      assert.equal(fresh.status, 200, 'null: a new first version, from the post-edit state');
      assert.equal((await copilot(uuid, 'IMG_1.jpg', { instruction: 'cooler', parent_version_id: branch.json.version_id })).status, 404, 'which replaces the old chain');

      const reset = await api.delete(`${base(uuid)}/images/IMG_1.jpg/copilot`, { project_source: 'REGULAR' });
      assert.equal(reset.status, 200);
      assert.equal(reset.json.data.file_name, 'IMG_1.jpg');
      assert.equal(reset.json.data.discarded_versions, 1);
      assert.equal((await copilot(uuid, 'IMG_1.jpg', { instruction: 'brighter', parent_version_id: fresh.json.version_id })).status, 404, 'reset discards every version');
      assert.equal((await api.delete(`${base(uuid)}/images/IMG_1.jpg/copilot`)).status, 200, 'no body is fine too');

      for (const instruction of ['straighten', 'fix the verticals', 'crop to 4:5']) {
        const res = await copilot(uuid, 'IMG_2.jpg', { instruction });
        assert.equal(res.status, 200, `${instruction}: ${res.text}`);
      }
      await api.delete(`${base(uuid)}/images/IMG_2.jpg/copilot`);
      const bright = await copilot(uuid, 'IMG_1.jpg', { instruction: 'much brighter' });
      await copilot(uuid, 'IMG_1.jpg', { instruction: 'rotate 90 degrees clockwise', parent_version_id: bright.json.version_id });
      const finalized = await api.post(`${base(uuid)}/finalize`, { project_source: 'REGULAR' });
      assert.equal(finalized.status, 200, finalized.text);
      const names = (res: { json: any }) => res.json.data.files_list.map((f: { file_name: string }) => f.file_name);
      assert.deepEqual(names(finalized), ['IMG_1.jpg', 'IMG_2.jpg'], 'every delivered image, finalized or not');
      const after = await downloadAll(finalized.json.data.files_list);
      assert.ok((await brightness(after['IMG_1.jpg']!)) > (await brightness(exportedBefore['IMG_1.jpg']!)) + 3, 'the export now serves the finalized, brighter image');
      const meta = await sharp(after['IMG_1.jpg']).metadata();
      assert.deepEqual([meta.width, meta.height], [320, 480], 'full resolution, turned');
      assert.ok(after['IMG_2.jpg']!.equals(exportedBefore['IMG_2.jpg']!), 'images without versions (IMG_2 was reset) stay');
      const again = await api.post(`${base(uuid)}/finalize`);
      assert.deepEqual(names(again), ['IMG_1.jpg', 'IMG_2.jpg'], 'a repeated finalize answers the same list');
      const exported = await downloadAll((await api.get(`${base(uuid)}/export/get_temporary_download_links`)).json.data.files_list);
      for (const [name, bytes] of Object.entries(await downloadAll(again.json.data.files_list))) assert.ok(bytes.equals(exported[name]!), `${name}: what the flow's download serves`);
    });

    test('refusals: unrealistic and not understood instructions, bounds, unknown images', async () => {
      const uuid = await editedProject(true);
      const fantasy = await copilot(uuid, 'IMG_1.jpg', { instruction: 'add a dog on the sofa' });
      assert.equal(fantasy.status, 400);
      assert.deepEqual(fantasy.json, { error: { message: 'Only realistic editing requests are supported.' } });
      const gibberish = await copilot(uuid, 'IMG_1.jpg', { instruction: 'flibbertigibbet wobble' });
      assert.equal(gibberish.status, 400);
      assert.match(gibberish.json.error.message, /understands.*exposure/i);
      assert.equal((await copilot(uuid, 'IMG_1.jpg', { instruction: '' })).json.detail[0].type, 'string_too_short');
      assert.equal((await copilot(uuid, 'IMG_1.jpg', { instruction: 'x'.repeat(256) })).json.detail[0].type, 'string_too_long');
      assert.equal((await copilot(uuid, 'nope.jpg', { instruction: 'brighter' })).status, 404);
      assert.equal((await copilot(uuid, 'IMG_1.jpg', { instruction: 'brighter', parent_version_id: 999999 })).status, 404);
      assert.equal((await copilot(uuid, 'IMG_1.jpg', { instruction: 'brighter', project_source: 'OTHER' })).status, 422);
    });

    test('Smart Editing projects: export marks them exported, then Copilot works with project_source I2I', async () => {
      const uuid = await i2iProjectWith(api, { 'S_1.jpg': await jpegOf(testScene(400, 300, 33)), 'S_2.jpg': await jpegOf(testScene(400, 300, 34)) });
      await api.post(`/v1/i2i/projects/${uuid}/edit`, {});
      await waitForEnd(api, `/v1/i2i/projects/${uuid}`);
      assert.equal((await api.get(`${base(uuid)}/ai-tools?project_source=I2I`)).status, 400, 'not exported yet');
      const exported = await exportProject(api, uuid);
      assert.equal(exported.status, 200, exported.text);
      assert.deepEqual(await waitForStage(api, uuid, 'export'), { status: 'Completed', progress: 100, details: null }, 'its export status answers, as a client polls it after exporting');
      assert.equal((await api.get(`${base(uuid)}/ai-tools?project_source=I2I`)).status, 200);
      assert.equal((await api.get(`${base(uuid)}/ai-tools`)).status, 404, 'REGULAR by default: not this project');
      const v = await copilot(uuid, 'S_1.jpg', { instruction: 'slightly darker', project_source: 'I2I' });
      assert.equal(v.status, 200, v.text);
      const before = await downloadAll((await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list);
      const done = await api.post(`${base(uuid)}/finalize`, { project_source: 'I2I' });
      assert.deepEqual(
        done.json.data.files_list.map((f: { file_name: string }) => f.file_name),
        ['S_1.jpg', 'S_2.jpg'],
      );
      const after = await downloadAll((await api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list);
      assert.ok((await brightness(after['S_1.jpg']!)) < (await brightness(before['S_1.jpg']!)), 'the I2I download serves the finalized, darker image');
    });
  });
}
