/**
 * The functions the imaging worker threads run (src/jobs/imaging-pool.ts): the service's
 * requests handed to the imaging library, an edit's EditRequest as the project stored it.
 * Input bytes arrive moved, not copied; the results (encoded files) are copied back.
 */
import { applyCopilotDeltaToPhoto, type CopilotDelta } from '../domain/copilot/instructions/index.js';
import { decodeImage } from '../imaging/decode.js';
import { type Developed, developFinished, developSidecar, developWithSettings, type SourceFrame, sourceImage } from '../imaging/develop.js';
import { encodeJpeg, encodeThumbnail, encodeTiff16 } from '../imaging/encode.js';
import type { EditRequest } from '../imaging/edit-request.js';
import { bracketCandidate } from '../imaging/bracket-candidate.js';
import type { BracketCandidate } from '../imaging/hdr/index.js';
import { type PostOptions, postEdit as post } from '../imaging/post.js';
import { render, type RenderContext } from '../imaging/render.js';
import type { DevelopSettings, Style } from '../imaging/settings.js';
import { type SkyTemplate, skyTemplateFromImage, skyTemplatePreview } from '../imaging/sky/templates.js';
import { asBuffer } from './transfer.js';
import { helpWithBands } from '../imaging/bands.js';
import { lowerImagingThread } from './thread-priority.js';
import { workerData } from 'piscina';

// Between its own tasks, and while they wait on libvips, this thread develops bands of the other threads' photos.
helpWithBands();
// Below the API's event loop (ImagingPool passes IMAGING_NICE).
lowerImagingThread((workerData as { nice?: number } | undefined)?.nice ?? 0);

/** A source frame as it crosses the thread boundary. */
export interface FrameBytes {
  fileName: string;
  rotate: 0 | 90 | 180 | 270;
  bytes: Uint8Array;
}

/** An operator's sky template as it crosses the thread boundary. */
export type SkyBytes = { builtinId: number } | { id: number; image: Uint8Array };

/** Long edge of Copilot's working copy: previews render from it in well under a second. */
export const COPILOT_PREVIEW_EDGE = 2048;

const frames = (list: FrameBytes[]): SourceFrame[] => list.map((f) => ({ ...f, bytes: asBuffer(f.bytes) }));

/** The render context for a job's sky: operators' templates come as images, built-ins need nothing. */
async function skyContext(sky: SkyBytes | null): Promise<RenderContext> {
  if (!sky || 'builtinId' in sky) return {};
  const template: SkyTemplate = await skyTemplateFromImage(asBuffer(sky.image), { id: sky.id, name: `template ${sky.id}` });
  return { skyTemplates: new Map([[sky.id, template]]) };
}

export async function developI2i(input: { frames: FrameBytes[]; request: EditRequest; sky: SkyBytes | null }): Promise<Developed> {
  return developFinished(frames(input.frames), { options: input.request }, await skyContext(input.sky));
}

export async function developEdit(input: { frames: FrameBytes[]; request: EditRequest; style: Style; sky: SkyBytes | null; mergedName: string }): Promise<Developed> {
  return developSidecar(frames(input.frames), { style: input.style, options: input.request, mergedName: input.mergedName }, await skyContext(input.sky));
}

export async function exportPhoto(input: { frames: FrameBytes[]; settings: DevelopSettings; sky: SkyBytes | null }): Promise<Developed> {
  return developWithSettings(frames(input.frames), input.settings, await skyContext(input.sky));
}

export async function postEdit(input: { bytes: Uint8Array; options: PostOptions }): Promise<Developed> {
  const bytes = await post(asBuffer(input.bytes), input.options);
  const preview = await decodeImage(bytes, { maxLongEdge: 1024 });
  return { bytes, thumbnail: await encodeThumbnail(preview.image) };
}

/** A photo's metadata for bracket grouping, with a luma thumbnail when its EXIF lacks an exposure or a capture time. */
export function frameInfo(input: { bytes: Uint8Array; fileName: string }): Promise<BracketCandidate> {
  return bracketCandidate(asBuffer(input.bytes), input.fileName);
}

export async function thumbnail(input: { bytes: Uint8Array }): Promise<Buffer> {
  const decoded = await decodeImage(asBuffer(input.bytes), { maxLongEdge: 1024 });
  return encodeThumbnail(decoded.image);
}

export async function skyPreview(input: { sky: SkyBytes }): Promise<Buffer> {
  const { sky } = input;
  return skyTemplatePreview('builtinId' in sky ? sky.builtinId : await skyTemplateFromImage(asBuffer(sky.image), { id: sky.id, name: `template ${sky.id}` }));
}

/** A Copilot version: the parent's state with the delta applied (detectors run where it asks), rendered at preview size. */
export async function copilotVersion(input: { source: Uint8Array; parent: { settings: DevelopSettings; rotate: number }; delta: CopilotDelta; sky: SkyBytes | null }) {
  const { parent, delta } = input;
  const source = asBuffer(input.source);
  const turned = async (degrees: number) => (await decodeImage(source, { rotate: (degrees % 360) as 0 | 90 | 180 | 270 })).image;
  let image = await turned(parent.rotate);
  const applied = applyCopilotDeltaToPhoto(parent.settings, delta, image);
  // Decoding the 16-bit working copy again, turned, is cheaper than turning the pixels here.
  if (applied.rotate !== 0) image = await turned(parent.rotate + applied.rotate);
  const rendered = await render(image, applied.settings, await skyContext(input.sky));
  return { jpeg: await encodeJpeg(rendered, { quality: 88 }), settings: applied.settings, rotate: (parent.rotate + applied.rotate) % 360 };
}

/** Copilot's working copy of an output's source: decoded (merged) at preview size, kept as a 16-bit TIFF. */
export async function copilotSource(input: { frames: FrameBytes[] }): Promise<Buffer> {
  const source = await sourceImage(frames(input.frames), { maxLongEdge: COPILOT_PREVIEW_EDGE });
  return encodeTiff16(source.image, { metadata: source.metadata });
}
