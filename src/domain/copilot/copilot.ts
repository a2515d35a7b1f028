import type { Repos } from '../../db/repos/index.js';
import type { Account, Output, OutputKind, Project } from '../../db/schema.js';
import type { BlobStore } from '../blob-store.js';
import type { DevelopedOutput } from '../batch.js';
import { nowIso } from '../clock.js';
import type { DeliveriesService, DownloadEntry } from '../deliveries.js';
import { InvalidRequest, NotFound } from '../errors.js';
import type { PhotoPlanner, SourceFrame } from '../photo-plan.js';
import type { ProjectsService } from '../projects.js';
import type { SkySource, SkyTemplatesService } from '../sky-templates.js';
import { storageKeys } from '../storage-keys.js';
import { type CopilotDelta, describeDelta, type Interpretation } from './instructions/index.js';
import type { AiTool } from './tools.js';

/** Which flow a Copilot call is about (reference §2.4): profile-based (REGULAR) or Smart Editing (I2I). */
export type ProjectSource = 'REGULAR' | 'I2I';

/** A version's state: its settings and the quarter turns it adds to the post-edit state. */
export interface VersionState {
  settings: unknown;
  rotate: number;
}

/** The engine's part of Copilot, on an imaging thread of its own so it never waits behind a batch. */
export interface CopilotDeveloper {
  /** The output's source at preview size, 16-bit, kept for every later version of it. */
  copilotSource(frames: SourceFrame[]): Promise<Buffer>;
  /** Applies a delta to the parent's state and renders the preview. */
  copilotVersion(source: Buffer, parent: VersionState, delta: CopilotDelta, sky: SkySource | null): Promise<VersionState & { jpeg: Buffer }>;
  /** Renders settings from the sources at full resolution. */
  export(frames: SourceFrame[], job: { settings: unknown; sky: SkySource | null }): Promise<DevelopedOutput>;
}

export interface CopilotDeps {
  repos: Repos;
  blobs: BlobStore;
  deliveries: DeliveriesService;
  projects: ProjectsService;
  planner: PhotoPlanner;
  skyTemplates: SkyTemplatesService;
  developer: CopilotDeveloper;
  interpret(instruction: string, settings: unknown): Promise<Interpretation>;
  tools: AiTool[];
  toolDelta(toolId: string): CopilotDelta;
}

export interface VersionResult {
  status: 'SUCCESS';
  version_id: number;
  enhanced_image_url: string;
  /** What the instruction or tool changed, as the engine understood it: "exposure +0.40 EV, temperature +600 K" (retouch's addition; clients that do not know it ignore it). */
  changes: string;
}

const FLOW: Record<ProjectSource, { flow: Project['flow']; kind: OutputKind }> = {
  REGULAR: { flow: 'regular', kind: 'export' },
  I2I: { flow: 'i2i', kind: 'i2i' },
};

