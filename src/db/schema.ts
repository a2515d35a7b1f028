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
}

export interface AccountsTable {
  id: Generated<number>;
  name: string;
  /** SHA-256 of the API key, hex; the key itself is never stored. */
  api_key_hash: string;
  /** Photos this account may have edited in all; null means unlimited. */
  trial_cap: number | null;
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
  created_at: string;
  updated_at: string;
}

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

export type Account = Selectable<AccountsTable>;
export type NewAccount = Insertable<AccountsTable>;
export type Project = Selectable<ProjectsTable>;
export type NewProject = Insertable<ProjectsTable>;
export type ProjectUpdate = Updateable<ProjectsTable>;
export type ProjectFile = Selectable<ProjectFilesTable>;
export type MultipartUpload = Selectable<MultipartUploadsTable>;
