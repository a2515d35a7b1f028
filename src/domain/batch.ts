import type { Repos } from '../db/repos/index.js';
import type { StageColumn } from '../db/repos/projects.js';
import type { Output, OutputKind, Project, ProjectState } from '../db/schema.js';
import type { BlobStore } from './blob-store.js';
import type { AccountsService } from './accounts.js';
import { deliverCallback } from './callbacks.js';
import { nowIso } from './clock.js';
import type { DeliveriesService } from './deliveries.js';
import { DevelopError, type DevelopedOutput } from './engine.js';
import { UnprocessablePhoto } from './errors.js';
import type { JobQueue, NewJob, Transact } from './job-queue.js';
import { jobPayloads } from './records/job-payloads.js';
import { developSettingsRecord, newOutput, sourcesOf } from './records/outputs.js';
import { storageKeys } from './storage-keys.js';

/** A batch step over a project's photos: Smart Editing, or the profile flow's edit, export and post-editing. */
export type StageName = 'i2i' | 'edit' | 'export' | 'post';

/** One file to make, and what it is made from. */
export interface PlannedOutput {
  fileName: string;
  /** Source photo names (several for an HDR group), or the name of the earlier stage's output. */
  sources: string[];
}

export interface Stage {
  name: StageName;
  kind: OutputKind;
  /** The project column holding this stage's state. */
  column: StageColumn;
  /** Whether the end of the stage is POSTed to the project's callback URL. */
  notifies: boolean;
  plan(project: Project): Promise<PlannedOutput[]>;
  develop(project: Project, output: Output): Promise<DevelopedOutput>;
}

export const jobKinds = (stage: StageName) => ({ plan: `${stage}.plan`, render: `${stage}.render`, callback: `${stage}.callback` });

/** Tries of a callback; the delays between them come from the callback handler. */
export const CALLBACK_ATTEMPTS = 6;

/**
 * Tries of a render job. A photo the engine refuses fails at once; these are for storage and
 * database trouble, retried after 1, 4, 16 and 64 s (the imaging handlers' delays).
 */
export const RENDER_ATTEMPTS = 5;

/** The jobs that plan, render and call back a stage. */
const planJob = (stage: StageName, projectId: number, at: string): NewJob => {
  const { plan } = jobKinds(stage);
  return { kind: plan, key: `${plan}:${projectId}:${at}`, payload: jobPayloads.project.encode({ projectId }) };
};
const renderJob = (stage: StageName, outputId: number): NewJob => {
  const { render } = jobKinds(stage);
  return { kind: render, key: `${render}:${outputId}`, payload: jobPayloads.output.encode({ outputId }), maxAttempts: RENDER_ATTEMPTS };
};
const callbackJob = (stage: StageName, projectId: number, finishedAt: string): NewJob => {
  const { callback } = jobKinds(stage);
  return { kind: callback, key: `${callback}:${projectId}:${finishedAt}`, payload: jobPayloads.callback.encode({ projectId, finishedAt }), maxAttempts: CALLBACK_ATTEMPTS };
};

export interface BatchDeps {
  repos: Repos;
  blobs: BlobStore;
  queue: JobQueue;
  /** Runs work in one database transaction: a stage's state and the jobs it queues are written together. */
  transact: Transact;
  accounts: AccountsService;
  deliveries: DeliveriesService;
  callbackAllowPrivate: boolean;
  /** How each flow shows a state in its status fields. */
  statusOf: (project: Project, stage: StageName) => string;
  wake: () => void;
}

/**
 * Runs stages as jobs: a plan job decides the outputs, a render job per output develops
 * it, and the last one to finish ends the stage once and queues its callback. Every step
 * is recorded in the database, so a stage survives restarts; rendering is deterministic,
 * so an output made twice (after a crash) is the same file.
 */
export class BatchService {
  private readonly stages = new Map<StageName, Stage>();

  constructor(private readonly deps: BatchDeps) {}

  register(stage: Stage): void {
    this.stages.set(stage.name, stage);
  }

  stageNames(): StageName[] {
    return [...this.stages.keys()];
  }

  private stage(name: StageName): Stage {
    const stage = this.stages.get(name);
    if (!stage) throw new Error(`no stage ${name} registered`);
    return stage;
  }

  /**
   * Moves the stage from one of `from` to queued with `changes`, and queues its plan, in one
   * transaction; false when another request started it first.
   */
  async start(project: Project, name: StageName, from: (ProjectState | null)[], changes: Partial<Project> = {}): Promise<boolean> {
    const stage = this.stage(name);
    const now = nowIso();
    const started = await this.deps.transact(async ({ repos, queue }) => {
      const won = await repos.projects.transitionStage(project.id, stage.column, from, 'queued', { ...changes, updated_at: now });
      if (!won) return false;
      // A stage run again (post-editing with other options) starts from no outputs.
      await repos.outputs.deleteAll(project.id, stage.kind);
      await queue.enqueue([planJob(name, project.id, now)]);
      return true;
    });
    if (started) this.deps.wake();
    return started;
  }

  async plan(name: StageName, projectId: number): Promise<void> {
    const { repos, queue } = this.deps;
    const stage = this.stage(name);
    const project = await repos.projects.byId(projectId);
    if (!project) return;
    const now = nowIso();
    const planned = await stage.plan(project);
    await repos.outputs.insertMissing(planned.map((p) => newOutput(project.id, stage.kind, p.fileName, p.sources, 'pending', now)));
    const outputs = await repos.outputs.list(project.id, stage.kind);
    await queue.enqueue(outputs.map((o) => renderJob(name, o.id)));
    if (outputs.length === 0) await this.settle(stage, project.id);
    this.deps.wake();
  }

