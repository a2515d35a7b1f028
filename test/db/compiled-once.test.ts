import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { Kysely } from 'kysely';
import { compiledOnce } from '../../src/db/compiled-once.js';
import { openDatabase } from '../../src/db/connect.js';
import { createRepos } from '../../src/db/repos/index.js';
import { coversQuery } from '../../src/db/repos/outputs.js';
import type { Database, OutputKind } from '../../src/db/schema.js';
import { newOutput } from '../../src/domain/records/outputs.js';
import { testEngines } from '../support/server.js';

const now = new Date(0).toISOString();

/** Three projects, the first two with delivered edits and exports under different names. */
async function seed(db: Kysely<Database>): Promise<{ uuids: string[]; ids: number[] }> {
  const repos = createRepos(db);
  const account = await repos.accounts.insert({ name: 'studio', api_key_hash: 'h', trial_cap: null, created_at: now });
  const uuids = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
  const ids: number[] = [];
  for (const [i, uuid] of uuids.entries()) {
    const project = await repos.projects.insert({ uuid, account_id: account.id, flow: 'i2i', name: `p${i}`, state: 'created', is_archived: 0, number_of_images: 0, ai_tools: '[]', options: '{}', created_at: now, updated_at: now });
    ids.push(project.id);
  }
  await repos.outputs.insertMissing([
    newOutput(ids[0]!, 'edit', 'b.jpg', [], 'done', now),
    newOutput(ids[0]!, 'edit', 'a.jpg', [], 'pending', now),
    newOutput(ids[0]!, 'export', 'c.jpg', [], 'done', now),
    newOutput(ids[1]!, 'edit', 'd.jpg', [], 'done', now),
    newOutput(ids[1]!, 'export', 'e.jpg', [], 'done', now),
    newOutput(ids[1]!, 'export', 'f.jpg', [], 'done', now),
  ]);
  return { uuids, ids };
}

/** The covers query built and compiled on every call. */
const coversBuiltEachTime = (db: Kysely<Database>, projectIds: number[], kind: OutputKind) => coversQuery(db, projectIds, kind).orderBy('id').execute();

for (const engine of await testEngines()) {
  test(`compiledOnce: the rows of the query built each time, for every parameter, a build per list length (${engine.name})`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-compiled-once-'));
    const { env, drop } = await engine.create();
    const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    try {
      const { uuids, ids } = await seed(db.kysely);
      const repos = createRepos(db.kysely);

      for (const uuid of [...uuids, '44444444-4444-4444-8444-444444444444']) {
        const expected = await db.kysely.selectFrom('projects').selectAll().where('uuid', '=', uuid).executeTakeFirst();
        assert.deepEqual(await repos.projects.byUuid(uuid), expected, uuid);
      }
      assert.notDeepEqual(await repos.projects.byUuid(uuids[0]!), await repos.projects.byUuid(uuids[1]!));

      let builds = 0;
      const covers = compiledOnce(db.kysely, (db, projectIds: number[], kind: OutputKind) => {
        builds++;
        return coversQuery(db, projectIds, kind).orderBy('id');
      });
      const lists = [[ids[0]!], [ids[1]!], [ids[2]!], [ids[0]!, ids[1]!], [ids[1]!, ids[2]!], ids];
      const kinds: OutputKind[] = ['edit', 'export'];
      for (const list of lists) {
        for (const kind of kinds) {
          assert.deepEqual(await covers.execute(list, kind), await coversBuiltEachTime(db.kysely, list, kind), `${list} ${kind}`);
          const repoCovers = await repos.outputs.firstDone(list, kind);
          assert.deepEqual(new Map([...repoCovers].map(([id, o]) => [id, o.file_name])), new Map((await coversBuiltEachTime(db.kysely, list, kind)).map((o) => [o.project_id, o.file_name])));
        }
      }
      assert.equal(builds, 3, 'one build per list length, reused for other ids and kinds');
      const names = async (list: number[], kind: OutputKind) => (await covers.execute(list, kind)).map((o) => o.file_name);
      assert.deepEqual(await names([ids[0]!], 'edit'), ['b.jpg']);
      assert.deepEqual(await names([ids[0]!], 'export'), ['c.jpg']);
      assert.deepEqual(await names([ids[1]!], 'export'), ['e.jpg']);
      assert.deepEqual(await names([ids[2]!], 'edit'), []);
      assert.equal(builds, 3);
    } finally {
      await db.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test(`compiledOnce refuses a query whose argument is not one of its parameters (${engine.name})`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-compiled-once-'));
    const { env, drop } = await engine.create();
    const db = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir });
    try {
      // Built from the value it was given rather than a slot: every later name would read p0.
      const fixed = compiledOnce(db.kysely, (db, _name: string) => db.selectFrom('projects').selectAll().where('name', '=', 'p0'));
      await assert.rejects(fixed.execute('p1'), /parameter 0 is not a parameter/);
    } finally {
      await db.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
