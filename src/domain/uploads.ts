import type { Repos } from '../db/repos/index.js';
import type { Project, ProjectFileRole } from '../db/schema.js';
import type { BlobStore, PartInfo } from './blob-store.js';
import { clientWriteRefusal } from './client-writes.js';
import { nowIso } from './clock.js';
import { InvalidRequest, NotFound } from './errors.js';
import { assertCompatibleKinds, assertSupportedPhoto } from './file-types.js';
import { parseProjectKey, storageKeys, UPLOADS } from './storage-keys.js';

export interface FileLinkRequest {
  file_name: string;
  /** Base64 MD5 of the bytes the client will upload. */
  md5?: string | null;
}

export interface UploadLink {
  file_name: string;
  upload_link: string;
}

export interface MultipartStart {
  upload_id: string;
  key: string;
  parts: { part_number: number; upload_url: string }[];
}

/** The two project-level files a client may upload beside its photos (reference N6; format in docs/uploads.md). */
export const MANIFEST_FILES: Record<Exclude<ProjectFileRole, 'photo'>, string> = {
  hdr_groups: 'hdr_groups.json',
  orientations: 'orientations.json',
};

/** S3's rule, kept for the embedded store so that clients behave the same against both. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

export class UploadsService {
  constructor(
    private readonly repos: Repos,
    private readonly blobs: BlobStore,
  ) {}

  private assertOpen(project: Project): void {
    const refusal = clientWriteRefusal(project, UPLOADS);
    if (refusal !== null) throw new InvalidRequest(refusal);
  }

  /** Why the embedded store must refuse a client's PUT to key now, or null when it may take it. */
  async writeRefusal(key: string): Promise<string | null> {
    const target = parseProjectKey(key);
    const project = target && (await this.repos.projects.byUuid(target.projectUuid));
    if (!target || !project) return 'Nothing can be written here.';
    return clientWriteRefusal(project, target.area);
  }

  /**
   * Takes in what the client uploaded, at submit: each photo and manifest moves from where
   * its links put it to the key the engine reads. Nothing reads the upload area afterwards,
   * so a link used later (S3 cannot refuse it before it expires) changes nothing submitted.
   */
  async seal(project: Project): Promise<void> {
    // A concurrent submit may have won meanwhile: what it sealed stays as it was.
    if ((await this.repos.projects.byId(project.id))?.state !== 'created') return;
    const files = new Map((await this.repos.files.list(project.id)).map((f) => [f.file_name, f.role]));
    const uploaded = await this.blobs.list(storageKeys.uploads(project.uuid));
    await Promise.all(
      [...uploaded.keys()].map(async (key) => {
        const fileName = parseProjectKey(key)?.fileName;
        const role = fileName === undefined ? undefined : files.get(fileName);
        if (fileName === undefined || role === undefined) return;
        await this.blobs.move(key, role === 'photo' ? storageKeys.original(project.uuid, fileName) : storageKeys.manifest(project.uuid, fileName));
      }),
    );
  }

  /** Aborts the multipart uploads still open when the project is submitted: the store then refuses their parts. */
  async abortOpenMultipart(project: Project): Promise<void> {
    for (const upload of await this.repos.multipart.open(project.id)) {
      if (await this.repos.multipart.transition(upload.id, 'open', 'aborted')) await this.blobs.abortMultipart(upload.key, upload.id);
    }
  }

  /** Checks names against each other and against the photos already in the project. */
  private async admitPhotos(project: Project, fileNames: string[]): Promise<void> {
    this.assertOpen(project);
    const counts = new Map<string, number>();
    for (const name of fileNames) counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const [name, count] of counts) {
      if (count > 1) throw new InvalidRequest(`File "${name}" appears ${count} times.`);
    }
    for (const name of fileNames) assertSupportedPhoto(name);
    const existing = await this.repos.files.list(project.id, 'photo');
    assertCompatibleKinds([...existing.map((f) => f.file_name), ...fileNames]);
  }

  private async recordPhotos(project: Project, files: FileLinkRequest[]): Promise<void> {
    await this.repos.files.upsert(
      project.id,
      files.map((f) => ({ file_name: f.file_name, role: 'photo' as const, md5: f.md5 ?? null })),
      nowIso(),
    );
    await this.repos.projects.update(project.id, {
      number_of_images: await this.repos.files.countPhotos(project.id),
      updated_at: nowIso(),
    });
  }

  async requestLinks(project: Project, files: FileLinkRequest[]): Promise<UploadLink[]> {
    await this.admitPhotos(
      project,
      files.map((f) => f.file_name),
    );
    await this.recordPhotos(project, files);
    return Promise.all(
      files.map(async (f) => ({
        file_name: f.file_name,
        upload_link: await this.blobs.presignPut(storageKeys.upload(project.uuid, f.file_name), { md5: f.md5 ?? null }),
      })),
    );
  }

  async manifestLink(project: Project, role: keyof typeof MANIFEST_FILES): Promise<UploadLink> {
    this.assertOpen(project);
    const fileName = MANIFEST_FILES[role];
    await this.repos.files.upsert(project.id, [{ file_name: fileName, role, md5: null }], nowIso());
    return { file_name: fileName, upload_link: await this.blobs.presignPut(storageKeys.upload(project.uuid, fileName)) };
  }

  /** The text of a submitted manifest, or null when none was uploaded. */
  async readManifest(project: Project, role: keyof typeof MANIFEST_FILES): Promise<string | null> {
    const key = storageKeys.manifest(project.uuid, MANIFEST_FILES[role]);
    return (await this.blobs.head(key)) ? (await this.blobs.read(key)).toString('utf8') : null;
  }

  async startMultipart(project: Project, fileName: string, partCount: number): Promise<MultipartStart> {
    await this.admitPhotos(project, [fileName]);
    const key = storageKeys.upload(project.uuid, fileName);
    const uploadId = await this.blobs.createMultipart(key);
    await this.repos.multipart.insert({
      id: uploadId,
      project_id: project.id,
      file_name: fileName,
      key,
      part_count: partCount,
      state: 'open',
      created_at: nowIso(),
    });
    await this.recordPhotos(project, [{ file_name: fileName }]);
    const parts = await Promise.all(
      Array.from({ length: partCount }, async (_, i) => ({
        part_number: i + 1,
        upload_url: await this.blobs.presignPart(key, uploadId, i + 1),
      })),
    );
    return { upload_id: uploadId, key, parts };
  }

  private async openUpload(project: Project, uploadId: string) {
    const upload = await this.repos.multipart.byId(project.id, uploadId);
    if (!upload) throw new NotFound(`Multipart upload ${uploadId} not found.`);
    if (upload.state !== 'open') throw new InvalidRequest(`Multipart upload ${uploadId} is already ${upload.state}.`);
    return upload;
  }

  /** Assembles the parts the store holds; the client sends no part list (reference §4.4). */
  async completeMultipart(project: Project, uploadId: string, fileName: string): Promise<void> {
    this.assertOpen(project);
    const upload = await this.openUpload(project, uploadId);
    if (upload.file_name !== fileName) {
      throw new InvalidRequest(`Multipart upload ${uploadId} is for "${upload.file_name}", not "${fileName}".`);
    }
    const parts = await this.blobs.listParts(upload.key, uploadId);
    assertPartsComplete(parts, upload.part_count);
    if (!(await this.repos.multipart.transition(uploadId, 'open', 'completed'))) {
      throw new InvalidRequest(`Multipart upload ${uploadId} is no longer open.`);
    }
    try {
      await this.blobs.completeMultipart(upload.key, uploadId, parts);
    } catch (err) {
      await this.repos.multipart.transition(uploadId, 'completed', 'open');
      throw err;
    }
  }

  async abortMultipart(project: Project, uploadId: string, key: string): Promise<void> {
    const upload = await this.repos.multipart.byId(project.id, uploadId);
    if (!upload) throw new NotFound(`Multipart upload ${uploadId} not found.`);
    if (upload.key !== key) throw new InvalidRequest(`The key "${key}" does not belong to multipart upload ${uploadId}.`);
    if (upload.state === 'completed') throw new InvalidRequest(`Multipart upload ${uploadId} is already completed.`);
    await this.repos.multipart.transition(uploadId, 'open', 'aborted');
    await this.blobs.abortMultipart(upload.key, uploadId);
  }
}

function assertPartsComplete(parts: PartInfo[], partCount: number): void {
  const byNumber = new Map(parts.map((p) => [p.partNumber, p]));
  for (let n = 1; n <= partCount; n++) {
    const part = byNumber.get(n);
    if (!part) throw new InvalidRequest(`Part ${n} of ${partCount} has not been uploaded.`);
    if (n < partCount && part.size < MIN_PART_BYTES) {
      throw new InvalidRequest(`Part ${n} is ${part.size} bytes; every part but the last must be at least 5 MB (${MIN_PART_BYTES} bytes).`);
    }
  }
}
