import type { ProjectView } from '../domain/projects.js';
import type { ProjectItem } from './schemas.js';

export interface ItemExtras {
  thumbnailSrc: string | null;
}

/**
 * A project as reference §2.1 shows it: Smart Editing projects have one status and no
 * profile or export; profile-based ones show their edit's profile key as a decimal
 * string, which is what the official SDKs parse.
 */
export function projectItem(project: ProjectView, extras: ItemExtras): ProjectItem {
  return {
    project_id: project.id,
    project_uuid: project.uuid,
    name: project.name,
    status: project.status,
    created_at: project.createdAt,
    number_of_images: project.numberOfImages,
    profile: project.profileKey === null ? null : String(project.profileKey),
    ai_tools: project.aiTools,
    customer_reference_id: project.accountId,
    thumbnail_src: extras.thumbnailSrc,
    export_status: project.exportStatus,
  };
}
