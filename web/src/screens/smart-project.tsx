import { useState } from 'preact/hooks';
import { outputNameOf } from '../../../src/client/photo-files.js';
import { formatElapsed } from '../../../src/client/polling.js';
import type { ProjectItem } from '../../../src/client/records.js';
import { ErrorNote, LoadingPage, Note, ProjectHead } from '../components/basics.js';
import { type ResultItem, Results, ZipButton } from '../components/results.js';
import { useSession } from '../session.js';
import { submissionOf, uploadedNames } from '../tab-memory.js';
import { useClock, usePoll } from '../use-poll.js';

const OPTION_LABELS: Record<string, string> = {
  hdr_merge: 'HDR merge',
  perspective_correction: 'Perspective correction',
  sky_replacement: 'Sky replacement',
};

/**
 * The photos this tab uploaded that came back without an edit. Only known for uploads
 * from this tab, and not with HDR merge (a bracket's frames become one photo); the API
 * lists delivered photos, not failed ones.
 */
function notDelivered(uuid: string, items: ResultItem[]): string[] {
  const uploaded = uploadedNames(uuid);
  if (!uploaded || submissionOf(uuid)?.hdr !== false) return [];
  const delivered = new Set(items.map((i) => i.file_name));
  return uploaded.filter((n) => !delivered.has(outputNameOf(n)));
}

/** A Smart Editing project: the edit's progress while it runs, then the results. */
export function SmartProject({ uuid, photo }: { uuid: string; photo?: string | undefined }) {
  const { client } = useSession();
  const [project, setProject] = useState<ProjectItem | null>(null);
  const [items, setItems] = useState<ResultItem[] | null>(null);
  const submission = submissionOf(uuid);
  const since = () => submission?.at ?? (project ? Date.parse(project.created_at) : Date.now());
  const finished = project?.status === 'Completed' || project?.status === 'Failed';
  const now = useClock(!finished);

  const pollError = usePoll(
    async () => {
      const p = await client.project('i2i', uuid, false);
      setProject(p);
      if (p.status === 'Completed') {
        const [downloads, thumbnails] = await Promise.all([client.smartDownloads(uuid), client.smartThumbnails(uuid)]);
        const thumbOf = new Map(thumbnails.map((t) => [t.file_name, t.thumbnail_link]));
        setItems(downloads.map((d) => ({ ...d, preview: thumbOf.get(d.file_name) ?? d.download_link })));
      }
      return p.status === 'Completed' || p.status === 'Failed';
    },
    since,
    [uuid],
  );

  if (!project) return <LoadingPage error={pollError} />;

  const failedHere = items ? notDelivered(uuid, items) : (uploadedNames(uuid) ?? []);
  return (
    <main class="page">
      <ProjectHead name={project.name} kind={['Smart Editing', ...project.ai_tools.map((t) => OPTION_LABELS[t] ?? t)].join(' · ')} createdAt={project.created_at} status={project.status} />
      <ErrorNote error={pollError} />

      {!finished && (
        <section class="card status-card" aria-live="polite">
          <h2>{project.status === 'Pending' ? 'Waiting for the editor…' : `Editing ${project.number_of_images} ${project.number_of_images === 1 ? 'photo' : 'photos'}…`}</h2>
          <progress aria-label="Editing" />
          <p>
            <span class="elapsed">{formatElapsed(now - since())}</span> elapsed. This page checks every few seconds; you may close it and come back.
          </p>
        </section>
      )}

      {project.status === 'Failed' && (
        <section class="card status-card">
          <h2>No photo could be edited</h2>
          <p>Every photo failed to develop: a damaged file, or a RAW format retouch cannot read.</p>
          {failedHere.length > 0 && <p class="muted small">Uploaded from this tab: {failedHere.join(', ')}</p>}
        </section>
      )}

      {items && (
        <section aria-labelledby="results-title">
          <div class="section-head">
            <h2 id="results-title">
              {items.length} edited {items.length === 1 ? 'photo' : 'photos'}
            </h2>
            <ZipButton entries={items} name={project.name} />
          </div>
          {failedHere.length > 0 && (
            <Note tone="warn">
              {failedHere.length} {failedHere.length === 1 ? 'photo' : 'photos'} could not be edited: {failedHere.join(', ')}.
            </Note>
          )}
          <Results flow="i2i" uuid={uuid} name={project.name} items={items} open={photo} />
        </section>
      )}
    </main>
  );
}
