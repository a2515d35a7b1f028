import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { AccountsRepo } from './accounts.js';
import { CopilotVersionsRepo } from './copilot-versions.js';
import { MultipartUploadsRepo } from './multipart-uploads.js';
import { OutputsRepo } from './outputs.js';
import { ProfilesRepo, SkyTemplatesRepo } from './profiles.js';
import { ProjectFilesRepo } from './project-files.js';
import { ProjectsRepo } from './projects.js';
import { SettingsRepo } from './settings.js';

export interface Repos {
  accounts: AccountsRepo;
  projects: ProjectsRepo;
  files: ProjectFilesRepo;
  multipart: MultipartUploadsRepo;
  settings: SettingsRepo;
  outputs: OutputsRepo;
  profiles: ProfilesRepo;
  skyTemplates: SkyTemplatesRepo;
  copilotVersions: CopilotVersionsRepo;
}

export function createRepos(db: Kysely<Database>): Repos {
  return {
    accounts: new AccountsRepo(db),
    projects: new ProjectsRepo(db),
    files: new ProjectFilesRepo(db),
    multipart: new MultipartUploadsRepo(db),
    settings: new SettingsRepo(db),
    outputs: new OutputsRepo(db),
    profiles: new ProfilesRepo(db),
    skyTemplates: new SkyTemplatesRepo(db),
    copilotVersions: new CopilotVersionsRepo(db),
  };
}
