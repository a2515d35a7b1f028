import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { editProfileProject, profileProjectWith, waitForStage } from '../support/flow.js';
import { jpegOf, testScene } from '../support/photos.js';
import { startTestServer, testEngines } from '../support/server.js';

for (const engine of await testEngines()) {
  describe(`stored records that cannot be read (${engine.label})`, async () => {
    const t = await startTestServer(engine);
    const { api } = t;
    const { repos, db, queue, workSignal } = t.server.services;

    test('a profile whose stored style is corrupt fails the edit at once, the status saying which record and why', async () => {
      const account = (await repos.accounts.list()).at(-1)!;
      const broken = await repos.profiles.insert({
        account_id: account.id,
        builtin_key: null,
        name: 'Broken',
        profile_type: 'PERSONAL_AI',
        image_type: 'JPG',
        style: '{"name":"Broken","exposure":"lots"}',
        created_at: new Date().toISOString(),
      });
      const uuid = await profileProjectWith(api, { 'a.jpg': await jpegOf(testScene(96, 64, 1)) });
      assert.equal((await editProfileProject(api, uuid, { profile_key: broken.id })).status, 200);
      const status = await waitForStage(api, uuid, 'edit');
      assert.equal(status.status, 'Failed');
      assert.match(status.details, new RegExp(`a\\.xmp \\(Cannot read the profile style of profile ${broken.id}: /exposure must be number\\.\\)`));
      const project = (await repos.projects.byUuid(uuid))!;
      const [output] = await repos.outputs.list(project.id, 'edit');
      const render = await db.kysely.selectFrom('jobs').select(['state', 'attempts']).where('key', '=', `edit.render:${output!.id}`).executeTakeFirstOrThrow();
      assert.deepEqual([render.state, render.attempts], ['failed', 1], 'not retried: trying again cannot mend a record');
    });

    test('a job whose payload cannot be read fails at once, with the reason', async () => {
      await queue.enqueue([{ kind: 'i2i.render', key: 'corrupt-payload', payload: '{"outputId":"seven"}' }]);
      workSignal.emit('work');
      const read = () => db.kysely.selectFrom('jobs').select(['state', 'attempts', 'last_error']).where('key', '=', 'corrupt-payload').executeTakeFirstOrThrow();
      let job: Awaited<ReturnType<typeof read>> | undefined;
      for (let i = 0; i < 200; i++) {
        job = await read();
        if (job.state === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual([job!.state, job!.attempts], ['failed', 1]);
      assert.match(job!.last_error!, /Cannot read the output job payload of job \d+ \(i2i\.render\): \/outputId must be integer/);
    });
  });
}
