import type { Repos } from '../db/repos/index.js';
import type { Project, ProjectFileRole } from '../db/schema.js';
import type { BlobStore, PartInfo } from '../storage/blob-store.js';
import { nowIso } from './clock.js';
import { InvalidRequest, NotFound } from './errors.js';
import { assertCompatibleKinds, assertSupportedPhoto } from './file-types.js';
import { storageKeys } from './storage-keys.js';

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
    if (project.state !== 'created') {
      throw new InvalidRequest('This project has already been submitted for editing; its uploads are closed.');
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
    await this.admitPhotos(project, files.map((f) => f.file_name));
    await this.recordPhotos(project, files);
    return Promise.all(
      files.map(async (f) => ({
        file_name: f.file_name,
        upload_link: await this.blobs.presignPut(storageKeys.original(project.uuid, f.file_name), { md5: f.md5 ?? null }),
      })),
    );
  }

  async manifestLink(project: Project, role: keyof typeof MANIFEST_FILES): Promise<UploadLink> {
    this.assertOpen(project);
    const fileName = MANIFEST_FILES[role];
    await this.repos.files.upsert(project.id, [{ file_name: fileName, role, md5: null }], nowIso());
    return { file_name: fileName, upload_link: await this.blobs.presignPut(storageKeys.manifest(project.uuid, fileName)) };
  }

  /** The text of an uploaded manifest, or null when none was uploaded. */
  async readManifest(project: Project, role: keyof typeof MANIFEST_FILES): Promise<string | null> {
    const key = storageKeys.manifest(project.uuid, MANIFEST_FILES[role]);
    return (await this.blobs.head(key)) ? (await this.blobs.read(key)).toString('utf8') : null;
  }

  async startMultipart(project: Project, fileName: string, partCount: number): Promise<MultipartStart> {
    await this.admitPhotos(project, [fileName]);
    const key = storageKeys.original(project.uuid, fileName);
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
      throw new InvalidRequest(
        `Part ${n} is ${part.size} bytes; every part but the last must be at least 5 MB (${MIN_PART_BYTES} bytes).`,
      );
    }
  }
}
