import fs from 'node:fs';
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { ApiError, RetouchClient } from '../../client/api.js';
import { outputNameOf, type PhotoKind, photoKindOf } from '../../client/photo-files.js';
import { formatElapsed, pollDelayMs, sleep } from '../../client/polling.js';
import { type DownloadEntry, editOptions, type Flow, type Stage } from '../../client/records.js';
import { Uploader } from '../../client/uploads.js';
import { Progress } from './progress.js';
import { type EditState, loadState, saveState, STATE_FILE } from './state.js';
import { type LocalPhoto, downloadTo, nodeTransport } from './transport.js';

export interface EditOptions {
  url: string;
  key?: string;
  out?: string;
  name?: string;
  hdr?: boolean;
  perspective?: boolean;
  sky?: boolean;
  skyTemplate?: number;
  profile?: number;
  export?: boolean;
  parallel: number;
  new?: boolean;
}

/** A failure the user can act on: printed as one line, exit status 1. */
export class EditError extends Error {}

function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** The photos at the top of the folder, by name; other files are left out and counted. */
function photosIn(dir: string): { photos: LocalPhoto[]; kinds: Set<PhotoKind>; skipped: number } {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new EditError(`${dir} is not a folder`);
  const photos: LocalPhoto[] = [];
  const kinds = new Set<PhotoKind>();
  let skipped = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const kind = entry.isFile() ? photoKindOf(entry.name) : null;
    if (!kind) {
      if (entry.isFile()) skipped++;
      continue;
    }
    const file = path.join(dir, entry.name);
    const stat = fs.statSync(file);
    photos.push({ name: entry.name, size: stat.size, mtimeMs: stat.mtimeMs, path: file });
    kinds.add(kind);
  }
  return { photos, kinds, skipped };
}

/**
 * `retouch edit DIR`: one run from a folder of photos to a folder of edits, through the
 * public API only. Everything done is recorded in OUT/.retouch-edit.json after each
 * step, so running the same command again picks up where the last run stopped.
 */
export async function runEdit(dir: string, o: EditOptions, progress = new Progress()): Promise<void> {
  if (!o.key) throw new EditError('no API key: pass --key or set RETOUCH_API_KEY');
  if (o.export && o.profile === undefined) throw new EditError('--export needs --profile (Smart Editing delivers JPEGs without an export)');
  if (o.skyTemplate !== undefined && !o.sky) throw new EditError('--sky-template needs --sky');
  const source = path.resolve(dir);
  const out = path.resolve(o.out ?? `${source}-edited`);
  const flow: Flow = o.profile === undefined ? 'i2i' : 'regular';
  const client = new RetouchClient(o.url, o.key);
  const started = Date.now();

  const { photos, kinds, skipped } = photosIn(source);
  if (photos.length === 0) throw new EditError(`no JPEG or RAW photos in ${source}`);
  if (kinds.size > 1) throw new EditError(`${source} holds both JPEGs and RAWs; a project takes one kind, so put them in separate folders`);
  if (skipped > 0) progress.line(`leaving out ${skipped} file(s) that are not JPEG or RAW`);
  if (o.profile !== undefined) await checkProfile(client, o.profile, [...kinds][0]!);
  fs.mkdirSync(out, { recursive: true });

  const state = await resumeOrCreate(client, flow, o, source, out, progress);
  const request = o.profile === undefined ? editOptions(o) : { profile_key: o.profile, ...editOptions(o) };

  if (!state.submitted) {
    const pending = photos.filter((p) => {
      const done = state.uploaded[p.name];
      return !done || done.size !== p.size || done.mtimeMs !== p.mtimeMs;
    });
    if (pending.length < photos.length) progress.line(`${photos.length - pending.length} photo(s) already uploaded`);
    await upload(client, state, out, pending, o.parallel, progress);
    state.options = request;
    if ('profile_key' in request) await client.profileEdit(state.project_uuid, request);
    else await client.smartEdit(state.project_uuid, request);
    state.submitted = true;
    saveState(out, state);
    progress.line(`submitted ${photos.length} photo(s) for editing`);
  } else {
    const added = photos.filter((p) => !state.uploaded[p.name]).length;
    if (added > 0) progress.line(`${added} photo(s) were added after the project was submitted and are not in it; --new starts a new project`);
    if (JSON.stringify(request) !== JSON.stringify(state.options)) progress.line(`the project was submitted with ${JSON.stringify(state.options)}; it keeps those options`);
  }

  if (flow === 'i2i') {
    const item = await waitFor(progress, 'editing', async () => {
      const p = await client.project('i2i', state.project_uuid, false);
      return { status: p.status, percent: null, done: p.status === 'Completed' || p.status === 'Failed', value: p };
    });
    if (item.status === 'Failed') throw new EditError(`the edit failed: no photo of "${state.project_name}" could be edited`);
    const delivered = await client.smartDownloads(state.project_uuid);
    if (!o.hdr) {
      const names = new Set(delivered.map((d) => d.file_name));
      const missing = Object.keys(state.uploaded).filter((n) => !names.has(outputNameOf(n)));
      if (missing.length > 0) progress.line(`${missing.length} photo(s) could not be edited: ${missing.join(', ')}`);
    }
    await download(delivered, out, progress);
    progress.line(`${delivered.length} edited photo(s) in ${out} (${formatElapsed(Date.now() - started)})`);
    return;
  }

  await waitForStage(client, state.project_uuid, 'edit', 'editing', progress);
  const sidecars = await client.stageDownloads(state.project_uuid, 'edit');
  await download(sidecars, out, progress);
  if (o.export) {
    if (!state.exported) {
      await client.exportProject(state.project_uuid);
      state.exported = true;
      saveState(out, state);
    }
    await waitForStage(client, state.project_uuid, 'export', 'exporting', progress);
    const jpegs = await client.stageDownloads(state.project_uuid, 'export');
    await download(jpegs, out, progress);
    progress.line(`${sidecars.length} XMP sidecar(s) and ${jpegs.length} JPEG(s) in ${out} (${formatElapsed(Date.now() - started)})`);
  } else {
    progress.line(`${sidecars.length} XMP sidecar(s) in ${out} (${formatElapsed(Date.now() - started)}); --export renders them to JPEGs`);
  }
}