  async render(name: StageName, outputId: number): Promise<void> {
    const stage = this.stage(name);
    const output = await this.deps.repos.outputs.byId(outputId);
    if (!output) return;
    if (output.state === 'pending') await this.develop(stage, output);
    // Also when a process made the output and died before ending the stage.
    await this.settle(stage, output.project_id);
  }

  private async develop(stage: Stage, output: Output): Promise<void> {
    const { repos, blobs } = this.deps;
    const project = (await repos.projects.byId(output.project_id))!;
    await repos.projects.transitionStage(project.id, stage.column, ['queued'], 'in_progress', { updated_at: nowIso() });
    const developed = await stage.develop(project, output).catch((err: unknown) => {
      // What the engine refuses is the photo's fault; storage and database trouble is thrown on, to be retried.
      if (err instanceof DevelopError) throw new UnprocessablePhoto(`${sourcesOf(output).join(', ')}: ${err.message}`);
      throw err;
    });
    const key = storageKeys.output(project.uuid, stage.kind, output.file_name);
    await blobs.write(key, developed.bytes);
    if (developed.companion) await blobs.write(storageKeys.output(project.uuid, stage.kind, developed.companion.fileName), developed.companion.bytes);
    if (developed.thumbnail) await blobs.write(storageKeys.thumbnail(project.uuid, stage.kind, output.file_name), developed.thumbnail);
    await repos.outputs.update(output.id, {
      state: 'done',
      error: null,
      settings: developed.settings === undefined ? null : developSettingsRecord.encode(developed.settings),
      thumbnail_of: developed.thumbnail ? ((await blobs.head(key))?.etag ?? null) : null,
      companion: developed.companion?.fileName ?? null,
      updated_at: nowIso(),
    });
  }

  /** An output that cannot be made: recorded with its reason, the others go on. */
  async renderFailed(name: StageName, outputId: number, error: string): Promise<void> {
    const output = await this.deps.repos.outputs.byId(outputId);
    if (!output) return;
    if (output.state === 'pending') await this.deps.repos.outputs.update(output.id, { state: 'failed', error, updated_at: nowIso() });
    await this.settle(this.stage(name), output.project_id);
  }

  /** A plan that cannot be made fails the stage. */
  async planFailed(name: StageName, projectId: number): Promise<void> {
    await this.end(this.stage(name), projectId, 'failed', {});
  }

  /**
   * When no output is pending the stage ends: completed when at least one output was
   * delivered (the failures are reported in the callback and the status details), failed
   * when none was.
   */
  private async settle(stage: Stage, projectId: number): Promise<void> {
    const counts = await this.deps.repos.outputs.countByState(projectId, stage.kind);
    if (counts.pending > 0) return;
    const changes = stage.column === 'state' ? { number_of_images: counts.done } : {};
    await this.end(stage, projectId, counts.done > 0 ? 'completed' : 'failed', changes);
  }

  /** Ends the stage once, whoever gets here first, and queues its callback in the same transaction, so that a crash loses neither. */
  private async end(stage: Stage, projectId: number, state: 'completed' | 'failed', changes: Partial<Project>): Promise<void> {
    const now = nowIso();
    const finished = stage.column === 'state' ? { finished_at: now } : {};
    const notified = await this.deps.transact(async ({ repos, queue }) => {
      if (!(await repos.projects.transitionStage(projectId, stage.column, ['queued', 'in_progress'], state, { ...changes, ...finished, updated_at: now }))) return false;
      const project = await repos.projects.byId(projectId);
      if (!stage.notifies || !project?.callback_url) return false;
      await queue.enqueue([callbackJob(stage.name, projectId, now)]);
      return true;
    });
    if (notified) this.deps.wake();
  }

  /** POSTs the end of a stage to the project's callback URL, signed (docs/callbacks.md); throws to be retried. */
  async sendCallback(name: StageName, projectId: number, finishedAt: string, deliveryId: string): Promise<void> {
    const { repos } = this.deps;
    const stage = this.stage(name);
    const project = await repos.projects.byId(projectId);
    if (!project?.callback_url) return;
    const outputs = await repos.outputs.list(projectId, stage.kind);
    const done = outputs.filter((o) => o.state === 'done');
    const body = JSON.stringify({
      project_uuid: project.uuid,
      ...(stage.name === 'i2i' ? {} : { stage: stage.name }),
      status: this.deps.statusOf(project, stage.name),
      number_of_images: done.length,
      files: await this.deps.deliveries.downloadLinks(project, stage.kind),
      failed_files: outputs.filter((o) => o.state === 'failed').map((o) => ({ file_name: o.file_name, sources: sourcesOf(o), error: o.error })),
      finished_at: finishedAt,
    });
    await deliverCallback({
      url: project.callback_url,
      body,
      secret: await this.deps.accounts.webhookSecret(project.account_id),
      deliveryId,
      allowPrivate: this.deps.callbackAllowPrivate,
    });
  }

  /** Share of the stage's outputs finished, 0..100, and what went wrong, for status endpoints. */
  async progress(project: Project, name: StageName): Promise<{ progress: number; details: string | null }> {
    const outputs = await this.deps.repos.outputs.list(project.id, this.stage(name).kind);
    if (outputs.length === 0) return { progress: 0, details: null };
    const failed = outputs.filter((o) => o.state === 'failed');
    const finished = outputs.length - outputs.filter((o) => o.state === 'pending').length;
    const details = failed.length === 0 ? null : `${failed.length} of ${outputs.length} failed: ${failed.map((o) => `${o.file_name} (${o.error})`).join('; ')}`;
    return { progress: Math.round((100 * finished) / outputs.length), details };
  }
}
