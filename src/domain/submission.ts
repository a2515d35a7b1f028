import type { Repos } from '../db/repos/index.js';
import type { Account, Project, ProjectFile } from '../db/schema.js';
import type { BlobStore } from './blob-store.js';
import { assertCallbackUrl } from './callbacks.js';
import { InvalidRequest } from './errors.js';
import { parseHdrGroups, parseOrientations } from './manifests.js';
import { storageKeys } from './storage-keys.js';
import type { UploadsService } from './uploads.js';

export interface SubmissionDeps {
  repos: Repos;
  blobs: BlobStore;
  uploads: UploadsService;
  callbackAllowPrivate: boolean;
}

/** What an edit request must pass before anything is queued, in both flows (reference §7). */
export class SubmissionChecks {
  constructor(private readonly deps: SubmissionDeps) {}

  /**
   * Seals what was uploaded (UploadsService.seal), then the project's photos, all in storage;
   * otherwise the reference's "no images" or "upload incomplete", counted from the store's listing.
   */
  async uploadedPhotos(project: Project): Promise<ProjectFile[]> {
    await this.deps.uploads.seal(project);
    const photos = await this.deps.repos.files.list(project.id, 'photo');
    const stored = await this.deps.blobs.list(storageKeys.originals(project.uuid));
    const missing = photos.filter((f) => !stored.has(storageKeys.original(project.uuid, f.file_name))).length;
    if (photos.length === 0 || missing === photos.length) throw new InvalidRequest('No images were uploaded for this project.');
    if (missing > 0) throw new InvalidRequest(`Upload Incomplete: ${missing} out of ${photos.length} files are missing.`);
    return photos;
  }

  /** The uploaded groups manifest and orientations file, when there are any, must be valid. */
  async manifests(project: Project, photos: ProjectFile[]): Promise<void> {
    const names = new Set(photos.map((f) => f.file_name));
    const groups = await this.deps.uploads.readManifest(project, 'hdr_groups');
    if (groups !== null) parseHdrGroups(groups, names);
    const orientations = await this.deps.uploads.readManifest(project, 'orientations');
    if (orientations !== null) parseOrientations(orientations, names);
  }

  /** Once the project is submitted, uploads still in progress are closed at the store too. */
  async closeUploads(project: Project): Promise<void> {
    await this.deps.uploads.abortOpenMultipart(project);
  }

  async callbackUrl(url: string | null): Promise<void> {
    if (url !== null) await assertCallbackUrl(url, this.deps.callbackAllowPrivate);
  }

  /** A trial account may have this many photos edited in all, over all its projects. */
  async trialCap(account: Account, photos: number): Promise<void> {
    if (account.trial_cap === null) return;
    if ((await this.deps.repos.projects.photosSubmitted(account.id)) + photos > account.trial_cap) {
      throw new InvalidRequest('This project exceeds the free edits in your trial.');
    }
  }
}
