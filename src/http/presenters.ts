import type { Profile, Project } from '../db/schema.js';
import { stageStatus } from '../domain/profile-editing.js';
import { profileRecord } from '../domain/profiles.js';
import { projectStatus } from '../domain/projects.js';
import type { ProjectItem } from './schemas.js';

export interface ItemExtras {
  thumbnailSrc: string | null;
  /** The profile of a profile-based project's edit. */
  profile?: Profile | undefined;
}

/**
 * A project as reference §2.1 shows it. Smart Editing projects have one status and no
 * profile or export; profile-based ones show their edit and export in the status
 * vocabulary of their status endpoints.
 */
export function projectItem(project: Project, extras: ItemExtras): ProjectItem {
  const i2i = project.flow === 'i2i';
  return {
    project_id: project.id,
    project_uuid: project.uuid,
    name: project.name,
    status: i2i ? projectStatus(project.state) : stageStatus(project.state),
    created_at: project.created_at,
    number_of_images: project.number_of_images,
    profile: extras.profile ? profileRecord(extras.profile) : null,
    ai_tools: JSON.parse(project.ai_tools) as string[],
    customer_reference_id: project.account_id,
    thumbnail_src: extras.thumbnailSrc,
    export_status: i2i || project.export_state === null ? null : stageStatus(project.export_state),
  };
}