/** Refuses a profile that does not exist or does not take this kind of photo before anything is uploaded. */
async function checkProfile(client: RetouchClient, key: number, kind: PhotoKind): Promise<void> {
  const profiles = await client.profiles();
  const profile = profiles.find((p) => p.profile_key === key);
  const fitting = profiles.filter((p) => p.image_type === (kind === 'JPEG' ? 'JPG' : 'RAW'));
  const list = fitting.map((p) => `${p.profile_key} ${p.profile_name}`).join(', ');
  if (!profile) throw new EditError(`there is no profile ${key}; profiles for ${kind} photos: ${list}`);
  if (!fitting.includes(profile)) {
    throw new EditError(`profile ${key} (${profile.profile_name}) is for ${profile.image_type} photos, these are ${kind}; profiles for them: ${list}`);
  }
}

function savedState(out: string): EditState | null {
  const file = path.join(out, STATE_FILE);
  try {
    const state = loadState(file);
    if (state !== null && state.version !== 1) throw new Error('written by another version of retouch');
    return state;
  } catch (err) {
    throw new EditError(`${file} cannot be read (${(err as Error).message}); remove it, or pass --new to start a new project`);
  }
}

/** The saved project when this folder was sent to this service before and the project is still there; else a new one. */
async function resumeOrCreate(client: RetouchClient, flow: Flow, o: EditOptions, source: string, out: string, progress: Progress): Promise<EditState> {
  const saved = o.new ? null : savedState(out);
  if (saved && saved.url === client.baseUrl && saved.flow === flow) {
    try {
      await client.project(flow, saved.project_uuid, false);
      progress.line(`resuming project "${saved.project_name}" (${saved.project_uuid}) from ${path.join(out, STATE_FILE)}`);
      return saved;
    } catch (err) {
      if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 403)) throw err;
      progress.line(`the saved project ${saved.project_uuid} is gone; starting a new one`);
    }
  } else if (saved) {
    progress.line(`${path.join(out, STATE_FILE)} is for ${saved.flow === 'i2i' ? 'a Smart Editing' : 'a profile'} project on ${saved.url}; starting a new project`);
  }
  const name = await client.freeProjectName(flow, o.name ?? path.basename(source));
  const uuid = await client.createProject(flow, name);
  const state: EditState = { version: 1, url: client.baseUrl, flow, project_uuid: uuid, project_name: name, options: {}, uploaded: {}, submitted: false, exported: false };
  saveState(out, state);
  progress.line(`created project "${name}" (${uuid})`);
  return state;
}

