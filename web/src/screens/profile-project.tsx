import { useState } from 'preact/hooks';
import type { DownloadEntry, PostEditOptions, ProjectItem, Stage, StageStatus } from '../../../src/client/records.js';
import { ErrorNote, Field, LoadingPage, Note, ProjectHead, StatusBadge } from '../components/basics.js';
import { type ResultItem, Results, ZipButton } from '../components/results.js';
import { useSession } from '../session.js';
import { submissionOf } from '../tab-memory.js';
import { usePoll } from '../use-poll.js';

interface StageView {
  status: StageStatus;
  files: DownloadEntry[];
}

const running = (s: StageStatus | undefined) => s !== undefined && (s.status === 'Processing' || s.status === 'Pending');

function StageProgress({ label, stage }: { label: string; stage: StageView }) {
  const { status, progress, details } = stage.status;
  return (
    <>
      <p class="stage-line">
        <StatusBadge status={status} /> {status === 'Processing' && `${label}: ${Math.round(progress)} %`}
      </p>
      {status === 'Processing' && <progress max={100} value={progress} aria-label={label} />}
      {details && status !== 'Pending' && <Note tone="warn">{details}</Note>}
    </>
  );
}

function FileLinks({ files }: { files: DownloadEntry[] }) {
  return (
    <ul class="file-list link-list">
      {files.map((f) => (
        <li key={f.file_name}>
          <a href={f.download_link} download={f.file_name}>
            {f.file_name}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** Resize, format, watermark and the rest, applied to the exported JPEGs (docs/profile-flow.md). */
function PostEditForm({ onSubmit, busy }: { onSubmit(options: PostEditOptions): void; busy: boolean }) {
  const [longEdge, setLongEdge] = useState('');
  const [format, setFormat] = useState<NonNullable<PostEditOptions['output_format']>>('JPEG');
  const [quality, setQuality] = useState(90);
  const [watermark, setWatermark] = useState('');
  const [position, setPosition] = useState('bottom_right');
  const [strip, setStrip] = useState(false);
  const [colorSpace, setColorSpace] = useState<NonNullable<PostEditOptions['color_space']>>('sRGB');
  const submit = (e: Event) => {
    e.preventDefault();
    onSubmit({
      resize_long_edge: longEdge === '' ? null : Number(longEdge),
      output_format: format,
      quality,
      watermark: watermark.trim() ? { text: watermark.trim(), position } : null,
      strip_metadata: strip,
      color_space: colorSpace,
    });
  };
  return (
    <form class="post-form" onSubmit={submit}>
      <div class="row">
        <Field label="Long edge (px)">{(id) => <input id={id} type="number" min={16} max={30000} placeholder="Keep the size" value={longEdge} onInput={(e) => setLongEdge(e.currentTarget.value)} />}</Field>
        <Field label="Format">
          {(id) => (
            <select id={id} value={format} onChange={(e) => setFormat(e.currentTarget.value as typeof format)}>
              {['JPEG', 'PNG', 'TIFF', 'WEBP'].map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Quality">{(id) => <input id={id} type="number" min={1} max={100} value={quality} onInput={(e) => setQuality(Number(e.currentTarget.value))} />}</Field>
        <Field label="Colour space">
          {(id) => (
            <select id={id} value={colorSpace} onChange={(e) => setColorSpace(e.currentTarget.value as typeof colorSpace)}>
              <option value="sRGB">sRGB</option>
              <option value="DISPLAY_P3">Display P3</option>
            </select>
          )}
        </Field>
      </div>
      <div class="row">
        <Field label="Watermark text" class="grow">
          {(id) => <input id={id} value={watermark} placeholder="None" maxLength={200} onInput={(e) => setWatermark(e.currentTarget.value)} />}
        </Field>
        <Field label="Watermark position">
          {(id) => (
            <select id={id} value={position} onChange={(e) => setPosition(e.currentTarget.value)}>
              <option value="bottom_right">Bottom right</option>
              <option value="bottom_left">Bottom left</option>
              <option value="top_right">Top right</option>
              <option value="top_left">Top left</option>
              <option value="center">Centre</option>
            </select>
          )}
        </Field>
      </div>
      <label class="check">
        <input type="checkbox" checked={strip} onChange={(e) => setStrip(e.currentTarget.checked)} />
        <span>
          Remove metadata<small>Drop EXIF: camera, capture time, GPS position.</small>
        </span>
      </label>
      <button class="btn btn-primary" type="submit" disabled={busy}>
        Apply post-editing
      </button>
    </form>
  );
}

/**
 * A profile project in its three stages: the edit (XMP sidecars), the export (JPEGs, with
 * Copilot) and the post-editing (sizes, formats, watermark).
 */
export function ProfileProject({ uuid, photo }: { uuid: string; photo?: string | undefined }) {
  const { client } = useSession();
  const [project, setProject] = useState<ProjectItem | null>(null);
  const [stages, setStages] = useState<Partial<Record<Stage, StageView>>>({});
  const [asked, setAsked] = useState(0);
  const [postAsked, setPostAsked] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submitted = submissionOf(uuid);

  const read = async (stage: Stage): Promise<StageView> => {
    const status = await client.stageStatus(uuid, stage);
    return { status, files: status.status === 'Completed' ? await client.stageDownloads(uuid, stage) : [] };
  };

  const pollError = usePoll(
    async () => {
      const p = await client.project('regular', uuid, false);
      const edit = await read('edit');
      const exported = p.export_status === null ? undefined : await read('export');
      const post = exported?.status.status === 'Completed' ? await read('post_editing') : undefined;
      setProject(p);
      setStages({ edit, ...(exported ? { export: exported } : {}), ...(post ? { post_editing: post } : {}) });
      const postRunning = post !== undefined && (post.status.status === 'Processing' || (postAsked && post.status.status === 'Pending'));
      return !running(edit.status) && !running(exported?.status) && !postRunning;
    },
    () => submitted?.at ?? (project ? Date.parse(project.created_at) : Date.now()),
    [uuid, asked],
  );

  const ask = (action: () => Promise<unknown>) => async () => {
    setError(null);
    try {
      await action();
      setAsked((n) => n + 1);
    } catch (err) {
      setError(err);
    }
  };

  if (!project) return <LoadingPage error={pollError} />;

  const { edit, export: exported, post_editing: post } = stages;
  const jpegs: ResultItem[] = (exported?.files ?? []).map((f) => ({ ...f, preview: f.download_link }));
  return (
    <main class="page">
      <ProjectHead name={project.name} kind={`Profile${project.profile ? `: ${project.profile.profile_name}` : ''}`} createdAt={project.created_at} />
      <ErrorNote error={pollError ?? error} />

      <section class="card stage" aria-labelledby="edit-title">
        <h2 id="edit-title">1. Edit: Lightroom sidecars</h2>
        {edit && <StageProgress label="Editing" stage={edit} />}
        {edit?.status.status === 'Completed' && (
          <>
            <p>One XMP per photo: copy them next to the originals and Lightroom Classic applies them on import.</p>
            <ZipButton entries={edit.files} name={`${project.name} XMP`} label="Download the sidecars" />
            <FileLinks files={edit.files} />
          </>
        )}
      </section>

      <section class="card stage" aria-labelledby="export-title">
        <h2 id="export-title">2. Export: JPEGs</h2>
        {!exported && (
          <>
            <p>Render the edit to full-size JPEGs, from the originals.</p>
            <button type="button" class="btn btn-primary" disabled={edit?.status.status !== 'Completed'} onClick={ask(() => client.exportProject(uuid))}>
              Export JPEGs
            </button>
          </>
        )}
        {exported && <StageProgress label="Exporting" stage={exported} />}
        {exported?.status.status === 'Completed' && (
          <>
            <div class="section-head">
              <p>Open a photo to look closer, or refine it with Copilot.</p>
              <ZipButton entries={exported.files} name={project.name} />
            </div>
            <Results flow="regular" uuid={uuid} name={project.name} items={jpegs} open={photo} />
          </>
        )}
      </section>

      {exported?.status.status === 'Completed' && (
        <section class="card stage" aria-labelledby="post-title">
          <h2 id="post-title">3. Post-editing: sizes, formats, watermark</h2>
          <PostEditForm busy={post?.status.status === 'Processing'} onSubmit={(options) => void ask(() => client.postEdit(uuid, options).then(() => setPostAsked(true)))()} />
          {post && (post.status.status !== 'Pending' || postAsked) && <StageProgress label="Post-editing" stage={post} />}
          {post?.status.status === 'Completed' && (
            <>
              <div class="section-head">
                <h3>Post-edited files</h3>
                <ZipButton entries={post.files} name={`${project.name} post-edited`} />
              </div>
              <FileLinks files={post.files} />
            </>
          )}
        </section>
      )}
    </main>
  );
}
