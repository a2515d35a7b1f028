import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { DownloadEntry, Flow } from '../../../src/client/records.js';
import { navigate, paths } from '../routes.js';
import { originalOf } from '../tab-memory.js';
import { saveBlob, zipOf } from '../transfer.js';
import { ErrorNote, Link } from './basics.js';
import { Compare } from './compare.js';

export interface ResultItem extends DownloadEntry {
  /** A small image for the grid: the thumbnail link, or the image itself. */
  preview: string;
}

/** "Download all": one ZIP made in the browser, with progress. */
export function ZipButton({ entries, name, label = 'Download all' }: { entries: DownloadEntry[]; name: string; label?: string }) {
  const [done, setDone] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setError(null);
    setDone(0);
    try {
      saveBlob(await zipOf(entries, setDone), `${name}.zip`);
    } catch (err) {
      setError(err);
    } finally {
      setDone(null);
    }
  };
  return (
    <span class="zip-button">
      <button type="button" class="btn btn-primary" onClick={run} disabled={done !== null || entries.length === 0}>
        {done === null ? `${label} (.zip)` : `Zipping ${done} of ${entries.length}…`}
      </button>
      <ErrorNote error={error} />
    </span>
  );
}

/** Object URLs of this tab's originals of the items (JPEGs only), released when the page goes. */
function useOriginals(uuid: string, items: ResultItem[]): Map<string, string> {
  const urls = useMemo(() => {
    const map = new Map<string, string>();
    for (const item of items) {
      const file = originalOf(uuid, item.file_name);
      if (file) map.set(item.file_name, URL.createObjectURL(file));
    }
    return map;
  }, [uuid, items]);
  useEffect(
    () => () => {
      for (const u of urls.values()) URL.revokeObjectURL(u);
    },
    [urls],
  );
  return urls;
}

/**
 * The results of a project: a grid, and the full-screen before/after view of one photo
 * (its own address, so the browser's back button closes it).
 */
export function Results({ flow, uuid, name, items, open }: { flow: Flow; uuid: string; name: string; items: ResultItem[]; open?: string | undefined }) {
  const originals = useOriginals(uuid, items);
  const index = open === undefined ? -1 : items.findIndex((i) => i.file_name === open);
  return (
    <>
      <ul class="photo-grid">
        {items.map((item) => (
          <li key={item.file_name} class="photo-tile">
            <Link class="photo-open" href={paths.photo(flow, uuid, item.file_name)} aria-label={`Open ${item.file_name}`}>
              <img src={item.preview} alt="" loading="lazy" />
            </Link>
            <div class="photo-meta">
              <span class="file-name" title={item.file_name}>
                {item.file_name}
              </span>
              <span class="photo-actions">
                <a class="btn btn-small" href={item.download_link} download={item.file_name} aria-label={`Download ${item.file_name}`}>
                  Download
                </a>
                <Link class="btn btn-small" href={paths.copilot(flow, uuid, item.file_name)} aria-label={`Copilot on ${item.file_name}`}>
                  Copilot
                </Link>
              </span>
            </div>
          </li>
        ))}
      </ul>
      {index >= 0 && (
        <Viewer
          flow={flow}
          uuid={uuid}
          name={name}
          items={items}
          index={index}
          before={originals.get(items[index]!.file_name) ?? null}
          onMove={(step) => navigate(paths.photo(flow, uuid, items[(index + step + items.length) % items.length]!.file_name), { replace: true })}
          onClose={() => navigate(paths.project(flow, uuid))}
        />
      )}
    </>
  );
}

interface ViewerProps {
  flow: Flow;
  uuid: string;
  name: string;
  items: ResultItem[];
  index: number;
  before: string | null;
  onMove(step: number): void;
  onClose(): void;
}

/** Full screen, one photo: before/after, 100 % zoom, left/right arrows between photos, Escape to close. */
function Viewer({ flow, uuid, name, items, index, before, onMove, onClose }: ViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [actual, setActual] = useState(false);
  const item = items[index]!;

  useEffect(() => {
    const d = dialog.current!;
    d.showModal();
    return () => d.close();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    // On the divider's slider the arrows move the divider.
    if ((e.target as HTMLElement).matches('input[type=range]')) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      onMove(e.key === 'ArrowLeft' ? -1 : 1);
    }
  };

  return (
    <dialog
      ref={dialog}
      class="viewer"
      aria-label={`${item.file_name}, ${index + 1} of ${items.length} in ${name}`}
      onKeyDown={onKeyDown}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header class="viewer-bar">
        <h2>
          {item.file_name} <span class="muted">{`${index + 1} of ${items.length}`}</span>
        </h2>
        <div class="viewer-actions">
          <button type="button" class="btn" aria-pressed={actual} onClick={() => setActual(!actual)}>
            {actual ? 'Fit to screen' : 'Zoom to 100 %'}
          </button>
          <a class="btn" href={item.download_link} download={item.file_name}>
            Download
          </a>
          <Link class="btn" href={paths.copilot(flow, uuid, item.file_name)}>
            Copilot
          </Link>
          <button type="button" class="btn" onClick={onClose} aria-label="Close">
            Close
          </button>
        </div>
      </header>
      <div class="viewer-stage">
        <Compare key={item.file_name} before={before} after={item.download_link} alt={`${item.file_name}, edited`} actual={actual} />
      </div>
      <footer class="viewer-foot">
        <button type="button" class="btn" onClick={() => onMove(-1)} aria-label="Previous photo" disabled={items.length < 2}>
          ← Previous
        </button>
        <p class="muted small">
          {before ? 'Drag across the photo, or use the slider, to compare with the original.' : 'No original to compare: the API has no download link for originals, so the app shows the JPEGs uploaded from this tab only.'}
        </p>
        <button type="button" class="btn" onClick={() => onMove(1)} aria-label="Next photo" disabled={items.length < 2}>
          Next →
        </button>
      </footer>
    </dialog>
  );
}
