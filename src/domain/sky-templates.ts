import { isUniqueViolation } from '../db/connect.js';
import type { Repos } from '../db/repos/index.js';
import type { SkyTemplate } from '../db/schema.js';
import type { BlobStore } from './blob-store.js';
import { nowIso } from './clock.js';
import type { ImagingEngine, SkySource } from './engine.js';
import { InvalidRequest, NotFound } from './errors.js';
import type { EditRequest } from './records/edit-request.js';

/** A template the imaging library makes itself (procedural skies). */
export interface BuiltInSkyTemplate {
  id: number;
  name: string;
  isDefault: boolean;
}

export interface SkyTemplateEntry {
  id: number;
  name: string;
  is_default: boolean;
  preview_link: string;
}

/** An id for trying an image out before it has one of its own. */
const CHECK_ID = Number.MAX_SAFE_INTEGER;

const previewKey = (id: number) => `sky-templates/${id}/preview.jpg`;
const imageKey = (id: number) => `sky-templates/${id}/template.jpg`;

/** Sky templates: the built-in procedural skies and those operators add. */
export class SkyTemplatesService {
  constructor(
    private readonly repos: Repos,
    private readonly blobs: BlobStore,
    /** Renders the templates' previews. */
    private readonly engine: Pick<ImagingEngine, 'skyPreview'>,
  ) {}

  async ensureBuiltIns(templates: BuiltInSkyTemplate[]): Promise<void> {
    const now = nowIso();
    await this.repos.skyTemplates.insertBuiltIns(templates.map((t) => ({ id: t.id, builtin_id: t.id, name: t.name, is_default: t.isDefault ? 1 : 0, image_key: null, created_at: now })));
  }

  async ids(): Promise<number[]> {
    return (await this.repos.skyTemplates.list()).map((t) => t.id);
  }

  /** The template an edit asked for, or the default one. */
  async resolve(id: number | null): Promise<SkyTemplate> {
    const templates = await this.repos.skyTemplates.list();
    const chosen = id === null ? (templates.find((t) => t.is_default === 1) ?? templates[0]) : templates.find((t) => t.id === id);
    if (!chosen) throw new InvalidRequest(`Sky template ${id} not found. Available templates: ${templates.map((t) => t.id).join(', ')}.`);
    return chosen;
  }

  /** The request with its sky template fixed: the one named, or the default one now, so that a later change of default does not change the edit. */
  async fixTemplate(request: EditRequest): Promise<EditRequest> {
    return request.skyReplacement ? { ...request, skyTemplateId: (await this.resolve(request.skyTemplateId)).id } : request;
  }

  /** What the engine needs to paint the sky an edit asked for; null when it asked for none. */
  async forEdit(request: EditRequest): Promise<SkySource | null> {
    return request.skyReplacement && request.skyTemplateId !== null ? this.source(request.skyTemplateId) : null;
  }

  async source(id: number): Promise<SkySource> {
    const template = await this.repos.skyTemplates.byId(id);
    if (!template) throw new NotFound(`Sky template ${id} not found.`);
    return template.builtin_id !== null ? { builtinId: template.builtin_id } : { id: template.id, image: await this.blobs.read(template.image_key!) };
  }

  /** The list clients see, previews made on first request and kept. */
  async entries(): Promise<SkyTemplateEntry[]> {
    const templates = await this.repos.skyTemplates.list();
    return Promise.all(
      templates.map(async (t) => {
        if (!(await this.blobs.head(previewKey(t.id)))) await this.blobs.write(previewKey(t.id), await this.engine.skyPreview(await this.source(t.id)));
        return { id: t.id, name: t.name, is_default: t.is_default === 1, preview_link: await this.blobs.presignGet(previewKey(t.id)) };
      }),
    );
  }

  /** Adds an operator's sky photo as a template. */
  async add(name: string, image: Buffer, makeDefault: boolean): Promise<SkyTemplate> {
    // Rendering its preview proves the image usable before anything is stored.
    const preview = await this.engine.skyPreview({ id: CHECK_ID, image }).catch((err: Error) => {
      throw new InvalidRequest(`The sky image cannot be used: ${err.message}`);
    });
    let template: SkyTemplate | undefined;
    for (let attempt = 0; !template; attempt++) {
      try {
        template = await this.repos.skyTemplates.insertCustom({ builtin_id: null, name, is_default: 0, image_key: null, created_at: nowIso() });
      } catch (err) {
        if (!isUniqueViolation(err) || attempt >= 5) throw err;
      }
    }
    await this.blobs.write(imageKey(template.id), image);
    await this.blobs.write(previewKey(template.id), preview);
    await this.repos.skyTemplates.setImageKey(template.id, imageKey(template.id));
    if (makeDefault) await this.repos.skyTemplates.setDefault(template.id);
    return (await this.repos.skyTemplates.byId(template.id))!;
  }
}
