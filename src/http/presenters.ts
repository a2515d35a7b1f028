import type { Project } from '../db/schema.js';
import { projectStatus } from '../domain/projects.js';
import type { ProjectItem } from './schemas.js';

export interface ItemExtras {
  thumbnailSrc: string | null;
}

/** A project as reference §2.1 shows it. */
export function projectItem(project: Project, extras: ItemExtras): ProjectItem {
  return {
    project_id: project.id,
    project_uuid: project.uuid,
    name: project.name,
    status: projectStatus(project.state),
    created_at: project.created_at,
    number_of_images: project.number_of_images,
    profile: null,
    ai_tools: JSON.parse(project.ai_tools) as string[],
    customer_reference_id: project.account_id,
    thumbnail_src: extras.thumbnailSrc,
    export_status: null,
  };
}
