import type { Repos } from '../../db/repos/index.js';
import type { Account, Output, OutputKind, Project } from '../../db/schema.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { DevelopedOutput } from '../batch.js';
import { nowIso } from '../clock.js';
import { InvalidRequest, NotFound } from '../errors.js';
import type { PhotoPlanner, SourceFrame } from '../photo-plan.js';
import type { ProjectsService } from '../projects.js';
import { storageKeys } from '../storage-keys.js';

/** Which flow a Copilot call is about (reference §2.4): profile-based (REGULAR) or Smart Editing (I2I). */
export type ProjectSource = 'REGULAR' | 'I2I';

/** An AI tool entry (reference §2.3). */
export interface AiTool {
  enhancement_type: string;
  label: string;
  enabled_for_batch: boolean;
}

/** What an instruction or tool asks of a version: a settings delta, or a refusal. */
export type Interpretation =
  | { kind: 'edit'; delta: unknown; summary: string }
  | { kind: 'unrealistic'; reason: string }
  | { kind: 'not_understood'; understood: string[] };

/** The engine's part of Copilot, on the interactive imaging thread. */
export interface CopilotDeveloper {
  /** The output's source at preview size, 16-bit, kept for every later version of it. */
  previewSource(frames: SourceFrame[]): Promise<Buffer>;
  /** Applies a delta to the parent's settings and renders the preview. */
  renderVersion(source: Buffer, parent: unknown, delta: unknown): Promise<{ jpeg: Buffer; settings: unknown }>;
  /** Renders settings from the sources at full resolution. */
  finalize(frames: SourceFrame[], settings: unknown): Promise<DevelopedOutput>;
}

export interface CopilotDeps {
  repos: Repos;
  blobs: BlobStore;
  projects: ProjectsService;
  planner: PhotoPlanner;
  developer: CopilotDeveloper;
  interpret(instruction: string, settings: unknown): Promise<Interpretation>;
  tools: AiTool[];
  toolDelta(toolId: string): unknown;
}

export interface VersionResult {
  status: 'SUCCESS';
  version_id: number;
  enhanced_image_url: string;
}

const FLOW: Record<ProjectSource, { flow: Project['flow']; kind: OutputKind }> = {
  REGULAR: { flow: 'regular', kind: 'export' },
  I2I: { flow: 'i2i', kind: 'i2i' },
};

const keys = {
  source: (uuid: string, fileName: string) => `projects/${uuid}/copilot/${fileName}/source.tif`,
  version: (uuid: string, fileName: string, id: number) => `projects/${uuid}/copilot/${fileName}/v${id}.jpg`,
};

/**
 * Copilot: one image at a time, after the batch edit and its export (reference §4.3, §3
 * rules 5–6). Each prompt or tool makes a version, a node in the image's chain of
 * settings; the preview answers at once, finalize renders the chosen versions full size.
 */
export class CopilotService {
  constructor(private readonly deps: CopilotDeps) {}

  /** The project, of the named flow, owned, Completed and exported once; every Copilot call starts here. */
  async project(account: Account, uuid: string, source: ProjectSource): Promise<Project> {
    const project = await this.deps.projects.getOwned(account, FLOW[source].flow, uuid);
    if (project.state !== 'completed' || project.export_state !== 'completed') throw new InvalidRequest('Project has not been exported yet.');
    return project;
  }

  tools(): AiTool[] {
    return this.deps.tools;
  }

  private async exported(project: Project, fileName: string): Promise<Output> {
    const kind = FLOW[project.flow === 'i2i' ? 'I2I' : 'REGULAR'].kind;
    const output = await this.deps.repos.outputs.byName(project.id, kind, fileName);
    if (!output || output.state !== 'done' || output.settings === null) throw new NotFound(`Image "${fileName}" is not among the exported images of this project.`);
    return output;
  }

  async enhance(project: Project, fileName: string, toolId: string, parentVersionId: number | null): Promise<VersionResult> {
    if (!this.deps.tools.some((t) => t.enhancement_type === toolId)) {
      throw new InvalidRequest(`Unknown tool_id "${toolId}". Valid tool ids: ${this.deps.tools.map((t) => t.enhancement_type).join(', ')}.`);
    }
    return this.newVersion(project, fileName, parentVersionId, { tool_id: toolId }, async () => this.deps.toolDelta(toolId));
  }

