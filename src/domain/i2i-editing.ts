import type { Account, Project } from '../db/schema.js';
import type { BatchService, Stage } from './batch.js';
import { nowIso } from './clock.js';
import type { ImagingEngine } from './engine.js';
import type { PhotoPlanner } from './photo-plan.js';
import { editOptionsRecords, type I2iEditOptions } from './records/edit-options.js';
import { sourcesOf } from './records/outputs.js';
import type { SkyTemplatesService } from './sky-templates.js';
import type { SubmissionChecks } from './submission.js';

export interface I2iEditRequest extends I2iEditOptions {
  callback_url: string | null;
}

/** The answer to every accepted edit request, the first and the repeated ones alike (reference §3 rule 3). */
export const EDIT_ACCEPTED_MESSAGE = 'The project was submitted for editing.';

export const enabledTools = (options: I2iEditOptions): string[] =>
  (['hdr_merge', 'perspective_correction', 'sky_replacement'] as const).filter((tool) => options[tool]);

const optionsOf = (project: Project): I2iEditOptions => editOptionsRecords.i2i.decode(project.options, `project ${project.id}`);

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
      plan: (project) => this.planner.plan(project, { hdr: optionsOf(project).hdr_merge, extension: '.jpg' }),
      develop: async (project, output) => {
        const options = optionsOf(project);
        const sky = options.sky_replacement && options.sky_replacement_template_id !== null ? await this.skyTemplates.source(options.sky_replacement_template_id) : null;
        return engine.developI2i(await this.planner.frames(project, sourcesOf(output)), options, sky);
      },
    };
    batches.register(stage);
  }

  async submit(account: Account, project: Project, request: I2iEditRequest): Promise<string> {
    if (project.state !== 'created') return EDIT_ACCEPTED_MESSAGE;
    const photos = await this.checks.uploadedPhotos(project);
    await this.checks.manifests(project, photos);
    const { callback_url, ...options } = request;
    // No template named: the default one, fixed now so that a later change of default does not change this edit.
    if (options.sky_replacement) options.sky_replacement_template_id = (await this.skyTemplates.resolve(options.sky_replacement_template_id)).id;
    await this.checks.callbackUrl(callback_url);
    await this.checks.trialCap(account, photos.length);
    const started = await this.batches.start(project, 'i2i', ['created'], {
      options: editOptionsRecords.i2i.encode(options),
      ai_tools: editOptionsRecords.aiTools.encode(enabledTools(options)),
      callback_url,
      submitted_at: nowIso(),
    });
    if (started) await this.checks.closeUploads(project);
    return EDIT_ACCEPTED_MESSAGE;
  }
}
