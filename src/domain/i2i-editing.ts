import type { Account, Project } from '../db/schema.js';
import type { BatchService, Stage } from './batch.js';
import { nowIso } from './clock.js';
import type { ImagingEngine } from './engine.js';
import type { PhotoPlanner } from './photo-plan.js';
import { editOptionsRecords } from './records/edit-options.js';
import { type EditRequest, editRequestRecord, enabledTools } from './records/edit-request.js';
import { sourcesOf } from './records/outputs.js';
import type { SkyTemplatesService } from './sky-templates.js';
import type { SubmissionChecks } from './submission.js';

/** The answer to every accepted edit request, the first and the repeated ones alike (reference §3 rule 3). */
export const EDIT_ACCEPTED_MESSAGE = 'The project was submitted for editing.';

const requestOf = (project: Project): EditRequest => editRequestRecord.decode(project.options, `project ${project.id}`);

/** Smart Editing: the edit request, and its stage of one JPEG per photo or HDR group. */
export class I2iEditingService {
  constructor(
    private readonly checks: SubmissionChecks,
    private readonly batches: BatchService,
    private readonly planner: PhotoPlanner,
    private readonly skyTemplates: SkyTemplatesService,
    engine: Pick<ImagingEngine, 'developI2i'>,
  ) {
    const stage: Stage = {
      name: 'i2i',
      kind: 'i2i',
      column: 'state',
      notifies: true,
      plan: (project) => this.planner.plan(project, { hdr: requestOf(project).hdrMerge, extension: '.jpg' }),
      develop: async (project, output) => {
        const request = requestOf(project);
        return engine.developI2i(await this.planner.frames(project, sourcesOf(output)), request, await this.skyTemplates.forEdit(request));
      },
    };
    batches.register(stage);
  }

  async submit(account: Account, project: Project, submitted: { request: EditRequest; callbackUrl: string | null }): Promise<string> {
    if (project.state !== 'created') return EDIT_ACCEPTED_MESSAGE;
    const photos = await this.checks.uploadedPhotos(project);
    await this.checks.manifests(project, photos);
    const request = await this.skyTemplates.fixTemplate(submitted.request);
    await this.checks.callbackUrl(submitted.callbackUrl);
    await this.checks.trialCap(account, photos.length);
    const started = await this.batches.start(project, 'i2i', ['created'], {
      options: editRequestRecord.encode(request),
      ai_tools: editOptionsRecords.aiTools.encode(enabledTools(request)),
      callback_url: submitted.callbackUrl,
      submitted_at: nowIso(),
    });
    if (started) await this.checks.closeUploads(project);
    return EDIT_ACCEPTED_MESSAGE;
  }
}
