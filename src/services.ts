import crypto from 'node:crypto';
import path from 'node:path';
import type { Config } from './config.js';
import { type Db, openDatabase } from './db/connect.js';
import { createRepos, type Repos } from './db/repos/index.js';
import { AccountsService } from './domain/accounts.js';
import { ProjectsService } from './domain/projects.js';
import { UploadsService } from './domain/uploads.js';
import { LinkSigner } from './storage/link-signer.js';
import { LocalBlobStore } from './storage/local-blob-store.js';

/** Everything a process of the service needs, built once from the config and passed down. */
export interface Services {
  config: Config;
  db: Db;
  repos: Repos;
  blobs: LocalBlobStore;
  signer: LinkSigner;
  accounts: AccountsService;
  projects: ProjectsService;
  uploads: UploadsService;
  close(): Promise<void>;
}

export async function createServices(config: Config): Promise<Services> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const repos = createRepos(db.kysely);
  // Every process sharing the database must sign links the same way: the secret lives there.
  const secret = config.signingSecret ?? (await repos.settings.getOrInit('link_signing_secret', crypto.randomBytes(32).toString('hex')));
  const signer = new LinkSigner(secret);
  const blobs = new LocalBlobStore({
    root: path.join(config.dataDir, 'blobs'),
    signer,
    publicUrl: config.publicUrl ?? `http://${config.host}:${config.port}`,
    linkTtlSeconds: config.linkTtlSeconds,
  });
  return {
    config,
    db,
    repos,
    signer,
    blobs,
    accounts: new AccountsService(repos),
    projects: new ProjectsService(repos),
    uploads: new UploadsService(repos, blobs),
    close: () => db.close(),
  };
}
