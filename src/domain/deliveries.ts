import type { Repos } from '../db/repos/index.js';
import type { Output, OutputKind, Project } from '../db/schema.js';
import type { BlobStore } from './blob-store.js';
import { clientWriteRefusal } from './client-writes.js';
import { nowIso } from './clock.js';
import type { ImagingEngine } from './engine.js';
import { InvalidRequest, NotFound } from './errors.js';
import { assertPlainFileName, photoKind } from './file-types.js';
import type { JobQueue } from './job-queue.js';
import { jobPayloads } from './records/job-payloads.js';
import { newOutput, sourcesOf } from './records/outputs.js';
import { storageKeys } from './storage-keys.js';

export interface DownloadEntry {
  file_name: string;
  download_link: string;
}

/** Reference §2.3 thumbnail entry; the link's field name is ours (reference N8). */
export interface ThumbnailEntry {
  file_name: string;
  is_thumbnail: boolean;
  thumbnail_link: string;
}

export const THUMBNAIL_JOB = 'outputs.thumbnail';

/** Outputs put by the client through an upload link have no sources. */
const clientPut = (output: Output) => sourcesOf(output).length === 0;

/** The files a project delivers, their presigned links, and their replacement by the client. */
export class DeliveriesService {
  constructor(
    private readonly repos: Repos,
    private readonly blobs: BlobStore,
    private readonly queue: JobQueue,
    /** Makes thumbnails. */
    private readonly engine: Pick<ImagingEngine, 'thumbnail'>,
    private readonly wake: () => void,
  ) {}

  /** Delivered outputs; one the client announced but never uploaded is not delivered. */
  async delivered(project: Project, kind: OutputKind): Promise<Output[]> {
    const done = await this.repos.outputs.list(project.id, kind, 'done');
    const exists = await Promise.all(done.map(async (o) => !clientPut(o) || (await this.blobs.head(storageKeys.output(project.uuid, o.kind, o.file_name))) !== null));
    return done.filter((_, i) => exists[i]);
  }

  /** Every delivered file, companions (merged HDR images) right after the file they go with. */
  async downloadLinks(project: Project, kind: OutputKind): Promise<DownloadEntry[]> {
    const outputs = await this.delivered(project, kind);
    const names = outputs.flatMap((o) => (o.companion ? [o.file_name, o.companion] : [o.file_name]));
    return Promise.all(names.map((name) => this.downloadEntry(project, kind, name)));
  }

  private async downloadEntry(project: Project, kind: OutputKind, fileName: string): Promise<DownloadEntry> {
    return { file_name: fileName, download_link: await this.blobs.presignGet(storageKeys.output(project.uuid, kind, fileName)) };
  }

  async downloadLink(project: Project, kind: OutputKind, fileName: string): Promise<DownloadEntry> {
    const outputs = await this.repos.outputs.list(project.id, kind, 'done');
    const known = outputs.some((o) => o.file_name === fileName || o.companion === fileName);
    if (!known || !(await this.blobs.head(storageKeys.output(project.uuid, kind, fileName)))) {
      throw new NotFound(`File "${fileName}" is not among the outputs of this project.`);
    }
    return this.downloadEntry(project, kind, fileName);
  }

  /**
   * One entry per delivered image. An output replaced since its thumbnail was made is
   * served full size (is_thumbnail false) while a new thumbnail is made.
   */
  async thumbnailLinks(project: Project, kind: OutputKind): Promise<ThumbnailEntry[]> {
    const outputs = await this.delivered(project, kind);
    const stale: { output: Output; etag: string | undefined }[] = [];
    const entries = await Promise.all(
      outputs.map(async (o) => {
        const current = await this.blobs.head(storageKeys.output(project.uuid, o.kind, o.file_name));
        const fresh = current !== null && o.thumbnail_of === current.etag;
        if (!fresh) stale.push({ output: o, etag: current?.etag });
        const key = fresh ? storageKeys.thumbnail(project.uuid, o.kind, o.file_name) : storageKeys.output(project.uuid, o.kind, o.file_name);
        return { file_name: o.file_name, is_thumbnail: fresh, thumbnail_link: await this.blobs.presignGet(key) };
      }),
    );
    if (stale.length > 0) {
      // The key names the replaced version: one thumbnail job per version, however often the list is read.
      await this.queue.enqueue(stale.map(({ output, etag }) => ({ kind: THUMBNAIL_JOB, key: `${THUMBNAIL_JOB}:${output.id}:${etag}`, payload: jobPayloads.output.encode({ outputId: output.id }) })));
      this.wake();
    }
    return entries;
  }

  /** A project's cover for lists and details: the first delivered image's thumbnail. */
  async thumbnailSources(projects: Project[], kind: OutputKind): Promise<Map<number, string>> {
    const first = await this.repos.outputs.firstDone(
      projects.map((p) => p.id),
      kind,
    );
    const links = new Map<number, string>();
    for (const project of projects) {
      const output = first.get(project.id);
      if (!output) continue;
      const key = output.thumbnail_of ? storageKeys.thumbnail(project.uuid, output.kind, output.file_name) : storageKeys.output(project.uuid, output.kind, output.file_name);
      links.set(project.id, await this.blobs.presignGet(key));
    }
    return links;
  }

  /** A link to upload or replace one output; only once its stage is Completed (reference §3 rule 4). */
  async uploadLink(project: Project, kind: OutputKind, fileName: string): Promise<{ file_name: string; upload_link: string }> {
    const refusal = clientWriteRefusal(project, kind);
    if (refusal !== null) throw new InvalidRequest(refusal);
    assertPlainFileName(fileName);
    if (photoKind(fileName) !== 'JPEG') throw new InvalidRequest(`file ${fileName} is not supported. supported files types are jpg, jpeg`);
    const now = nowIso();
    await this.repos.outputs.insertMissing([newOutput(project.id, kind, fileName, [], 'done', now)]);
    return { file_name: fileName, upload_link: await this.blobs.presignPut(storageKeys.output(project.uuid, kind, fileName)) };
  }

  /** Remakes an output's thumbnail from its current bytes. */
  async refreshThumbnail(outputId: number): Promise<void> {
    const output = await this.repos.outputs.byId(outputId);
    const project = output && (await this.repos.projects.byId(output.project_id));
    if (!output || !project) return;
    const key = storageKeys.output(project.uuid, output.kind, output.file_name);
    const before = await this.blobs.head(key);
    if (!before || before.etag === output.thumbnail_of) return;
    await this.blobs.write(storageKeys.thumbnail(project.uuid, output.kind, output.file_name), await this.engine.thumbnail({ fileName: output.file_name, bytes: await this.blobs.read(key) }));
    await this.repos.outputs.update(output.id, { thumbnail_of: before.etag, updated_at: nowIso() });
  }
}
