import path from 'node:path';
import type { Repos } from '../db/repos/index.js';
import type { Output, Project } from '../db/schema.js';
import { groupBrackets, middleFrame } from '../imaging/hdr/index.js';
import type { BlobStore } from './blob-store.js';
import type { PlannedOutput } from './batch.js';
import type { FrameInfo, ImagingEngine, SourceFrame } from './engine.js';
import { parseHdrGroups, parseOrientations, type Rotation } from './manifests.js';
import { sourcesOf } from './records/outputs.js';
import { storageKeys } from './storage-keys.js';
import type { UploadsService } from './uploads.js';

/** `IMG_1.CR2` → `IMG_1.jpg`; a name already taken gets ` (2)`, ` (3)`... */
export function outputName(source: string, extension: string, taken: Set<string>): string {
  const base = path.parse(source).name;
  let name = `${base}${extension}`;
  for (let n = 2; taken.has(name); n++) name = `${base} (${n})${extension}`;
  taken.add(name);
  return name;
}

export interface PhotoPlanDeps {
  repos: Repos;
  blobs: BlobStore;
  uploads: UploadsService;
  /** Reads a photo's metadata (off the API's thread). */
  frameInfo: ImagingEngine['frameInfo'];
}

/** Turns a project's photos into outputs, and loads an output's source frames. */
export class PhotoPlanner {
  constructor(private readonly deps: PhotoPlanDeps) {}

  /**
   * One output per photo; with `hdr`, one per bracket group (from the uploaded manifest,
   * else from EXIF capture times and exposures), named after its middle exposure.
   */
  async plan(project: Project, options: { hdr: boolean; extension: string }): Promise<PlannedOutput[]> {
    const { repos, blobs, uploads } = this.deps;
    const photos = (await repos.files.list(project.id, 'photo')).map((f) => f.file_name);
    let groups = photos.map((p) => [p]);
    let infos = new Map<string, FrameInfo>();
    if (options.hdr) {
      const frames = await Promise.all(photos.map(async (name) => this.deps.frameInfo(await blobs.read(storageKeys.original(project.uuid, name)), name)));
      infos = new Map(frames.map((f) => [f.fileName, f]));
      const manifest = await uploads.readManifest(project, 'hdr_groups');
      const listed = manifest !== null ? parseHdrGroups(manifest, new Set(photos)) : groupBrackets(frames);
      const grouped = new Set(listed.flat());
      groups = [...listed, ...photos.filter((p) => !grouped.has(p)).map((p) => [p])];
    }
    const taken = new Set<string>();
    return groups.map((sources) => {
      const named = sources.length > 1 ? middleFrame(sources.map((s) => infos.get(s)!)) : sources[0]!;
      return { fileName: outputName(named, options.extension, taken), sources };
    });
  }

  /**
   * What an output is rendered from: its source photos, or for an export, the sources of
   * the edit it exports (the merged image, when the edit merged a bracket).
   */
  async framesOf(project: Project, output: Output): Promise<SourceFrame[]> {
    const turned = (frames: SourceFrame[]) => frames.map((f) => ({ ...f, rotate: ((f.rotate + output.rotate) % 360) as Rotation }));
    const sources = sourcesOf(output);
    if (output.kind !== 'export') return turned(await this.frames(project, sources));
    const edit = await this.deps.repos.outputs.byName(project.id, 'edit', sources[0]!);
    if (!edit) throw new Error(`export ${output.file_name} has no edit ${sources[0]}`);
    if (!edit.companion) return turned(await this.frames(project, sourcesOf(edit)));
    return turned([{ fileName: edit.companion, bytes: await this.deps.blobs.read(storageKeys.output(project.uuid, 'edit', edit.companion)), rotate: 0 }]);
  }

  /** The source photos of an output, rotated as the orientations file says. */
  async frames(project: Project, sources: string[]): Promise<SourceFrame[]> {
    const manifest = await this.deps.uploads.readManifest(project, 'orientations');
    // The photo list is read only when there is a manifest to check against it.
    const rotations = manifest !== null ? parseOrientations(manifest, new Set((await this.deps.repos.files.list(project.id, 'photo')).map((f) => f.file_name))) : new Map<string, Rotation>();
    return Promise.all(
      sources.map(async (fileName) => ({
        fileName,
        bytes: await this.deps.blobs.read(storageKeys.original(project.uuid, fileName)),
        rotate: rotations.get(fileName) ?? 0,
      })),
    );
  }
}
