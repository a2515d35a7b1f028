/**
 * The imaging engine as the domain needs it: what each flow asks of it, in the domain's
 * terms (photos as bytes, the stored edit request, settings as records). The adapter in
 * jobs/imaging-pool.ts implements it on worker threads over the pure library in imaging/.
 */
import type { EditRequest } from '../imaging/edit-request.js';
import type { BracketCandidate } from '../imaging/hdr/index.js';
import type { PostOptions } from '../imaging/post.js';
import type { DevelopSettings, Style } from '../imaging/settings.js';
import type { CopilotDelta } from './copilot/instructions/index.js';
import type { Rotation } from './manifests.js';

/** A source photo as the engine receives it. */
export interface SourceFrame {
  fileName: string;
  bytes: Buffer;
  /** Clockwise degrees from the orientations file, after the photo's own EXIF orientation. */
  rotate: Rotation;
}

/** A photo and its metadata, for bracket grouping. */
export type FrameInfo = BracketCandidate;

/**
 * What the renderer needs to paint a sky template: built-ins (ids 1..) it makes itself; an
 * operator's template (ids from 100) comes as its image.
 */
export type SkySource = { builtinId: number } | { id: number; image: Buffer };

/** A photo given to the engine on its own: its name, for messages, and its encoded bytes. */
export interface Photo {
  fileName: string;
  bytes: Buffer;
}

/** What developing one output gives. */
export interface DevelopedOutput {
  bytes: Buffer;
  /** A JPEG for thumbnail links; none for files that are not images of their own. */
  thumbnail: Buffer | null;
  /** The DevelopSettings it was made with, kept for later stages and Copilot. */
  settings?: DevelopSettings;
  /** A second file delivered with it: a merged HDR image beside its XMP. */
  companion?: { fileName: string; bytes: Buffer };
}

/**
 * What the engine throws when it could not develop the photo (corrupt, unsupported): the
 * photo's fault, unlike storage or database trouble on the way.
 */
export class DevelopError extends Error {}

/** A Copilot version's state: its settings and the quarter turns it adds to the post-edit state. */
export interface VersionState {
  settings: DevelopSettings;
  rotate: number;
}

export interface ImagingEngine {
  /** Reads a photo's metadata for bracket grouping, with a luma thumbnail when its EXIF lacks an exposure or a capture time. */
  frameInfo(bytes: Buffer, fileName: string): Promise<FrameInfo>;
  /** Smart Editing: develops frames (merged when several) into a finished JPEG. */
  developI2i(frames: SourceFrame[], request: EditRequest, sky: SkySource | null): Promise<DevelopedOutput>;
  /** Profile flow: estimates settings (biased by the profile's style) and writes them as an XMP sidecar, with a rendered preview. */
  edit(frames: SourceFrame[], job: { request: EditRequest; style: Style; sky: SkySource | null; mergedName: string }): Promise<DevelopedOutput>;
  /** Renders settings from the sources at full resolution to a JPEG. */
  export(frames: SourceFrame[], job: { settings: DevelopSettings; sky: SkySource | null }): Promise<DevelopedOutput>;
  /** Resizes, watermarks, converts an exported JPEG. */
  post(source: Photo, options: PostOptions): Promise<DevelopedOutput>;
  /** A small JPEG of a delivered image. */
  thumbnail(source: Photo): Promise<Buffer>;
  /** A small JPEG preview of a sky template. */
  skyPreview(sky: SkySource): Promise<Buffer>;
  /** Copilot: the output's source at preview size, 16-bit, kept for every later version of it. */
  copilotSource(frames: SourceFrame[]): Promise<Buffer>;
  /** Copilot: applies a delta to the parent's state (applyCopilotDeltaToPhoto, run beside the photo) and renders the preview. */
  copilotVersion(source: Buffer, parent: VersionState, delta: CopilotDelta, sky: SkySource | null): Promise<VersionState & { jpeg: Buffer }>;
}
