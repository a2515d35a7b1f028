import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { PHOTO_EXTENSIONS, type PhotoKind, photoKindOf } from '../../../src/client/photo-files.js';
import { editOptions, type Flow, type ProfileEditOptions, type ProfileRecord, type SkyTemplate } from '../../../src/client/records.js';
import { type FileProgress, Uploader } from '../../../src/client/uploads.js';
import { ErrorNote, Field, formatBytes, Note } from '../components/basics.js';
import { type Dropped, DropZone } from '../components/drop-zone.js';
import { SkyPicker } from '../components/sky-picker.js';
import { navigate, paths } from '../routes.js';
import { useSession } from '../session.js';
import { rememberOriginals, rememberSubmission } from '../tab-memory.js';
import { browserTransport } from '../transfer.js';

const PHOTOGRAPHY_TYPES: [string, string][] = [
  ['NO_TYPE', 'Not specified'],
  ['REAL_ESTATE', 'Real estate'],
  ['WEDDING', 'Wedding'],
  ['PORTRAITS', 'Portraits'],
  ['EVENTS', 'Events'],
  ['LANDSCAPE_NATURE', 'Landscape and nature'],
  ['FAMILY_NEWBORN', 'Family and newborn'],
  ['BOUDOIR', 'Boudoir'],
  ['SPORTS', 'Sports'],
  ['SCHOOL', 'School'],
  ['OTHER', 'Other'],
];

interface Options {
  hdr: boolean;
  perspective: boolean;
  sky: boolean;
  skyTemplate: number | null;
  windowPull: boolean;
  smoothSkin: boolean;
}

function Check({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange(on: boolean): void }) {
  return (
    <label class="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
      <span>
        {label}
        <small>{hint}</small>
      </span>
    </label>
  );
}

function stateLabel(p: FileProgress): string {
  if (p.state === 'done') return 'Uploaded';
  if (p.state === 'failed') return 'Failed';
  if (p.state === 'waiting') return 'Waiting';
  return `${Math.floor((100 * p.sent) / Math.max(1, p.size))} %`;
}

/**
 * A new project: photos from a dropped folder, the kind of edit and its options, then the
 * uploads (straight to storage, several at once, each with its progress) and the submit.
 */
