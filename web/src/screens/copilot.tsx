import { useEffect, useState } from 'preact/hooks';
import type { AiTool, CopilotVersion, DownloadEntry, Flow } from '../../../src/client/records.js';
import { ErrorNote, Field, formatDate, Link, Note } from '../components/basics.js';
import { Compare } from '../components/compare.js';
import { paths } from '../routes.js';
import { useSession } from '../session.js';
import { storedVersions, storeVersions, type VersionNode } from '../tab-memory.js';

interface Setup {
  tools: AiTool[];
  /** The photo as the batch edit (or the last finalize) left it. */
  base: DownloadEntry;
  projectName: string;
}

/**
 * Copilot on one photo: plain-English instructions and one-click tools, each making a
 * version on top of the one shown. The versions form a chain: going back to an earlier
 * one and changing it replaces the versions after it (reference §3, rule 6).
 */
export function Copilot({ flow, uuid, photo }: { flow: Flow; uuid: string; photo: string }) {
  const { client } = useSession();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [versions, setVersions] = useState<VersionNode[]>(() => storedVersions(uuid, photo));
  const [current, setCurrent] = useState<number | null>(() => versions.at(-1)?.id ?? null);
  const [instruction, setInstruction] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  const [finalized, setFinalized] = useState<DownloadEntry[] | null>(null);

  useEffect(() => {
    void (async () => {
      try {
        // Copilot needs an exported project; for Smart Editing the export only marks it so.
        if (flow === 'i2i') await client.exportProject(uuid);
        const [tools, project, files] = await Promise.all([client.aiTools(uuid, flow), client.project(flow, uuid, false), flow === 'i2i' ? client.smartDownloads(uuid) : client.stageDownloads(uuid, 'export')]);
        const base = files.find((f) => f.file_name === photo);
        if (!base) throw new Error(`${photo} is not among the edited photos of this project.`);
        setSetup({ tools, base, projectName: project.name });
      } catch (err) {
        setError(err);
      }
    })();
  }, [client, flow, uuid, photo]);

  const keep = (next: VersionNode[]) => {
    setVersions(next);
    storeVersions(uuid, photo, next);
  };

  const make = async (label: string, kind: VersionNode['kind'], call: () => Promise<CopilotVersion>) => {
    setBusy(label);
    setError(null);
    setFinalized(null);
    try {
      const v = await call();
      // The service drops the versions after the parent; so does the list.
      const kept = versions.filter((x) => current !== null && x.id <= current);
      keep([...kept, { id: v.version_id, parent: current, label, kind, changes: v.changes, url: v.enhanced_image_url, at: Date.now() }]);
      setCurrent(v.version_id);
      if (kind === 'instruction') setInstruction('');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const reset = async () => {
    setConfirmReset(false);
    setBusy('reset');
    try {
      await client.resetCopilot(uuid, flow, photo);
      keep([]);
      setCurrent(null);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const finalize = async () => {
    setBusy('finalize');
    setError(null);
    try {
      const files = await client.finalize(uuid, flow);
      // Finalized photos start again from their new batch state.
      for (const f of files) storeVersions(uuid, f.file_name, []);
      setVersions([]);
      setCurrent(null);
      setFinalized(files);
      const mine = files.find((f) => f.file_name === photo);
      if (mine && setup) setSetup({ ...setup, base: mine });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  const shown = versions.find((v) => v.id === current) ?? null;
  const parent = shown ? (versions.find((v) => v.id === shown.parent) ?? null) : null;
  const latest = versions.at(-1) ?? null;
  const number = (v: VersionNode | null) => (v ? versions.indexOf(v) + 1 : 0);
  const replaced = shown && latest && shown !== latest ? versions.slice(versions.indexOf(shown) + 1) : current === null && versions.length > 0 ? versions : [];

  return (
    <main class="page copilot">
      <div class="page-head">
        <div>
          <p class="crumbs">
            <Link href={paths.project(flow, uuid)}>{setup?.projectName ?? 'Project'}</Link> /
          </p>
          <h1>Copilot: {photo}</h1>
        </div>
      </div>
      <ErrorNote error={error} />
      {!setup && !error && <p class="muted">Preparing Copilot…</p>}
      {setup && (
        <div class="copilot-layout">
          <div class="copilot-image">
            <Compare
              key={`${current}-${setup.base.download_link}`}
              before={shown ? (parent?.url ?? setup.base.download_link) : null}
              after={shown?.url ?? setup.base.download_link}
              beforeLabel={parent ? `Version ${number(parent)}` : 'Batch edit'}
              afterLabel={shown ? `Version ${number(shown)}` : 'Batch edit'}
              alt={shown ? `${photo}, version ${number(shown)}: ${shown.label}` : `${photo}, as edited`}
            />
            <p class="muted small">{shown ? `Version ${number(shown)} (“${shown.label}”: ${shown.changes}) beside the one it was made from: drag to compare.` : 'The batch edit. Your first change makes version 1.'}</p>
          </div>
          <div class="copilot-panel">
            <form
              class="card"
              onSubmit={(e) => {
                e.preventDefault();
                const text = instruction.trim();
                if (text) void make(text, 'instruction', () => client.copilot(uuid, flow, photo, text, current));
              }}
            >
              <Field label="Tell Copilot what to change">
                {(id) => (
                  <textarea
                    id={id}
                    rows={2}
                    maxLength={255}
                    value={instruction}
                    placeholder="a bit warmer, lift the shadows, crop to 4:5…"
                    onInput={(e) => setInstruction(e.currentTarget.value)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' && !e.shiftKey) {
                        e.preventDefault();
                        e.currentTarget.form?.requestSubmit();
                      }
                    }}
                  />
                )}
              </Field>
              <button class="btn btn-primary" type="submit" disabled={busy !== null || instruction.trim() === ''}>
                {busy !== null && busy !== 'reset' && busy !== 'finalize' ? `Working on “${busy}”…` : 'Apply'}
              </button>
            </form>

            <section class="card" aria-labelledby="tools-title">
              <h2 id="tools-title">One-click tools</h2>
              <div class="tool-grid">
                {setup.tools.map((t) => (
                  <button type="button" key={t.enhancement_type} class="btn btn-small" disabled={busy !== null} onClick={() => void make(t.label, 'tool', () => client.enhance(uuid, flow, photo, t.enhancement_type, current))}>
                    {t.label}
                  </button>
                ))}
              </div>
            </section>

            <section class="card" aria-labelledby="versions-title">
              <h2 id="versions-title">Versions</h2>
              {replaced.length > 0 && (
                <Note tone="warn">
                  A change now builds on {shown ? `version ${number(shown)}` : 'the batch edit'} and replaces {replaced.length === 1 ? 'version' : 'versions'} {replaced.map(number).join(', ')}.
                </Note>
              )}
              <ol class="versions">
                <li class={current === null ? 'is-current' : ''}>
                  <button type="button" class="version" aria-current={current === null} onClick={() => setCurrent(null)}>
                    <strong>Batch edit</strong>
                    <small>as the project delivered it</small>
                  </button>
                </li>
                {versions.map((v, i) => (
                  <li key={v.id} class={v.id === current ? 'is-current' : ''}>
                    <button type="button" class="version" aria-current={v.id === current} onClick={() => setCurrent(v.id)}>
                      <strong>
                        {i + 1}. {v.kind === 'instruction' ? `“${v.label}”` : v.label}
                      </strong>
                      <span class="version-changes">{v.changes}</span>
                      <small>
                        {v.kind === 'tool' ? 'tool' : 'instruction'} on {v.parent === null ? 'the batch edit' : `version ${versions.findIndex((x) => x.id === v.parent) + 1}`} · {formatDate(new Date(v.at).toISOString())}
                      </small>
                    </button>
                  </li>
                ))}
              </ol>
              <div class="version-actions">
                {!confirmReset ? (
                  <button type="button" class="btn" disabled={busy !== null || versions.length === 0} onClick={() => setConfirmReset(true)}>
                    Reset
                  </button>
                ) : (
                  <fieldset class="confirm" aria-label="Confirm reset">
                    Discard all {versions.length} versions?{' '}
                    <button type="button" class="btn btn-danger btn-small" onClick={() => void reset()}>
                      Discard
                    </button>{' '}
                    <button type="button" class="btn btn-small" onClick={() => setConfirmReset(false)}>
                      Keep
                    </button>
                  </fieldset>
                )}
                <button type="button" class="btn btn-primary" disabled={busy !== null || latest === null} onClick={() => void finalize()}>
                  {busy === 'finalize' ? 'Rendering full size…' : latest ? `Finalize version ${number(latest)}` : 'Finalize'}
                </button>
              </div>
              {latest && shown !== latest && <p class="muted small">Finalize renders the latest version, {number(latest)}, at full size.</p>}
              {finalized && (
                <div role="status">
                  <p>Finalized at full size; the project's downloads now serve {finalized.length === 1 ? 'it' : 'them'}:</p>
                  <ul class="file-list link-list">
                    {finalized.map((f) => (
                      <li key={f.file_name}>
                        <a href={f.download_link} download={f.file_name}>
                          Download {f.file_name}
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </section>
          </div>
        </div>
      )}
    </main>
  );
}
