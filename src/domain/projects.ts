import crypto from 'node:crypto';
import { isUniqueViolation } from '../db/connect.js';
import type { Repos } from '../db/repos/index.js';
import type { ProjectOrder } from '../db/repos/projects.js';
import type { Account, Project, ProjectFlow, ProjectState } from '../db/schema.js';
import { nowIso } from './clock.js';
import { Forbidden, InvalidRequest, NotFound } from './errors.js';
import { stageStatus } from './profile-editing.js';
import { editOptionsRecords } from './records/edit-options.js';

export type { Project, ProjectFlow };

/** Project status as the API shows it (reference §3). */
export type ProjectStatus = 'Pending' | 'In Progress' | 'Completed' | 'Failed';

const STATUS_OF_STATE: Record<ProjectState, ProjectStatus> = {
  created: 'Pending',
  queued: 'Pending',
  in_progress: 'In Progress',
  completed: 'Completed',
  failed: 'Failed',
};

export function projectStatus(state: ProjectState): ProjectStatus {
  return STATUS_OF_STATE[state];
}

/** What a client sees of a project (reference §2.1), in the domain's terms; http/presenters.ts writes it in the reference's. */
export interface ProjectView {
  id: number;
  uuid: string;
  name: string;
  /** Smart Editing: the project status; profile flow: the edit's, in the vocabulary of its status endpoint. */
  status: string;
  createdAt: string;
  numberOfImages: number;
  /** The profile of the edit; null before it and for Smart Editing. */
  profileKey: number | null;
  /** The options the edit turned on. */
  aiTools: string[];
  accountId: number;
  /** Profile flow: the export's status, null until requested; always null for Smart Editing. */
  exportStatus: string | null;
}

export function projectView(project: Project): ProjectView {
  const i2i = project.flow === 'i2i';
  return {
    id: project.id,
    uuid: project.uuid,
    name: project.name,
    status: i2i ? projectStatus(project.state) : stageStatus(project.state),
    createdAt: project.created_at,
    numberOfImages: project.number_of_images,
    profileKey: project.profile_id,
    aiTools: editOptionsRecords.aiTools.decode(project.ai_tools, `project ${project.id}`),
    accountId: project.account_id,
    exportStatus: i2i || project.export_state === null ? null : stageStatus(project.export_state),
  };
}

/** The list filter `status`; `processing` is everything not yet finished. */
export type StatusFilter = 'processing' | 'completed' | 'failed';

const STATES_OF_FILTER: Record<StatusFilter, ProjectState[]> = {
  processing: ['created', 'queued', 'in_progress'],
  completed: ['completed'],
  failed: ['failed'],
};

export interface ProjectListQuery {
  size: number;
  page: number;
  isArchived: boolean | null;
  search?: string | null;
  status?: StatusFilter | null;
  sortBy?: ProjectOrder | null;
}

export interface ProjectPage {
  projects: Project[];
  total: number;
}

/** Project uuids are made by crypto.randomUUID(): anything else names no project, and needs no database to say so. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** How many times a generated name is retried when a concurrent create took it. */
const GENERATED_NAME_ATTEMPTS = 5;

function generatedName(): string {
  const stamp = new Date().toISOString().slice(0, 19).replace('T', ' ');
  return `Project ${stamp} ${crypto.randomBytes(3).toString('hex')}`;
}

export class ProjectsService {
  constructor(private readonly repos: Repos) {}

  /** Creates a project; names are unique per account and flow, enforced by the database under races. */
  async create(account: Account, flow: ProjectFlow, name?: string | null): Promise<Project> {
    const attempts = name ? 1 : GENERATED_NAME_ATTEMPTS;
    for (let attempt = 1; ; attempt++) {
      const projectName = name || generatedName();
      const now = nowIso();
      try {
        return await this.repos.projects.insert({
          uuid: crypto.randomUUID(),
          account_id: account.id,
          flow,
          name: projectName,
          state: 'created',
          is_archived: 0,
          number_of_images: 0,
          ai_tools: editOptionsRecords.aiTools.encode([]),
          // Until the edit request: no options to read.
          options: '{}',
          callback_url: null,
          submitted_at: null,
          finished_at: null,
          profile_id: null,
          export_state: null,
          post_state: null,
          post_options: null,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (attempt >= attempts) throw new InvalidRequest(`A project named "${projectName}" already exists.`);
      }
    }
  }

  /** Best-effort check; create remains the authority under concurrency. */
  async isNameAvailable(account: Account, flow: ProjectFlow, name: string): Promise<boolean> {
    return (await this.repos.projects.byName(account.id, flow, name)) === undefined;
  }

  /** The project with this uuid in this flow, if the account owns it. */
  getOwned(account: Account, flow: ProjectFlow, uuid: string): Promise<Project> {
    return this.owned(account, uuid, flow);
  }

  /** The project with this uuid, of either flow, if the account owns it. */
  getOwnedAnyFlow(account: Account, uuid: string): Promise<Project> {
    return this.owned(account, uuid, null);
  }

  private async owned(account: Account, uuid: string, flow: ProjectFlow | null): Promise<Project> {
    const project = UUID.test(uuid) ? await this.repos.projects.byUuid(uuid) : undefined;
    if (!project || (flow !== null && project.flow !== flow)) throw new NotFound('Project not found');
    if (project.account_id !== account.id) throw new Forbidden("You don't have permission to access this project");
    return project;
  }

  /** A profile-based project by its name (names are unique per account). */
  async byName(account: Account, name: string): Promise<Project> {
    const project = await this.repos.projects.byName(account.id, 'regular', name);
    if (!project) throw new NotFound(`Project "${name}" not found`);
    return project;
  }

  async list(account: Account, flow: ProjectFlow, query: ProjectListQuery): Promise<ProjectPage> {
    const filter = {
      accountId: account.id,
      flow,
      isArchived: query.isArchived,
      search: query.search ?? null,
      states: query.status ? STATES_OF_FILTER[query.status] : null,
    };
    const [total, projects] = await Promise.all([this.repos.projects.count(filter), this.repos.projects.list(filter, query.sortBy ?? 'date', query.size, query.page * query.size)]);
    return { projects, total };
  }
}