async function upload(client: RetouchClient, state: EditState, out: string, photos: LocalPhoto[], parallel: number, progress: Progress): Promise<void> {
  if (photos.length === 0) return;
  const display = progress.uploads(photos);
  const byName = new Map(photos.map((p) => [p.name, p]));
  const uploader = new Uploader(client, state.flow, state.project_uuid, nodeTransport, {
    concurrency: parallel,
    onProgress: (f) => {
      display.update(f);
      const photo = byName.get(f.name)!;
      if (f.state === 'done') {
        state.uploaded[f.name] = { size: photo.size, mtimeMs: photo.mtimeMs };
        saveState(out, state);
      }
    },
  });
  const results = await uploader.upload(photos);
  display.stop();
  const failed = results.filter((r) => r.state === 'failed');
  if (failed.length > 0) {
    throw new EditError(`${failed.length} of ${photos.length} upload(s) failed (${failed[0]!.error}); run the same command again to retry them`);
  }
}

/** Polls until `check` says done, showing the status and the elapsed time. */
async function waitFor<T>(progress: Progress, what: string, check: () => Promise<{ status: string; percent: number | null; done: boolean; value: T }>): Promise<{ status: string; value: T }> {
  const display = progress.waiting(what);
  const since = Date.now();
  try {
    for (;;) {
      const now = await check();
      display.update(now.status, now.percent, Date.now() - since);
      if (now.done) return now;
      await sleep(pollDelayMs(Date.now() - since));
    }
  } finally {
    display.stop();
  }
}

async function waitForStage(client: RetouchClient, uuid: string, stage: Stage, what: string, progress: Progress): Promise<void> {
  const end = await waitFor(progress, what, async () => {
    const s = await client.stageStatus(uuid, stage);
    return { status: s.status, percent: s.progress, done: s.status === 'Completed' || s.status === 'Failed', value: s };
  });
  if (end.value.details) progress.line(end.value.details);
  if (end.status === 'Failed') throw new EditError(`${what} failed${end.value.details ? `: ${end.value.details}` : ''}`);
}

/** Downloads what is not in the folder yet; a file there is whole (downloads land under a temporary name first). */
async function download(entries: DownloadEntry[], out: string, progress: Progress): Promise<void> {
  const missing = entries.filter((e) => !fs.existsSync(path.join(out, e.file_name)));
  if (missing.length === 0) return;
  const display = progress.downloads(missing.length);
  try {
    for (const entry of missing) {
      await downloadTo(entry.download_link, path.join(out, entry.file_name));
      display.tick(entry.file_name);
    }
  } finally {
    display.stop();
  }
}

export function editCommand(program: Command): void {
  program
    .command('edit')
    .argument('<dir>', 'a folder of JPEG or RAW photos')
    .description('edit a folder of photos on a retouch server: upload, edit, wait, download; run it again to resume')
    .addOption(new Option('--url <url>', 'the retouch server').env('RETOUCH_URL').default('http://127.0.0.1:8080'))
    .addOption(new Option('--key <key>', 'your API key (better in the environment: it stays out of the process list)').env('RETOUCH_API_KEY'))
    .option('--out <dir>', 'where the edits go (default: DIR-edited beside DIR)')
    .option('--name <name>', 'project name (default: the folder name)')
    .option('--hdr', 'merge bracketed exposures')
    .option('--perspective', 'straighten vertical lines')
    .option('--sky', 'replace the sky')
    .option('--sky-template <id>', 'the sky template (default: the default template)', positiveInteger)
    .option('--profile <key>', 'edit with this profile: XMP sidecars for Lightroom (GET /v1/profiles lists the keys)', positiveInteger)
    .option('--export', 'with --profile: also render the edits to JPEGs')
    .option('--parallel <n>', 'uploads at once', positiveInteger, 4)
    .option('--new', `start a new project even when OUT/${STATE_FILE} names one`)
    .action((dir: string, options: EditOptions) => runEdit(dir, options));
}
