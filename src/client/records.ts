/** The records of the public API as clients receive them (reference §2, docs/*.md). */

/** Smart Editing (`/v1/i2i/projects`) or the profile-based flow (`/v1/projects`). */
export type Flow = 'i2i' | 'regular';

export interface ProfileRecord {
  profile_key: number;
  profile_name: string;
  profile_type: string;
  image_type: 'RAW' | 'JPG';
}

export interface ProjectItem {
  project_id: number;
  project_uuid: string;
  name: string;
  status: string;
  created_at: string;
  number_of_images: number;
  profile: ProfileRecord | null;
  ai_tools: string[];
  customer_reference_id: number;
  thumbnail_src: string | null;
  export_status: string | null;
}

export interface ProjectList {
  projects: ProjectItem[];
  pagination: { total: number; size: number; page: number };
}

export interface DownloadEntry {
  file_name: string;
  download_link: string;
}

export interface UploadEntry {
  file_name: string;
  upload_link: string;
}

export interface ThumbnailEntry {
  file_name: string;
  is_thumbnail: boolean;
  thumbnail_link: string;
}

export interface MultipartStart {
  upload_id: string;
  key: string;
  parts: { part_number: number; upload_url: string }[];
}

export interface SkyTemplate {
  id: number;
  name: string;
  is_default: boolean;
  preview_link: string;
}

/** A profile-flow stage: the edit, the export or the post-editing. */
export type Stage = 'edit' | 'export' | 'post_editing';

export interface StageStatus {
  status: 'Pending' | 'Processing' | 'Completed' | 'Failed';
  progress: number;
  details: string | null;
}

export interface SmartEditOptions {
  hdr_merge?: boolean;
  perspective_correction?: boolean;
  sky_replacement?: boolean;
  sky_replacement_template_id?: number;
}

/** The options both flows' edit requests share, each sent only when on (they are off by default). */
export function editOptions(o: { hdr?: boolean; perspective?: boolean; sky?: boolean; skyTemplate?: number | null }): SmartEditOptions {
  return {
    ...(o.hdr ? { hdr_merge: true } : {}),
    ...(o.perspective ? { perspective_correction: true } : {}),
    ...(o.sky ? { sky_replacement: true, ...(o.skyTemplate != null ? { sky_replacement_template_id: o.skyTemplate } : {}) } : {}),
  };
}

export interface ProfileEditOptions extends SmartEditOptions {
  profile_key: number;
  photography_type?: string;
  window_pull?: boolean;
  smooth_skin?: boolean;
}

export interface PostEditOptions {
  resize_long_edge?: number | null;
  output_format?: 'JPEG' | 'PNG' | 'TIFF' | 'WEBP';
  quality?: number;
  watermark?: { text: string; position?: string; opacity?: number } | null;
  strip_metadata?: boolean;
  color_space?: 'sRGB' | 'DISPLAY_P3';
}

export interface AiTool {
  enhancement_type: string;
  label: string;
  enabled_for_batch: boolean;
}

export interface CopilotVersion {
  status: string;
  version_id: number;
  enhanced_image_url: string;
  /** What the version changed, as the engine understood it. */
  changes: string;
}

/** Copilot's name for a flow (reference §2.4). */
export function projectSource(flow: Flow): 'I2I' | 'REGULAR' {
  return flow === 'i2i' ? 'I2I' : 'REGULAR';
}