  async prompt(project: Project, fileName: string, instruction: string, parentVersionId: number | null): Promise<VersionResult> {
    return this.newVersion(project, fileName, parentVersionId, { instruction }, async (parentSettings) => {
      const meaning = await this.deps.interpret(instruction, parentSettings);
      if (meaning.kind === 'unrealistic') throw new InvalidRequest('Only realistic editing requests are supported.');
      if (meaning.kind === 'not_understood') {
        throw new InvalidRequest(`The instruction was not understood. Copilot understands requests about ${meaning.understood.join(', ')}.`);
      }
      return meaning.delta;
    });
  }

  private async newVersion(
    project: Project,
    fileName: string,
    parentId: number | null,
    request: Record<string, string>,
    deltaFor: (parentSettings: unknown) => Promise<unknown>,
  ): Promise<VersionResult> {
    const { repos, blobs, developer } = this.deps;
    const output = await this.exported(project, fileName);
    let parentSettings: unknown = JSON.parse(output.settings!);
    if (parentId !== null) {
      const parent = (await repos.copilotVersions.chain(project.id, fileName)).find((v) => v.id === parentId);
      if (!parent) throw new NotFound(`Version ${parentId} is not a version of "${fileName}".`);
      parentSettings = JSON.parse(parent.settings);
    }
    const delta = await deltaFor(parentSettings);
    const { jpeg, settings } = await developer.renderVersion(await this.source(project, output), parentSettings, delta);
    const version = await repos.copilotVersions.branch({
      project_id: project.id,
      file_name: fileName,
      parent_id: parentId,
      settings: JSON.stringify(settings),
      request: JSON.stringify(request),
      created_at: nowIso(),
    });
    const key = keys.version(project.uuid, fileName, version.id);
    await blobs.write(key, jpeg);
    return { status: 'SUCCESS', version_id: version.id, enhanced_image_url: await blobs.presignGet(key) };
  }

  /** The preview-size source of an image, decoded (and merged) once and kept. */
  private async source(project: Project, output: Output): Promise<Buffer> {
    const key = keys.source(project.uuid, output.file_name);
    if (await this.deps.blobs.head(key)) return this.deps.blobs.read(key);
    const source = await this.deps.developer.previewSource(await this.deps.planner.framesOf(project, output));
    await this.deps.blobs.write(key, source);
    return source;
  }

  /** Discards every version of one image: it is back to its post-edit state. */
  async reset(project: Project, fileName: string): Promise<{ file_name: string; discarded_versions: number }> {
    await this.exported(project, fileName);
    return { file_name: fileName, discarded_versions: await this.deps.repos.copilotVersions.reset(project.id, fileName) };
  }

  /**
   * Renders the latest version of every touched image at full resolution over the flow's
   * own output, so the flow's download endpoints serve it; the version becomes the image's
   * new post-edit state.
   */
  async finalize(project: Project): Promise<{ file_name: string; download_link: string }[]> {
    const { repos, blobs, developer } = this.deps;
    const touched = await repos.copilotVersions.touched(project.id);
    return Promise.all(
      touched.map(async (fileName) => {
        const output = await this.exported(project, fileName);
        const chain = await repos.copilotVersions.chain(project.id, fileName);
        const settings = chain[chain.length - 1]!.settings;
        const developed = await developer.finalize(await this.deps.planner.framesOf(project, output), JSON.parse(settings));
        const key = storageKeys.output(project.uuid, output.kind, fileName);
        await blobs.write(key, developed.bytes);
        if (developed.thumbnail) await blobs.write(storageKeys.thumbnail(project.uuid, output.kind, fileName), developed.thumbnail);
        await repos.outputs.update(output.id, { settings, thumbnail_of: developed.thumbnail ? ((await blobs.head(key))?.etag ?? null) : null, updated_at: nowIso() });
        await repos.copilotVersions.reset(project.id, fileName);
        return { file_name: fileName, download_link: await blobs.presignGet(key) };
      }),
    );
  }
}
