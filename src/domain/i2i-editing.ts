import type { Account, Output, Project } from '../db/schema.js';
import type { BatchService, DevelopedOutput, Stage } from './batch.js';
import { nowIso } from './clock.js';
import type { PhotoPlanner, SourceFrame } from './photo-plan.js';
import type { SkySource, SkyTemplatesService } from './sky-templates.js';
import type { SubmissionChecks } from './submission.js';

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

export const enabledTools = (options: I2iEditOptions): string[] =>
  (['hdr_merge', 'perspective_correction', 'sky_replacement'] as const).filter((tool) => options[tool]);

/** The engine's part of Smart Editing: develop frames (merged when several) into a finished JPEG. */
export type DevelopI2i = (frames: SourceFrame[], options: I2iEditOptions, sky: SkySource | null) => Promise<DevelopedOutput>;

/** Smart Editing: the edit request, and its stage of one JPEG per photo or HDR group. */
export class I2iEditingService {
  constructor(
    private readonly checks: SubmissionChecks,
    private readonly batches: BatchService,
    private readonly planner: PhotoPlanner,
    private readonly skyTemplates: SkyTemplatesService,
    develop: DevelopI2i,
  ) {
    const stage: Stage = {
      name: 'i2i',
      kind: 'i2i',
      column: 'state',
      notifies: true,
      plan: (project: Project) => this.planner.plan(project, { hdr: optionsOf(project).hdr_merge, extension: '.jpg' }),
      develop: async (project: Project, output: Output) => {
        const options = optionsOf(project);
        const sky = options.sky_replacement && options.sky_replacement_template_id !== null ? await this.skyTemplates.source(options.sky_replacement_template_id) : null;
        return develop(await this.planner.frames(project, JSON.parse(output.sources) as string[]), options, sky);
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
      options: JSON.stringify(options),
      ai_tools: JSON.stringify(enabledTools(options)),
      callback_url,
      submitted_at: nowIso(),
    });
    if (started) await this.checks.closeUploads(project);
    return EDIT_ACCEPTED_MESSAGE;
  }
}

function optionsOf(project: Project): I2iEditOptions {
  return JSON.parse(project.options) as I2iEditOptions;
}
