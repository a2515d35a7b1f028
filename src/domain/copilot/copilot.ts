import type { Repos } from '../../db/repos/index.js';
import type { Output, OutputKind, Project, ProjectFlow } from '../../db/schema.js';
import type { DevelopSettings } from '../../imaging/settings.js';
import type { BlobStore } from '../blob-store.js';
import { nowIso } from '../clock.js';
import type { DeliveriesService, DownloadEntry } from '../deliveries.js';
import type { ImagingEngine, SkySource, VersionState } from '../engine.js';
import { InvalidRequest, NotFound } from '../errors.js';
import type { PhotoPlanner } from '../photo-plan.js';
import { type VersionRequest, versionRequestRecord } from '../records/copilot-versions.js';
import { developSettingsRecord, settingsOf } from '../records/outputs.js';
import type { SkyTemplatesService } from '../sky-templates.js';
import { storageKeys } from '../storage-keys.js';
import { type CopilotDelta, describeDelta, type Interpretation } from './instructions/index.js';
import type { AiTool } from './tools.js';

/** Which flow a Copilot call is about (reference §2.4): profile-based (REGULAR) or Smart Editing (I2I). */
export type ProjectSource = 'REGULAR' | 'I2I';

export interface CopilotDeps {
  repos: Repos;
  blobs: BlobStore;
  deliveries: DeliveriesService;
  planner: PhotoPlanner;
  skyTemplates: SkyTemplatesService;
  /** The engine's part of Copilot, on an imaging thread of its own so it never waits behind a batch. */
  engine: Pick<ImagingEngine, 'copilotSource' | 'copilotVersion' | 'export'>;
  interpret(instruction: string, settings: DevelopSettings): Promise<Interpretation>;
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

/** The flow of the projects a Copilot call names by its project_source. */
export const copilotFlow = (source: ProjectSource): ProjectFlow => (source === 'I2I' ? 'i2i' : 'regular');

/** The kind of output Copilot works on in the project's flow: the export, or the Smart Editing JPEGs. */
const outputKind = (project: Project): OutputKind => (project.flow === 'i2i' ? 'i2i' : 'export');

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

  /** Every Copilot call needs its project Completed and exported once (reference §3 rule 5). */
  private ready(project: Project): void {
    if (project.state !== 'completed' || project.export_state !== 'completed') throw new InvalidRequest('Project has not been exported yet.');
  }

  tools(project: Project): AiTool[] {
    this.ready(project);
    return this.deps.tools;
  }

  /** The exported image a Copilot call names, with the settings it was rendered with. */
  private async exported(project: Project, fileName: string): Promise<{ output: Output; settings: DevelopSettings }> {
    const output = await this.deps.repos.outputs.byName(project.id, outputKind(project), fileName);
    const settings = output?.state === 'done' ? settingsOf(output) : null;
    if (!output || !settings) throw new NotFound(`Image "${fileName}" is not among the exported images of this project.`);
    return { output, settings };
  }

  async enhance(project: Project, fileName: string, toolId: string, parentVersionId: number | null): Promise<VersionResult> {
    this.ready(project);
    if (!this.deps.tools.some((t) => t.enhancement_type === toolId)) {
      throw new InvalidRequest(`Unknown tool_id "${toolId}". Valid tool ids: ${this.deps.tools.map((t) => t.enhancement_type).join(', ')}.`);
    }
    return this.newVersion(project, fileName, parentVersionId, { tool_id: toolId }, async () => this.deps.toolDelta(toolId));
  }

  async prompt(project: Project, fileName: string, instruction: string, parentVersionId: number | null): Promise<VersionResult> {
    this.ready(project);
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
  private async parentState(project: Project, image: { output: Output; settings: DevelopSettings }, parentId: number | null): Promise<VersionState> {
    if (parentId === null) return { settings: image.settings, rotate: 0 };
    const parent = (await this.deps.repos.copilotVersions.chain(project.id, image.output.file_name)).find((v) => v.id === parentId);
    if (!parent) throw new NotFound(`Version ${parentId} is not a version of "${image.output.file_name}".`);
    return { settings: developSettingsRecord.decode(parent.settings, `Copilot version ${parent.id}`), rotate: parent.rotate };
  }

  /** The source of the sky template the settings use. */
  private async sky(settings: DevelopSettings): Promise<SkySource | null> {
    return settings.sky ? this.deps.skyTemplates.source(settings.sky.templateId) : null;
  }

  private async newVersion(project: Project, fileName: string, parentId: number | null, request: VersionRequest, deltaFor: (parent: VersionState) => Promise<CopilotDelta>): Promise<VersionResult> {
    const { repos, blobs, engine } = this.deps;
    const image = await this.exported(project, fileName);
    const parent = await this.parentState(project, image, parentId);
    const delta = await deltaFor(parent);
    const version = await engine.copilotVersion(await this.source(project, image.output), parent, delta, await this.sky(parent.settings));
    const row = await repos.copilotVersions.branch({
      project_id: project.id,
      file_name: fileName,
      parent_id: parentId,
      settings: developSettingsRecord.encode(version.settings),
      rotate: version.rotate,
      request: versionRequestRecord.encode(request),
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
    const source = await this.deps.engine.copilotSource(await this.deps.planner.framesOf(project, output));
    await this.deps.blobs.write(key, source);
    return source;
  }

  /** Discards every version of one image: it is back to its post-edit state. */
  async reset(project: Project, fileName: string): Promise<{ file_name: string; discarded_versions: number }> {
    this.ready(project);
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
    this.ready(project);
    const { repos, blobs, engine } = this.deps;
    const touched = await repos.copilotVersions.touched(project.id);
    // One image at a time: each is a full-resolution render.
    for (const fileName of touched) {
      const { output } = await this.exported(project, fileName);
      const chain = await repos.copilotVersions.chain(project.id, fileName);
      const latest = chain[chain.length - 1]!;
      const settings = developSettingsRecord.decode(latest.settings, `Copilot version ${latest.id}`);
      const turned = { ...output, rotate: (output.rotate + latest.rotate) % 360 };
      const developed = await engine.export(await this.deps.planner.framesOf(project, turned), { settings, sky: await this.sky(settings) });
      const key = storageKeys.output(project.uuid, output.kind, fileName);
      await blobs.write(key, developed.bytes);
      if (developed.thumbnail) await blobs.write(storageKeys.thumbnail(project.uuid, output.kind, fileName), developed.thumbnail);
      await repos.outputs.update(output.id, {
        settings: developSettingsRecord.encode(settings),
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
