import path from 'node:path';
import type { Repos } from '../db/repos/index.js';
import type { Account, Output, Profile, Project, ProjectState } from '../db/schema.js';
import type { PostOptions } from '../imaging/post.js';
import type { BlobStore } from './blob-store.js';
import type { BatchService, StageName } from './batch.js';
import { nowIso } from './clock.js';
import type { DeliveriesService } from './deliveries.js';
import type { DevelopedOutput, ImagingEngine } from './engine.js';
import { InvalidRequest } from './errors.js';
import { photoKind } from './file-types.js';
import type { PhotoPlanner } from './photo-plan.js';
import type { ProfilesService } from './profiles.js';
import { editOptionsRecords } from './records/edit-options.js';
import { type EditRequest, editRequestRecord, enabledTools } from './records/edit-request.js';
import { settingsOf, sourcesOf } from './records/outputs.js';
import { fullStyle, styleRecord } from './records/profiles.js';
import { CorruptRecord } from './records/stored-record.js';
import type { SkyTemplatesService } from './sky-templates.js';
import { storageKeys } from './storage-keys.js';
import type { SubmissionChecks } from './submission.js';

/** An edit request of the profile flow: the edit, the profile it is biased by, where to call back. */
export interface ProfileEditSubmission {
  profileKey: number;
  request: EditRequest;
  callbackUrl: string | null;
}

export const ACCEPTED = {
  edit: 'The project was submitted for editing.',
  export: 'The project was submitted for export.',
  post: 'The project was submitted for post-editing.',
} as const;

/** The status vocabulary of the profile flow's status endpoints and project items. */
export type StageStatus = 'Pending' | 'Processing' | 'Completed' | 'Failed';

export function stageStatus(state: ProjectState | null): StageStatus {
  switch (state) {
    case 'in_progress':
      return 'Processing';
    case 'completed':
      return 'Completed';
    case 'failed':
      return 'Failed';
    default:
      return 'Pending';
  }
}

const EXTENSIONS: Record<PostOptions['format'], string> = { JPEG: '.jpg', PNG: '.png', TIFF: '.tif', WEBP: '.webp' };

/**
 * The profile-based flow: edit (settings → XMP sidecars and previews), export (settings →
 * full-size JPEGs), post-editing (exports → resized, watermarked, converted files).
 */
export class ProfileEditingService {
  constructor(
    private readonly deps: {
      repos: Repos;
      blobs: BlobStore;
      deliveries: Pick<DeliveriesService, 'delivered'>;
      checks: SubmissionChecks;
      batches: BatchService;
      planner: PhotoPlanner;
      profiles: ProfilesService;
      skyTemplates: SkyTemplatesService;
      engine: Pick<ImagingEngine, 'edit' | 'export' | 'post'>;
    },
  ) {
    const { batches } = deps;
    batches.register({ name: 'edit', kind: 'edit', column: 'state', notifies: true, plan: (p) => this.planEdit(p), develop: (p, o) => this.developEdit(p, o) });
    batches.register({ name: 'export', kind: 'export', column: 'export_state', notifies: true, plan: (p) => this.planFrom(p, 'edit', () => '.jpg'), develop: (p, o) => this.developExport(p, o) });
    batches.register({
      name: 'post',
      kind: 'post',
      column: 'post_state',
      notifies: false,
      plan: (p) => this.planFrom(p, 'export', () => EXTENSIONS[postOptionsOf(p).format]),
      develop: (p, o) => this.developPost(p, o),
    });
  }

  async submitEdit(account: Account, project: Project, submitted: ProfileEditSubmission): Promise<string> {
    const { checks } = this.deps;
    if (project.state !== 'created') return ACCEPTED.edit;
    const profile = await this.deps.profiles.forEdit(account, submitted.profileKey);
    const photos = await checks.uploadedPhotos(project);
    const raw = photos.some((f) => photoKind(f.file_name) === 'RAW');
    if (profile.image_type === 'JPG' && raw) throw new InvalidRequest('Unable to send raw images with JPEG profile');
    if (profile.image_type === 'RAW' && !raw) throw new InvalidRequest('Unable to send JPEGs images with raw profile');
    await checks.manifests(project, photos);
    const request = await this.deps.skyTemplates.fixTemplate(submitted.request);
    await checks.callbackUrl(submitted.callbackUrl);
    await checks.trialCap(account, photos.length);
    const started = await this.deps.batches.start(project, 'edit', ['created'], {
      profile_id: profile.id,
      options: editRequestRecord.encode(request),
      ai_tools: editOptionsRecords.aiTools.encode(enabledTools(request)),
      callback_url: submitted.callbackUrl,
      submitted_at: nowIso(),
    });
    if (started) await checks.closeUploads(project);
    return ACCEPTED.edit;
  }

