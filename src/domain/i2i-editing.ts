import path from 'node:path';
import type { Kysely } from 'kysely';
import { createRepos, type Repos } from '../db/repos/index.js';
import type { Account, Database, Project } from '../db/schema.js';
import type { JobQueue } from '../jobs/queue.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { AccountsService } from './accounts.js';
import { assertCallbackUrl, deliverCallback } from './callbacks.js';
import { nowIso } from './clock.js';
import type { DeliveriesService } from './deliveries.js';
import { InvalidRequest, UnprocessablePhoto } from './errors.js';
import { parseHdrGroups, parseOrientations, type Rotation } from './manifests.js';
import { projectStatus } from './projects.js';
import { storageKeys } from './storage-keys.js';
import { MANIFEST_FILES } from './uploads.js';

/** The options of a Smart Editing edit request (reference §2.4); all off by default. */
export interface I2iEditOptions {
  hdr_merge: boolean;
  perspective_correction: boolean;
  sky_replacement: boolean;
  sky_replacement_template_id: number | null;
}

export interface I2iEditRequest extends I2iEditOptions {
  callback_url: string | null;
}

/** The answer to every accepted edit request, the first and the repeated ones alike (reference §3 rule 3). */
export const EDIT_ACCEPTED_MESSAGE = 'The project was submitted for editing.';

/** Tries of a callback; the delays between them come from the callback handler. */
export const CALLBACK_ATTEMPTS = 6;

export const I2I_JOBS = {
  plan: 'i2i.plan',
  render: 'i2i.render',
  callback: 'i2i.callback',
} as const;

/** The photo metadata planning needs, read by whoever can decode photos. */
export interface FrameInfo {
  fileName: string;
  captureTime: string | null;
  exposureBias: number | null;
  exposureTime: number | null;
}

/** The imaging work, done off the API's thread (src/jobs/imaging-pool.ts). */
export interface PhotoDeveloper {
  frameInfo(bytes: Buffer, fileName: string): Promise<FrameInfo>;
  groupBrackets(frames: FrameInfo[]): Promise<string[][]>;
  developI2i(input: DevelopI2iInput): Promise<DevelopI2iOutput>;
}

export interface DevelopI2iInput {
  frames: { fileName: string; bytes: Buffer; rotate: Rotation }[];
  options: I2iEditOptions;
}

export interface DevelopI2iOutput {
  jpeg: Buffer;
  thumbnail: Buffer;
  settings: unknown;
}

export interface I2iEditingDeps {
  db: Kysely<Database>;
  repos: Repos;
  blobs: BlobStore;
  queue: JobQueue;
  developer: PhotoDeveloper;
  accounts: AccountsService;
  deliveries: DeliveriesService;
  /** Ids of the sky templates an edit may name. */
  skyTemplateIds: () => Promise<number[]>;
  callbackAllowPrivate: boolean;
  /** Tells local job runners that work is waiting. */
  wake: () => void;
}

/** `IMG_1.CR2` → `IMG_1.jpg`; a name already taken gets ` (2)`, ` (3)`... */
export function outputName(source: string, taken: Set<string>): string {
  const base = path.parse(source).name;
  let name = `${base}.jpg`;
  for (let n = 2; taken.has(name); n++) name = `${base} (${n}).jpg`;
  taken.add(name);
  return name;
}