/** The kind of output Copilot works on in the project's flow: the export, or the Smart Editing JPEGs. */
const outputKind = (project: Project): OutputKind => FLOW[project.flow === 'i2i' ? 'I2I' : 'REGULAR'].kind;

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

  /** The exported image a Copilot call names, with the settings it was rendered with. */
  private async exported(project: Project, fileName: string): Promise<Output> {
    const output = await this.deps.repos.outputs.byName(project.id, outputKind(project), fileName);
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
    return this.newVersion(project, fileName, parentVersionId, { instruction }, async (parent) => {
      const meaning = await this.deps.interpret(instruction, parent.settings);
      if (meaning.kind === 'unrealistic') throw new InvalidRequest('Only realistic editing requests are supported.');
      if (meaning.kind === 'not_understood') {
        throw new InvalidRequest(`The instruction was not understood. Copilot understands requests about ${meaning.understood.join(', ')}.`);
      }
      return meaning.delta;
    });
  }

  /** The state a new version builds on: a version of the chain, or the image's post-edit state. */
  private async parentState(project: Project, output: Output, parentId: number | null): Promise<VersionState> {
    if (parentId === null) return { settings: JSON.parse(output.settings!), rotate: 0 };
    const parent = (await this.deps.repos.copilotVersions.chain(project.id, output.file_name)).find((v) => v.id === parentId);
    if (!parent) throw new NotFound(`Version ${parentId} is not a version of "${output.file_name}".`);
    return { settings: JSON.parse(parent.settings), rotate: parent.rotate };
  }

  /** The source of an operator's sky template the settings use; built-ins need none. */
  private async sky(settings: unknown): Promise<SkySource | null> {
    const id = (settings as { sky?: { templateId: number } | null }).sky?.templateId;
    return id === undefined ? null : this.deps.skyTemplates.source(id);
  }

  private async newVersion(
    project: Project,
    fileName: string,
    parentId: number | null,
    request: Record<string, string>,
    deltaFor: (parent: VersionState) => Promise<CopilotDelta>,
  ): Promise<VersionResult> {
    const { repos, blobs, developer } = this.deps;
    const output = await this.exported(project, fileName);
    const parent = await this.parentState(project, output, parentId);
    const delta = await deltaFor(parent);
    const version = await developer.copilotVersion(await this.source(project, output), parent, delta, await this.sky(parent.settings));
    const row = await repos.copilotVersions.branch({
      project_id: project.id,
      file_name: fileName,
      parent_id: parentId,
      settings: JSON.stringify(version.settings),
      rotate: version.rotate,
      request: JSON.stringify(request),
      created_at: nowIso(),
    });
    const key = keys.version(project.uuid, fileName, row.id);
    await blobs.write(key, version.jpeg);
    return { status: 'SUCCESS', version_id: row.id, enhanced_image_url: await blobs.presignGet(key), changes: describeDelta(delta) };
  }

  /** The preview-size source of an image, decoded (and merged) once and kept. */
  private async source(project: Project, output: Output): Promise<Buffer> {
    const key = keys.source(project.uuid, output.file_name);
    if (await this.deps.blobs.head(key)) return this.deps.blobs.read(key);
    const source = await this.deps.developer.copilotSource(await this.deps.planner.framesOf(project, output));
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
   * own output, so the flow's download endpoints serve it; that version becomes the
   * image's post-edit state and its chain is cleared. Answers with every delivered image,
   * finalized or not, as the official SDKs expect ("final download URLs for all images"):
   * the same list however often it is called.
   */
  async finalize(project: Project): Promise<DownloadEntry[]> {
    const { repos, blobs, developer } = this.deps;
    const touched = await repos.copilotVersions.touched(project.id);
    // One image at a time: each is a full-resolution render.
    for (const fileName of touched) {
      const output = await this.exported(project, fileName);
      const chain = await repos.copilotVersions.chain(project.id, fileName);
      const latest = chain[chain.length - 1]!;
      const settings = JSON.parse(latest.settings);
      const turned = { ...output, rotate: (output.rotate + latest.rotate) % 360 };
      const developed = await developer.export(await this.deps.planner.framesOf(project, turned), { settings, sky: await this.sky(settings) });
      const key = storageKeys.output(project.uuid, output.kind, fileName);
      await blobs.write(key, developed.bytes);
      if (developed.thumbnail) await blobs.write(storageKeys.thumbnail(project.uuid, output.kind, fileName), developed.thumbnail);
      await repos.outputs.update(output.id, {
        settings: latest.settings,
        rotate: turned.rotate,
        thumbnail_of: developed.thumbnail ? ((await blobs.head(key))?.etag ?? null) : null,
        updated_at: nowIso(),
      });
      await repos.copilotVersions.reset(project.id, fileName);
      // The kept preview source predates the turn.
      await blobs.delete(keys.source(project.uuid, fileName));
    }
    return this.deps.deliveries.downloadLinks(project, outputKind(project));
  }
}
