import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/connect.js';
import { createRepos } from '../../src/db/repos/index.js';
import { newOutput } from '../../src/domain/records/outputs.js';
import type { OutputKind, OutputState } from '../../src/db/schema.js';
import { testEngines } from '../support/server.js';

const now = new Date(0).toISOString();

for (const engine of await testEngines()) {
  test(`firstDone picks each project's delivered output first by file name, whatever the order written (${engine.name})`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-first-done-'));
    const { env, drop } = await engine.create();
    const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    try {
      const repos = createRepos(db.kysely);
      const account = await repos.accounts.insert({ name: 'studio', api_key_hash: 'h', trial_cap: null, created_at: now });
      const project = (uuid: string) =>
        repos.projects.insert({ uuid, account_id: account.id, flow: 'i2i', name: uuid, state: 'created', is_archived: 0, number_of_images: 0, ai_tools: '[]', options: '{}', created_at: now, updated_at: now });
      const [several, undelivered, other] = [await project('several'), await project('undelivered'), await project('other')];
      const output = (projectId: number, fileName: string, state: OutputState, kind: OutputKind = 'edit') => newOutput(projectId, kind, fileName, [], state, now);
      await repos.outputs.insertMissing([
        output(several.id, 'IMG_0003.jpg', 'done'),
        output(several.id, 'IMG_0001.jpg', 'pending'),
        output(several.id, 'IMG_0002.jpg', 'done'),
        output(several.id, 'A_0000.jpg', 'failed'),
        output(several.id, 'IMG_0000.jpg', 'done', 'export'),
        output(undelivered.id, 'IMG_0001.jpg', 'pending'),
        output(other.id, 'b.jpg', 'done'),
        output(other.id, 'a.jpg', 'done'),
      ]);
      const names = async (ids: number[]) => new Map([...(await repos.outputs.firstDone(ids, 'edit'))].map(([id, o]) => [id, o.file_name]));
      assert.deepEqual(await names([several.id]), new Map([[several.id, 'IMG_0002.jpg']]));
      assert.deepEqual(
        await names([several.id, undelivered.id, other.id]),
        new Map([
          [several.id, 'IMG_0002.jpg'],
          [other.id, 'a.jpg'],
        ]),
      );
      assert.deepEqual(await names([]), new Map());
    } finally {
      await db.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
