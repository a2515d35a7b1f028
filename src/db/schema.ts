import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Column types shared by SQLite and PostgreSQL. Booleans are stored as 0/1 integers and
 * timestamps as ISO 8601 text so that one query code serves both engines.
 */
export interface Database {
  accounts: AccountsTable;
  projects: ProjectsTable;
  project_files: ProjectFilesTable;
  multipart_uploads: MultipartUploadsTable;
  settings: SettingsTable;
  outputs: OutputsTable;
  jobs: JobsTable;
  profiles: ProfilesTable;
  sky_templates: SkyTemplatesTable;
  copilot_versions: CopilotVersionsTable;
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  /** SHA-256 of the API key, hex; the key itself is never stored. */
  api_key_hash: string;
  /** Photos this account may have edited in all; null means unlimited. */
  trial_cap: number | null;
  /** Key of the HMAC signatures on this account's callbacks; made on first use. */
  webhook_secret: string | null;
  created_at: string;
}

export type ProjectFlow = 'i2i' | 'regular';

/** Internal project states; the API shows `created` and `queued` both as `Pending`. */
export type ProjectState = 'created' | 'queued' | 'in_progress' | 'completed' | 'failed';

export interface ProjectsTable {
  id: Generated<number>;
  uuid: string;
  account_id: number;
  flow: ProjectFlow;
  name: string;
  state: ProjectState;
  is_archived: number;
  number_of_images: number;
  /** JSON array of the enabled editing options. */
  ai_tools: string;
  /** JSON of the edit request's options, kept for the jobs that carry it out. */
  options: string;
  callback_url: string | null;
  submitted_at: string | null;
  finished_at: string | null;
  /** Profile-based flow: the profile of the edit. */
  profile_id: number | null;
  /** Profile-based flow: export to JPEG, null until requested. */
  export_state: StageState | null;
  /** Profile-based flow: post-editing of the exported JPEGs, null until requested. */
  post_state: StageState | null;
  post_options: string | null;
  created_at: string;
  updated_at: string;
}

/** The later stages of a profile-based project: a project state past `created`. */
export type StageState = Exclude<ProjectState, 'created'>;

export type ProjectFileRole = 'photo' | 'hdr_groups' | 'orientations';

export interface ProjectFilesTable {
  id: Generated<number>;
  project_id: number;
  file_name: string;
  role: ProjectFileRole;
  /** Base64 MD5 the client declared when it asked for the link, verified on upload. */
  md5: string | null;
  created_at: string;
}

export type MultipartState = 'open' | 'completed' | 'aborted';

export interface MultipartUploadsTable {
  /** The upload id handed to the client. */
  id: string;
  project_id: number;
  file_name: string;
  key: string;
  part_count: number;
  state: MultipartState;
  created_at: string;
}

export interface SettingsTable {
  name: string;
  value: string;
}

/**
 * What an output is: a Smart Editing JPEG; a profile edit's XMP sidecar (or merged HDR
 * image); an exported JPEG; a post-edited file; a Copilot-finalized JPEG.
 */
export type OutputKind = 'i2i' | 'edit' | 'export' | 'post' | 'final';
export type OutputState = 'pending' | 'done' | 'failed';

/** One delivered (or to-be-delivered) file of a project, and the sources it is made from. */
export interface OutputsTable {
  id: Generated<number>;
  project_id: number;
  kind: OutputKind;
  file_name: string;
  /** JSON array of the source photo names; several for an HDR group. */
  sources: string;
  state: OutputState;
  error: string | null;
  /** JSON DevelopSettings the output was rendered with. */
  settings: string | null;
  /** ETag of the output object the current thumbnail was made from. */
  thumbnail_of: string | null;
  /** Name of a second file delivered with this one (a merged HDR image beside its XMP). */
  companion: string | null;
  /** Clockwise quarter turns added after its sources' own orientation (a finalized Copilot rotation). */
  rotate: number;
  created_at: string;
  updated_at: string;
}

export type JobState = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** Unique: enqueueing the same key twice makes one job. */
  key: string;
  payload: string;
  state: JobState;
  /** Failures the handler reported; a take-over from a dead process is not one. */
  attempts: number;
  /** Times a worker claimed the job, take-overs included: bounds a job that kills every process running it. */
  takes: number;
  max_attempts: number;
  run_after: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export type ImageType = 'RAW' | 'JPG';

export interface ProfilesTable {
  /** The profile_key clients send. */
  id: Generated<number>;
  /** null: a built-in profile every account has. */
  account_id: number | null;
  /** Set on built-in profiles only, e.g. "natural:RAW", so seeding is idempotent. */
  builtin_key: string | null;
  name: string;
  /** BUILT_IN, XMP_AVERAGE (from Lightroom sidecars) or PERSONAL_AI (fitted from example edits). */
  profile_type: string;
  image_type: ImageType;
  /** JSON of the imaging Style the profile biases estimates with. */
  style: string;
  created_at: string;
}

export interface SkyTemplatesTable {
  id: Generated<number>;
  /** The imaging library's id of a built-in, procedurally generated template. */
  builtin_id: number | null;
  name: string;
  is_default: number;
  /** Object key of an operator-supplied template image. */
  image_key: string | null;
  created_at: string;
}

/**
 * One Copilot version of one exported image. The versions of an image form a chain from its
 * post-edit state: a new version from an earlier one discards those after it.
 */
export interface CopilotVersionsTable {
  /** The version_id clients see. */
  id: Generated<number>;
  project_id: number;
  /** The exported image's name. */
  file_name: string;
  /** null: built on the image's post-edit state. */
  parent_id: number | null;
  /** JSON DevelopSettings of this version. */
  settings: string;
  /** Clockwise quarter turns (0, 90, 180, 270) added to the post-edit state: settings have no field for it. */
  rotate: number;
  /** JSON of what made it: {instruction} or {tool_id}. */
  request: string;
  created_at: string;
}

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type Project = Selectable<ProjectsTable>;
export type NewProject = Insertable<ProjectsTable>;
export type ProjectUpdate = Updateable<ProjectsTable>;
export type ProjectFile = Selectable<ProjectFilesTable>;
export type MultipartUpload = Selectable<MultipartUploadsTable>;
export type Output = Selectable<OutputsTable>;
export type NewOutput = Insertable<OutputsTable>;
export type Job = Selectable<JobsTable>;
export type Profile = Selectable<ProfilesTable>;
export type SkyTemplate = Selectable<SkyTemplatesTable>;
export type CopilotVersion = Selectable<CopilotVersionsTable>;
