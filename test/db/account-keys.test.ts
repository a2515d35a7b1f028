import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/connect.js';
import { createRepos } from '../../src/db/repos/index.js';
import { AccountsService } from '../../src/domain/accounts.js';

/** An accounts service on its own connection to the SQLite file under dir, counting its key lookups. */
async function service(dir: string) {
  const db = await openDatabase({ databaseUrl: undefined, dataDir: dir });
  const repos = createRepos(db.kysely);
  let lookups = 0;
  const byKeyHash = repos.accounts.byKeyHash.bind(repos.accounts);
  repos.accounts.byKeyHash = (hash) => {
    lookups++;
    return byKeyHash(hash);
  };
  return { accounts: new AccountsService(repos, db.dataVersion), lookups: () => lookups, close: () => db.close() };
}

test('an API key is looked up once while nothing writes the database, and a key rotated by this or another connection stops working at once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-keys-'));
  const server = await service(dir);
  const cli = await service(dir);
  try {
    const { apiKey } = await server.accounts.create('studio');
    for (let i = 0; i < 3; i++) assert.equal((await server.accounts.authenticate(apiKey)).name, 'studio');
    assert.equal(server.lookups(), 1, 'looked up once, then kept');

    const rotatedElsewhere = await cli.accounts.rotateKey('studio');
    await assert.rejects(server.accounts.authenticate(apiKey), /Invalid API key/);
    assert.equal((await server.accounts.authenticate(rotatedElsewhere)).name, 'studio');

    const rotatedHere = await server.accounts.rotateKey('studio');
    await assert.rejects(server.accounts.authenticate(rotatedElsewhere), /Invalid API key/);
    assert.equal((await server.accounts.authenticate(rotatedHere)).name, 'studio');
    await assert.rejects(server.accounts.authenticate('rt_not-a-key'), /Invalid API key/);
  } finally {
    await server.close();
    await cli.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