export function NewProject() {
  const { client } = useSession();
  const [chosen, setChosen] = useState<File[]>([]);
  const [leftOut, setLeftOut] = useState<{ files: number; subfolders: number }>({ files: 0, subfolders: 0 });
  const [kind, setKind] = useState<PhotoKind>('RAW');
  const [name, setName] = useState('');
  const [flow, setFlow] = useState<Flow>('i2i');
  const [options, setOptions] = useState<Options>({ hdr: false, perspective: false, sky: false, skyTemplate: null, windowPull: false, smoothSkin: false });
  const [profileKey, setProfileKey] = useState<number | null>(null);
  const [photographyType, setPhotographyType] = useState('NO_TYPE');
  const [templates, setTemplates] = useState<SkyTemplate[]>([]);
  const [profiles, setProfiles] = useState<ProfileRecord[]>([]);
  const [working, setWorking] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const progress = useRef(new Map<string, FileProgress>());
  const uploader = useRef<Uploader<File> | null>(null);
  const uuid = useRef<string | null>(null);
  const [, redraw] = useState(0);
  const frame = useRef(0);

  useEffect(() => {
    client.skyTemplates().then((t) => {
      setTemplates(t);
      setOptions((o) => ({ ...o, skyTemplate: t.find((x) => x.is_default)?.id ?? t[0]?.id ?? null }));
    }, setError);
    client.profiles().then(setProfiles, setError);
  }, [client]);

  // Leaving the page would stop the uploads.
  useEffect(() => {
    if (!working) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [working]);

  const counts = useMemo(() => {
    const jpeg = chosen.filter((f) => photoKindOf(f.name) === 'JPEG').length;
    return { jpeg, raw: chosen.length - jpeg };
  }, [chosen]);
  const mixed = counts.jpeg > 0 && counts.raw > 0;
  const photos = mixed ? chosen.filter((f) => photoKindOf(f.name) === kind) : chosen;
  const photoKind: PhotoKind | null = photos.length === 0 ? null : photoKindOf(photos[0]!.name);
  const usableProfiles = profiles.filter((p) => photoKind === null || p.image_type === (photoKind === 'JPEG' ? 'JPG' : 'RAW'));
  const profile = usableProfiles.find((p) => p.profile_key === profileKey) ?? usableProfiles[0] ?? null;
  const totalBytes = photos.reduce((a, f) => a + f.size, 0);

  const add = (dropped: Dropped) => {
    const byName = new Map(chosen.map((f) => [f.name, f]));
    let others = 0;
    for (const file of dropped.files) {
      if (photoKindOf(file.name)) byName.set(file.name, file);
      else others++;
    }
    setChosen([...byName.values()].sort((a, b) => a.name.localeCompare(b.name)));
    setLeftOut((l) => ({ files: l.files + others, subfolders: l.subfolders + dropped.subfolders }));
    if (!name && dropped.folder) setName(dropped.folder);
  };

  const track = (p: FileProgress) => {
    progress.current.set(p.name, p);
    // Many progress events a second: one redraw a frame.
    frame.current ||= requestAnimationFrame(() => {
      frame.current = 0;
      redraw((n) => n + 1);
    });
  };

  const uploadAndSubmit = async (files: File[]) => {
    await uploader.current!.upload(files);
    if (photos.some((f) => progress.current.get(f.name)?.state !== 'done')) return;
    setSubmitting(true);
    try {
      if (flow === 'i2i') await client.smartEdit(uuid.current!, editOptions(options));
      else {
        const request: ProfileEditOptions = {
          ...editOptions(options),
          profile_key: profile!.profile_key,
          photography_type: photographyType,
          ...(options.windowPull ? { window_pull: true } : {}),
          ...(options.smoothSkin ? { smooth_skin: true } : {}),
        };
        await client.profileEdit(uuid.current!, request);
      }
      rememberSubmission(uuid.current!, { at: Date.now(), hdr: options.hdr });
      setWorking(false);
      navigate(paths.project(flow, uuid.current!));
    } catch (err) {
      setError(err);
      setSubmitting(false);
    }
  };

  const start = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setWorking(true);
    try {
      const projectName = await client.freeProjectName(flow, name.trim() || 'Untitled shoot');
      uuid.current = await client.createProject(flow, projectName);
      rememberOriginals(uuid.current, photos);
      uploader.current = new Uploader(client, flow, uuid.current, browserTransport, { onProgress: track });
      await uploadAndSubmit(photos);
    } catch (err) {
      setError(err);
      if (!uuid.current) setWorking(false);
    }
  };

  if (working) {
    const all = photos.map((f) => progress.current.get(f.name) ?? { name: f.name, size: f.size, sent: 0, state: 'waiting' as const });
    const sent = all.reduce((a, p) => a + p.sent, 0);
    const done = all.filter((p) => p.state === 'done').length;
    const failed = photos.filter((f) => progress.current.get(f.name)?.state === 'failed');
    const retry = (files: File[]) => () => {
      setError(null);
      void uploadAndSubmit(files);
    };
    return (
      <main class="page">
        <h1>{submitting ? 'Starting the edit…' : `Uploading ${photos.length} ${photos.length === 1 ? 'photo' : 'photos'}`}</h1>
        <section class="card" aria-label="Upload progress">
          <div class="total-progress">
            <progress max={Math.max(1, totalBytes)} value={sent} aria-label="All photos" />
            <p>
              {formatBytes(sent)} of {formatBytes(totalBytes)} · {done} of {photos.length} photos uploaded
            </p>
          </div>
          {failed.length > 0 && (
            <Note tone="warn">
              {failed.length} {failed.length === 1 ? 'upload' : 'uploads'} failed after three tries. Check your connection, then{' '}
              <button type="button" class="btn btn-small" onClick={retry(failed)}>
                Retry failed uploads
              </button>
            </Note>
          )}
          <ErrorNote error={error} />
          {error && done === photos.length && !submitting && (
            <button type="button" class="btn btn-primary" onClick={retry([])}>
              Try again
            </button>
          )}
          <ul class="file-list upload-list">
            {all.map((p) => (
              <li key={p.name} class={`is-${p.state}`}>
                <span class="file-name">{p.name}</span>
                <progress max={Math.max(1, p.size)} value={p.sent} aria-label={`Upload of ${p.name}`} />
                <span class="file-state">{stateLabel(p)}</span>
                {p.state === 'failed' && (
                  <>
                    <span class="file-error">{p.error}</span>
                    <button type="button" class="btn btn-small" onClick={retry(photos.filter((f) => f.name === p.name))} aria-label={`Retry ${p.name}`}>
                      Retry
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      </main>
    );
  }

  const canStart = photos.length > 0 && (flow === 'i2i' || profile !== null);
  return (
    <main class="page">
      <h1>New project</h1>
      <form class="new-project" onSubmit={start}>
        <section class="card" aria-labelledby="photos-title">
          <h2 id="photos-title">1. Photos</h2>
          <DropZone onFiles={add} accept={PHOTO_EXTENSIONS} />
          {(leftOut.files > 0 || leftOut.subfolders > 0) && (
            <p class="muted small">
              Left out: {leftOut.files > 0 && `${leftOut.files} ${leftOut.files === 1 ? 'file that is' : 'files that are'} not JPEG or RAW`}
              {leftOut.files > 0 && leftOut.subfolders > 0 && ', '}
              {leftOut.subfolders > 0 && `${leftOut.subfolders} ${leftOut.subfolders === 1 ? 'subfolder' : 'subfolders'} (drop them on their own)`}.
            </p>
          )}
          {mixed && (
            <fieldset class="choice">
              <legend>
                This folder has {counts.raw} RAW {counts.raw === 1 ? 'file' : 'files'} and {counts.jpeg} {counts.jpeg === 1 ? 'JPEG' : 'JPEGs'}. A project takes one kind:
              </legend>
              <label class="check">
                <input type="radio" name="kind" checked={kind === 'RAW'} onChange={() => setKind('RAW')} />
                <span>Edit the RAW files</span>
              </label>
              <label class="check">
                <input type="radio" name="kind" checked={kind === 'JPEG'} onChange={() => setKind('JPEG')} />
                <span>Edit the JPEGs</span>
              </label>
            </fieldset>
          )}
          {photos.length > 0 && (
            <>
              <p>
                <strong>
                  {photos.length} {photoKind === 'JPEG' ? (photos.length === 1 ? 'JPEG' : 'JPEGs') : photos.length === 1 ? 'RAW file' : 'RAW files'}
                </strong>
                , {formatBytes(totalBytes)}{' '}
                <button
                  type="button"
                  class="btn btn-small btn-ghost"
                  onClick={() => {
                    setChosen([]);
                    setLeftOut({ files: 0, subfolders: 0 });
                  }}
                >
                  Clear
                </button>
              </p>
              <ul class="file-list chosen-list">
                {photos.map((f) => (
                  <li key={f.name}>
                    <span class="file-name">{f.name}</span>
                    <span class="muted">{formatBytes(f.size)}</span>
                    <button type="button" class="btn btn-small btn-ghost" aria-label={`Remove ${f.name}`} onClick={() => setChosen(chosen.filter((c) => c !== f))}>
                      Remove
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>

        <section class="card" aria-labelledby="edit-title">
          <h2 id="edit-title">2. How to edit</h2>
          <Field label="Project name">{(id) => <input id={id} value={name} placeholder="Untitled shoot" onInput={(e) => setName(e.currentTarget.value)} maxLength={200} />}</Field>
          <fieldset class="flow-choice">
            <legend>Kind of edit</legend>
            <label class={`flow-option${flow === 'i2i' ? ' is-selected' : ''}`}>
              <input type="radio" name="flow" checked={flow === 'i2i'} onChange={() => setFlow('i2i')} />
              <span>
                <strong>Smart Editing</strong>
                <small>Automatic edit of every photo; you download finished JPEGs.</small>
              </span>
            </label>
            <label class={`flow-option${flow === 'regular' ? ' is-selected' : ''}`}>
              <input type="radio" name="flow" checked={flow === 'regular'} onChange={() => setFlow('regular')} />
              <span>
                <strong>With a profile</strong>
                <small>Your style; you get Lightroom XMP sidecars, then JPEGs when you export.</small>
              </span>
            </label>
          </fieldset>
          {flow === 'regular' && (
            <div class="row">
              <Field label="Profile">
                {(id) => (
                  <select id={id} value={profile?.profile_key ?? ''} onChange={(e) => setProfileKey(Number(e.currentTarget.value))}>
                    {usableProfiles.map((p) => (
                      <option key={p.profile_key} value={p.profile_key}>
                        {p.profile_name} ({p.image_type})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Photography type">
                {(id) => (
                  <select id={id} value={photographyType} onChange={(e) => setPhotographyType(e.currentTarget.value)}>
                    {PHOTOGRAPHY_TYPES.map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          )}
          <fieldset class="options">
            <legend>Options</legend>
            <Check label="HDR merge" hint="Merge bracketed exposures; each bracket gives one photo." checked={options.hdr} onChange={(hdr) => setOptions({ ...options, hdr })} />
            <Check label="Perspective correction" hint="Make vertical lines vertical." checked={options.perspective} onChange={(perspective) => setOptions({ ...options, perspective })} />
            <Check label="Sky replacement" hint="Replace a dull or blown-out sky." checked={options.sky} onChange={(sky) => setOptions({ ...options, sky })} />
            {options.sky && templates.length > 0 && <SkyPicker templates={templates} value={options.skyTemplate} onChange={(skyTemplate) => setOptions({ ...options, skyTemplate })} />}
            {flow === 'regular' && (
              <>
                <Check label="Window pull" hint="Recover blown-out windows in interiors." checked={options.windowPull} onChange={(windowPull) => setOptions({ ...options, windowPull })} />
                <Check label="Smooth skin" hint="Soften skin in portraits." checked={options.smoothSkin} onChange={(smoothSkin) => setOptions({ ...options, smoothSkin })} />
              </>
            )}
          </fieldset>
        </section>

        <ErrorNote error={error} />
        <div class="form-actions">
          <button class="btn btn-primary btn-large" type="submit" disabled={!canStart}>
            {photos.length === 0 ? 'Add photos to start' : `Upload and edit ${photos.length} ${photos.length === 1 ? 'photo' : 'photos'}`}
          </button>
        </div>
      </form>
    </main>
  );
}