/** The frame an HDR group's output is named after: the middle exposure, by bias or else by exposure time. */
export function middleFrame(frames: FrameInfo[]): FrameInfo {
  const exposure = (f: FrameInfo) => f.exposureBias ?? (f.exposureTime ? Math.log2(f.exposureTime) : 0);
  const sorted = [...frames].sort((a, b) => exposure(a) - exposure(b) || a.fileName.localeCompare(b.fileName));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export const enabledTools = (options: I2iEditOptions): string[] =>
  (['hdr_merge', 'perspective_correction', 'sky_replacement'] as const).filter((tool) => options[tool]);

/**
 * Smart Editing from the edit request to the delivered JPEGs: the request is checked and
 * queued; a plan job turns photos into outputs (one per photo, or per HDR group); a render
 * job per output develops it; the last one to finish settles the project and its callback.
 */
export class I2iEditingService {
  constructor(private readonly deps: I2iEditingDeps) {}

  private async readManifest(project: Project, role: keyof typeof MANIFEST_FILES): Promise<string | null> {
    const key = storageKeys.manifest(project.uuid, MANIFEST_FILES[role]);
    return (await this.deps.blobs.head(key)) ? (await this.deps.blobs.read(key)).toString('utf8') : null;
  }

  async submit(account: Account, project: Project, request: I2iEditRequest): Promise<string> {
    const { repos, blobs } = this.deps;
    if (project.state !== 'created') return EDIT_ACCEPTED_MESSAGE;

    const photos = await repos.files.list(project.id, 'photo');
    const present = await Promise.all(photos.map((f) => blobs.head(storageKeys.original(project.uuid, f.file_name))));
    const missing = present.filter((p) => p === null).length;
    if (photos.length === 0 || missing === photos.length) throw new InvalidRequest('No images were uploaded for this project.');
    if (missing > 0) throw new InvalidRequest(`Upload Incomplete: ${missing} out of ${photos.length} files are missing.`);

    const names = new Set(photos.map((f) => f.file_name));
    const groups = await this.readManifest(project, 'hdr_groups');
    if (groups !== null) parseHdrGroups(groups, names);
    const orientations = await this.readManifest(project, 'orientations');
    if (orientations !== null) parseOrientations(orientations, names);

    if (request.sky_replacement && request.sky_replacement_template_id !== null) {
      const ids = await this.deps.skyTemplateIds();
      if (!ids.includes(request.sky_replacement_template_id)) {
        throw new InvalidRequest(`Sky template ${request.sky_replacement_template_id} not found. Available templates: ${ids.join(', ')}.`);
      }
    }
    if (request.callback_url !== null) await assertCallbackUrl(request.callback_url, this.deps.callbackAllowPrivate);

    if (account.trial_cap !== null && (await repos.projects.photosSubmitted(account.id)) + photos.length > account.trial_cap) {
      throw new InvalidRequest('This project exceeds the free edits in your trial.');
    }

    const { callback_url, ...options } = request;
    const now = nowIso();
    // The state change and the plan job commit together: a crash leaves neither or both.
    const accepted = await this.deps.db.transaction().execute(async (trx) => {
      const won = await createRepos(trx).projects.transition(project.id, ['created'], 'queued', {
        options: JSON.stringify(options),
        ai_tools: JSON.stringify(enabledTools(options)),
        callback_url,
        submitted_at: now,
        updated_at: now,
      });
      if (won) await this.deps.queue.enqueue([{ kind: I2I_JOBS.plan, key: `${I2I_JOBS.plan}:${project.id}`, payload: { projectId: project.id } }], trx);
      return won;
    });
    if (accepted) this.deps.wake();
    return EDIT_ACCEPTED_MESSAGE;
  }

  /** Decides the outputs: one per photo, or one per HDR group (from the manifest, or from EXIF). */
  async plan(projectId: number): Promise<void> {
    const { repos, blobs, developer } = this.deps;
    const project = await repos.projects.byId(projectId);
    if (!project) return;
    const options = JSON.parse(project.options) as I2iEditOptions;
    const photos = (await repos.files.list(project.id, 'photo')).map((f) => f.file_name);
    const names = new Set(photos);

    let groups: string[][];
    let infos = new Map<string, FrameInfo>();
    if (options.hdr_merge) {
      const frames = await Promise.all(
        photos.map(async (name) => developer.frameInfo(await blobs.read(storageKeys.original(project.uuid, name)), name)),
      );
      infos = new Map(frames.map((f) => [f.fileName, f]));
      const manifest = await this.readManifest(project, 'hdr_groups');
      const listed = manifest !== null ? parseHdrGroups(manifest, names) : await developer.groupBrackets(frames);
      const grouped = new Set(listed.flat());
      groups = [...listed, ...photos.filter((p) => !grouped.has(p)).map((p) => [p])];
    } else {
      groups = photos.map((p) => [p]);
    }

    const taken = new Set<string>();
    const now = nowIso();
    const outputs = groups.map((sources) => {
      const named = sources.length > 1 ? middleFrame(sources.map((s) => infos.get(s)!)).fileName : sources[0]!;
      return {
        project_id: project.id,
        kind: 'i2i' as const,
        file_name: outputName(named, taken),
        sources: JSON.stringify(sources),
        state: 'pending' as const,
        error: null,
        settings: null,
        thumbnail_of: null,
        created_at: now,
        updated_at: now,
      };
    });
    await repos.outputs.insertMissing(outputs);
    const rows = await repos.outputs.list(project.id, 'i2i');
    await this.deps.queue.enqueue(
      rows.map((o) => ({ kind: I2I_JOBS.render, key: `${I2I_JOBS.render}:${o.id}`, payload: { outputId: o.id }, maxAttempts: 3 })),
    );
    this.deps.wake();
  }

  /** Develops one output. Deterministic: running it again after a crash writes the same bytes. */
  async render(outputId: number): Promise<void> {
    const { repos, blobs, developer } = this.deps;
    const output = await repos.outputs.byId(outputId);
    if (!output || output.state !== 'pending') return;
    const project = (await repos.projects.byId(output.project_id))!;
    await repos.projects.transition(project.id, ['queued'], 'in_progress', { updated_at: nowIso() });

    const options = JSON.parse(project.options) as I2iEditOptions;
    const sources = JSON.parse(output.sources) as string[];
    const manifest = await this.readManifest(project, 'orientations');
    const rotations = manifest !== null ? parseOrientations(manifest, new Set(sources)) : new Map<string, Rotation>();
    const frames = await Promise.all(
      sources.map(async (fileName) => ({
        fileName,
        bytes: await blobs.read(storageKeys.original(project.uuid, fileName)),
        rotate: rotations.get(fileName) ?? 0,
      })),
    );
    const developed = await developer.developI2i({ frames, options }).catch((err: Error) => {
      throw new UnprocessablePhoto(`${sources.join(', ')}: ${err.message}`);
    });
    await blobs.write(storageKeys.output(project.uuid, output.file_name), developed.jpeg);
    await blobs.write(storageKeys.thumbnail(project.uuid, output.file_name), developed.thumbnail);
    const info = await blobs.head(storageKeys.output(project.uuid, output.file_name));
    await repos.outputs.update(output.id, {
      state: 'done',
      error: null,
      settings: JSON.stringify(developed.settings),
      thumbnail_of: info?.etag ?? null,
      updated_at: nowIso(),
    });
    await this.settle(project.id);
  }

  /** An output that cannot be made: recorded with its reason, the others go on. */
  async renderFailed(outputId: number, error: string): Promise<void> {
    const output = await this.deps.repos.outputs.byId(outputId);
    if (!output || output.state !== 'pending') return;
    await this.deps.repos.outputs.update(output.id, { state: 'failed', error, updated_at: nowIso() });
    await this.settle(output.project_id);
  }

  /** A plan that cannot be made (an unreadable manifest, say) fails the project. */
  async planFailed(projectId: number): Promise<void> {
    await this.end(projectId, 'failed', {});
  }

  /**
   * When no output is pending, the project ends: Completed when at least one output was
   * delivered (the failed ones are reported in the callback), Failed when none was.
   */
  private async settle(projectId: number): Promise<void> {
    const counts = await this.deps.repos.outputs.countByState(projectId, 'i2i');
    if (counts.pending > 0) return;
    await this.end(projectId, counts.done > 0 ? 'completed' : 'failed', { number_of_images: counts.done });
  }

  /** Ends the project once, whoever gets here first, and queues its callback. */
  private async end(projectId: number, state: 'completed' | 'failed', changes: { number_of_images?: number }): Promise<void> {
    const { repos, queue } = this.deps;
    const now = nowIso();
    if (!(await repos.projects.transition(projectId, ['queued', 'in_progress'], state, { ...changes, finished_at: now, updated_at: now }))) return;
    const project = await repos.projects.byId(projectId);
    if (!project?.callback_url) return;
    await queue.enqueue([
      { kind: I2I_JOBS.callback, key: `${I2I_JOBS.callback}:${projectId}:${now}`, payload: { projectId }, maxAttempts: CALLBACK_ATTEMPTS },
    ]);
    this.deps.wake();
  }

  /** POSTs the end of the edit to the project's callback URL, signed (docs/callbacks.md); throws to be retried. */
  async sendCallback(projectId: number, deliveryId: string): Promise<void> {
    const { repos } = this.deps;
    const project = await repos.projects.byId(projectId);
    if (!project?.callback_url) return;
    const outputs = await repos.outputs.list(projectId, 'i2i');
    const body = JSON.stringify({
      project_uuid: project.uuid,
      status: projectStatus(project.state),
      number_of_images: project.number_of_images,
      files: await this.deps.deliveries.downloadLinks(project, 'i2i'),
      failed_files: outputs.filter((o) => o.state === 'failed').map((o) => ({ file_name: o.file_name, sources: JSON.parse(o.sources), error: o.error })),
      finished_at: project.finished_at,
    });
    await deliverCallback({
      url: project.callback_url,
      body,
      secret: await this.deps.accounts.webhookSecret(project.account_id),
      deliveryId,
      allowPrivate: this.deps.callbackAllowPrivate,
    });
  }
}
