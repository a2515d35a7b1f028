import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { Config } from './config.js';
import { type Db, openDatabase } from './db/connect.js';
import { createRepos, type Repos } from './db/repos/index.js';
import { AccountsService } from './domain/accounts.js';
import { BatchService } from './domain/batch.js';
import type { BlobStore } from './domain/blob-store.js';
import { CopilotService } from './domain/copilot/copilot.js';
import { interpretInstruction } from './domain/copilot/instructions/index.js';
import { interpretWithModel } from './domain/copilot/llm.js';
import { aiTools, toolDelta } from './domain/copilot/tools.js';
import { DeliveriesService } from './domain/deliveries.js';
import type { ImagingEngine } from './domain/engine.js';
import { I2iEditingService } from './domain/i2i-editing.js';
import type { Transact } from './domain/job-queue.js';
import { PhotoPlanner } from './domain/photo-plan.js';
import { ProfileEditingService, stageStatus } from './domain/profile-editing.js';
import { ProfilesService } from './domain/profiles.js';
import { ProjectsService, projectStatus } from './domain/projects.js';
import { SkyTemplatesService } from './domain/sky-templates.js';
import { SubmissionChecks } from './domain/submission.js';
import { UploadsService } from './domain/uploads.js';
import { BUILT_IN_STYLES } from './imaging/settings.js';
import { builtInSkyTemplates } from './imaging/sky/templates.js';
import { ImagingPool } from './jobs/imaging-pool.js';
import { MemoryBudget } from './jobs/memory-budget.js';
import { DatabaseJobQueue } from './jobs/queue.js';
import { LinkSigner } from './storage/link-signer.js';
import { LocalBlobStore } from './storage/local-blob-store.js';
import { S3BlobStore } from './storage/s3-blob-store.js';

/**
 * Everything a process of the service needs, built once from the config and passed down: the
 * composition root, where the adapters (database, blob store, queue, imaging threads) are
 * given to the domain as the ports it declares.
 */
export interface Services {
  config: Config;
  db: Db;
  repos: Repos;
  blobs: BlobStore;
  /** The embedded store, when blobs live under DATA_DIR: the /storage routes serve its links, signed by signer. */
  embeddedStorage: { blobs: LocalBlobStore; signer: LinkSigner } | null;
  queue: DatabaseJobQueue;
  /** Emits 'work' when jobs were queued, so local runners start them without waiting for a poll. */
  workSignal: EventEmitter;
  /** The memory the imaging threads of both pools may take at once. */
  memory: MemoryBudget;
  /** Batch photo development, on as many threads as cores. */
  imaging: ImagingEngine;
  /** Copilot's renders, on a thread of their own so that they never wait behind a batch. */
  interactive: ImagingEngine;
  accounts: AccountsService;
  projects: ProjectsService;
  uploads: UploadsService;
  deliveries: DeliveriesService;
  batches: BatchService;
  profiles: ProfilesService;
  skyTemplates: SkyTemplatesService;
  i2iEditing: I2iEditingService;
  profileEditing: ProfileEditingService;
  copilot: CopilotService;
  close(): Promise<void>;
}

export async function createServices(config: Config): Promise<Services> {
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const repos = createRepos(db.kysely);
  const s3 = config.s3 ? new S3BlobStore({ ...config.s3, linkTtlSeconds: config.linkTtlSeconds }) : null;
  const embeddedStorage = s3 ? null : await embeddedStore(config, repos);
  const blobs: BlobStore = s3 ?? embeddedStorage!.blobs;
  const queue = new DatabaseJobQueue(db.kysely, db.engine);
  const transact: Transact = (work) => db.kysely.transaction().execute((trx) => work({ repos: createRepos(trx), queue: { enqueue: (jobs) => queue.enqueue(jobs, trx) } }));
  const workSignal = new EventEmitter();
  const wake = () => workSignal.emit('work');
  // One budget for both pools: a Copilot render beside a batch does not take them past it.
  const memory = new MemoryBudget(config.imagingMemoryMb * 2 ** 20);
  const admission = { budget: memory, maxMegapixels: config.maxImageMegapixels };
  const imaging = new ImagingPool(config.imagingThreads, admission, config.imagingNice);
  const interactive = new ImagingPool(1, admission, config.imagingNice);

  const accounts = new AccountsService(repos, db.dataVersion);
  const projects = new ProjectsService(repos);
  const uploads = new UploadsService(repos, blobs);
  const deliveries = new DeliveriesService(repos, blobs, queue, imaging, wake);
  const profiles = new ProfilesService(repos);
  const skyTemplates = new SkyTemplatesService(repos, blobs, imaging);
  await profiles.ensureBuiltIns(Object.entries(BUILT_IN_STYLES).map(([key, style]) => ({ key, name: style.name, style })));
  await skyTemplates.ensureBuiltIns(builtInSkyTemplates());

  const batches = new BatchService({
    repos,
    blobs,
    queue,
    transact,
    accounts,
    deliveries,
    callbackAllowPrivate: config.callbackAllowPrivate,
    statusOf: (project, stage) => (stage === 'i2i' ? projectStatus(project.state) : stageStatus(stage === 'export' ? project.export_state : project.state)),
    wake,
  });
  const planner = new PhotoPlanner({ repos, blobs, uploads, frameInfo: (bytes, fileName) => imaging.frameInfo(bytes, fileName) });
  const checks = new SubmissionChecks({ repos, blobs, uploads, callbackAllowPrivate: config.callbackAllowPrivate });

  return {
    config,
    db,
    repos,
    blobs,
    embeddedStorage,
    queue,
    workSignal,
    memory,
    imaging,
    interactive,
    accounts,
    projects,
    uploads,
    deliveries,
    batches,
    profiles,
    skyTemplates,
    i2iEditing: new I2iEditingService(checks, batches, planner, skyTemplates, imaging),
    profileEditing: new ProfileEditingService({ repos, blobs, deliveries, checks, batches, planner, profiles, skyTemplates, engine: imaging }),
    copilot: new CopilotService({
      repos,
      blobs,
      deliveries,
      planner,
      skyTemplates,
      engine: interactive,
      interpret: async (instruction, settings) => (config.copilotModel ? interpretWithModel(instruction, { settings }, config.copilotModel) : interpretInstruction(instruction, { settings })),
      tools: aiTools(),
      toolDelta,
    }),
    close: async () => {
      await Promise.all([imaging.close(), interactive.close()]);
      s3?.close();
      await db.close();
    },
  };
}

/** Blobs under DATA_DIR, their links signed with a secret that every process sharing the database agrees on. */
async function embeddedStore(config: Config, repos: Repos): Promise<{ blobs: LocalBlobStore; signer: LinkSigner }> {
  const secret = config.signingSecret ?? (await repos.settings.getOrInit('link_signing_secret', crypto.randomBytes(32).toString('hex')));
  const signer = new LinkSigner(secret);
  const blobs = new LocalBlobStore({
    root: path.join(config.dataDir, 'blobs'),
    signer,
    publicUrl: config.publicUrl ?? `http://${config.host}:${config.port}`,
    linkTtlSeconds: config.linkTtlSeconds,
  });
  return { blobs, signer };
}
