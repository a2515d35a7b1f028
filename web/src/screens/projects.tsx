import { useMemo, useRef, useState } from 'preact/hooks';
import type { RetouchClient } from '../../../src/client/api.js';
import type { Flow, ProjectItem } from '../../../src/client/records.js';
import { ErrorNote, Field, formatDate, Link, StatusBadge } from '../components/basics.js';
import { paths } from '../routes.js';
import { useSession } from '../session.js';
import { usePoll } from '../use-poll.js';

const PAGE_SIZE = 12;

export type ListedProject = ProjectItem & { flow: Flow };

/**
 * Both flows' projects, newest first. The two lists are paged separately by the API and
 * only the Smart Editing one can search, so the app reads both whole (100 a call) and
 * searches and pages them here.
 */
async function allProjects(client: RetouchClient): Promise<ListedProject[]> {
  const all: ListedProject[] = [];
  for (const flow of ['i2i', 'regular'] as const) {
    for (let page = 0; ; page++) {
      const list = await client.projects(flow, page, 100);
      all.push(...list.projects.map((p) => ({ ...p, flow })));
      if ((page + 1) * 100 >= list.pagination.total || list.projects.length === 0) break;
    }
  }
  return all.sort((a, b) => b.created_at.localeCompare(a.created_at));
}

/** The one word a list shows: a profile project is "Exported" once its JPEGs are. */
function shownStatus(p: ListedProject): string {
  if (p.flow === 'regular' && p.status === 'Completed' && p.export_status) return p.export_status === 'Completed' ? 'Exported' : p.export_status;
  return p.status;
}

export function Projects() {
  const { client } = useSession();
  const [projects, setProjects] = useState<ListedProject[] | null>(null);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const opened = useRef(Date.now());

  // Read again while an edit runs, so its status and thumbnail appear here.
  const error = usePoll(
    async () => {
      const all = await allProjects(client);
      setProjects(all);
      return !all.some((p) => ['Pending', 'In Progress', 'Processing'].includes(shownStatus(p)) && p.number_of_images > 0);
    },
    () => opened.current,
    [client],
  );

  const found = useMemo(() => {
    const words = search.trim().toLowerCase();
    return (projects ?? []).filter((p) => p.name.toLowerCase().includes(words));
  }, [projects, search]);
  const pages = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
  const shown = found.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);

  return (
    <main class="page">
      <div class="page-head">
        <h1>Projects</h1>
        <Link class="btn btn-primary" href={paths.newProject()}>
          New project
        </Link>
      </div>
      <ErrorNote error={error} />
      {projects === null && !error && <p class="muted">Loading projects…</p>}
      {projects !== null && projects.length === 0 && (
        <div class="card empty">
          <h2>No projects yet</h2>
          <p>Start with a folder of photos from a shoot: retouch edits them and you download the results.</p>
          <Link class="btn btn-primary" href={paths.newProject()}>
            Edit your first photos
          </Link>
        </div>
      )}
      {projects !== null && projects.length > 0 && (
        <>
          <Field label="Search projects" class="search">
            {(id) => (
              <input
                id={id}
                type="search"
                placeholder="Project name"
                value={search}
                onInput={(e) => {
                  setSearch(e.currentTarget.value);
                  setPage(0);
                }}
              />
            )}
          </Field>
          {found.length === 0 && <p class="muted">No project name contains “{search}”.</p>}
          <ul class="project-grid">
            {shown.map((p) => (
              <li key={p.project_uuid}>
                <Link class="project-card" href={paths.project(p.flow, p.project_uuid)}>
                  <div class="project-thumb">{p.thumbnail_src ? <img src={p.thumbnail_src} alt="" loading="lazy" /> : <span>No preview yet</span>}</div>
                  <div class="project-meta">
                    <h2>{p.name}</h2>
                    <p>
                      <StatusBadge status={shownStatus(p)} /> {p.number_of_images} {p.number_of_images === 1 ? 'photo' : 'photos'}
                    </p>
                    <p class="muted small">
                      {p.flow === 'i2i' ? 'Smart Editing' : `Profile${p.profile ? `: ${p.profile.profile_name}` : ''}`} · {formatDate(p.created_at)}
                    </p>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
          {pages > 1 && (
            <nav class="pager" aria-label="Pages of projects">
              <button type="button" class="btn" disabled={page === 0} onClick={() => setPage(page - 1)}>
                Previous
              </button>
              <span>
                Page {page + 1} of {pages}
              </span>
              <button type="button" class="btn" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
                Next
              </button>
            </nav>
          )}
        </>
      )}
    </main>
  );
}
