import type { Project } from '../db/schema.js';
import { stageStatus } from '../domain/profile-editing.js';
import { projectStatus } from '../domain/projects.js';
import type { ProjectItem } from './schemas.js';

export interface ItemExtras {
  thumbnailSrc: string | null;
}

/**
 * A project as reference §2.1 shows it. Smart Editing projects have one status and no
 * profile or export; profile-based ones show their edit and export in the status
 * vocabulary of their status endpoints, and their edit's profile key as a decimal string,
 * which is what the official SDKs parse.
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
    profile: project.profile_id === null ? null : String(project.profile_id),
    ai_tools: JSON.parse(project.ai_tools) as string[],
    customer_reference_id: project.account_id,
    thumbnail_src: extras.thumbnailSrc,
    export_status: i2i || project.export_state === null ? null : stageStatus(project.export_state),
  };
}