  /** Export needs a completed edit; asked again while one runs or after it completed, it starts nothing. */
  async submitExport(project: Project): Promise<string> {
    if (project.state !== 'completed') throw new InvalidRequest('The project has not been edited yet: export is possible once the edit is Completed.');
    if (project.flow === 'i2i') {
      // A Smart Editing project's JPEGs are its export already; exporting marks it so, for Copilot.
      await this.deps.repos.projects.transitionStage(project.id, 'export_state', [null, 'failed'], 'completed', { updated_at: nowIso() });
    } else {
      await this.deps.batches.start(project, 'export', [null, 'failed']);
    }
    return ACCEPTED.export;
  }

  /** Post-editing needs a completed export; a new request with other options replaces the previous results. */
  async submitPost(project: Project, options: PostOptions): Promise<string> {
    if (project.export_state !== 'completed') throw new InvalidRequest('The project has not been exported yet: post-editing works on the exported images.');
    const started = await this.deps.batches.start(project, 'post', [null, 'completed', 'failed'], { post_options: editOptionsRecords.post.encode(options) });
    if (!started) throw new InvalidRequest('Post-editing of this project is already under way.');
    return ACCEPTED.post;
  }

  private planEdit(project: Project) {
    return this.deps.planner.plan(project, { hdr: requestOf(project).hdrMerge, extension: '.xmp' });
  }

  /**
   * One output per delivered output of the earlier stage, named after it. An export the client
   * announced through export/get_upload_link but never uploaded is not delivered: post-editing
   * it would wait forever for bytes that are not there.
   */
  private async planFrom(project: Project, earlier: 'edit' | 'export', extension: () => string) {
    const done = await this.deps.deliveries.delivered(project, earlier);
    const ext = extension();
    return done.map((o) => ({ fileName: `${path.parse(o.file_name).name}${ext}`, sources: [o.file_name] }));
  }

  private async profileOf(project: Project): Promise<Profile> {
    return (await this.deps.repos.profiles.byId(project.profile_id!))!;
  }

  private async developEdit(project: Project, output: Output): Promise<DevelopedOutput> {
    const request = requestOf(project);
    const profile = await this.profileOf(project);
    const base = path.parse(output.file_name).name;
    return this.deps.engine.edit(await this.deps.planner.frames(project, sourcesOf(output)), {
      request,
      style: fullStyle(styleRecord.decode(profile.style, `profile ${profile.id}`)),
      sky: await this.deps.skyTemplates.forEdit(request),
      mergedName: `${base}${request.hdrOutputCompression === 'LOSSLESS' ? '.tif' : '.jpg'}`,
    });
  }

  /**
   * Renders the edit's settings from the originals, or from the merged image of an HDR
   * group, so the JPEG is what Lightroom would make of the photo with the XMP.
   */
  private async developExport(project: Project, output: Output): Promise<DevelopedOutput> {
    const [editName] = sourcesOf(output);
    const edit = (await this.deps.repos.outputs.byName(project.id, 'edit', editName!))!;
    const settings = settingsOf(edit);
    if (!settings) throw new CorruptRecord(`Edit output ${edit.id} has no develop settings to export.`);
    return this.deps.engine.export(await this.deps.planner.framesOf(project, output), { settings, sky: await this.deps.skyTemplates.forEdit(requestOf(project)) });
  }

  private async developPost(project: Project, output: Output): Promise<DevelopedOutput> {
    const [exported] = sourcesOf(output);
    const bytes = await this.deps.blobs.read(storageKeys.output(project.uuid, 'export', exported!));
    return this.deps.engine.post({ fileName: exported!, bytes }, postOptionsOf(project));
  }

  /** `{status, progress, details}` of a stage, for the status endpoints. */
  async status(project: Project, stage: Extract<StageName, 'edit' | 'export' | 'post'>): Promise<{ status: StageStatus; progress: number; details: string | null }> {
    const state = stage === 'edit' ? project.state : stage === 'export' ? project.export_state : project.post_state;
    const never = stage === 'edit' ? project.state === 'created' : state === null;
    if (never) return { status: 'Pending', progress: 0, details: `The project has not been submitted for ${stage === 'post' ? 'post-editing' : stage === 'edit' ? 'editing' : 'export'} yet.` };
    const { progress, details } = await this.deps.batches.progress(project, stage);
    return { status: stageStatus(state), progress: state === 'completed' || state === 'failed' ? 100 : progress, details };
  }
}

function requestOf(project: Project): EditRequest {
  return editRequestRecord.decode(project.options, `project ${project.id}`);
}

function postOptionsOf(project: Project): PostOptions {
  return editOptionsRecords.post.decode(project.post_options!, `project ${project.id}`);
}
