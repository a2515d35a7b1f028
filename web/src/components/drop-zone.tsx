import type { TargetedDragEvent, TargetedEvent } from 'preact';
import { useState } from 'preact/hooks';

export interface Dropped {
  files: File[];
  /** The name of the dropped or chosen folder, when there was one. */
  folder: string | null;
  /** Subfolders left out: a project takes the photos at the top of a folder, as `retouch edit` does. */
  subfolders: number;
}

function readEntries(dir: FileSystemDirectoryEntry): Promise<FileSystemEntry[]> {
  const reader = dir.createReader();
  const all: FileSystemEntry[] = [];
  return new Promise((resolve, reject) => {
    // readEntries answers in batches until it answers none.
    const next = () =>
      reader.readEntries((batch) => {
        if (batch.length === 0) return resolve(all);
        all.push(...batch);
        next();
      }, reject);
    next();
  });
}

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));

/** The files of a drop: the top level of each dropped folder, and dropped files as they are. */
async function fromDrop(data: DataTransfer): Promise<Dropped> {
  // Entries must be taken during the event; they are read afterwards.
  const entries = [...data.items].map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
  if (entries.length === 0) return { files: [...data.files], folder: null, subfolders: 0 };
  const files: File[] = [];
  let folder: string | null = null;
  let subfolders = 0;
  for (const entry of entries) {
    if (entry.isFile) files.push(await fileOf(entry as FileSystemFileEntry));
    else if (entry.isDirectory) {
      folder ??= entry.name;
      for (const child of await readEntries(entry as FileSystemDirectoryEntry)) {
        if (child.isFile) files.push(await fileOf(child as FileSystemFileEntry));
        else subfolders++;
      }
    }
  }
  return { files, folder, subfolders };
}

/** A folder chosen with the folder picker lists every file below it; keep its top level. */
function fromFolderInput(list: FileList): Dropped {
  const files = [...list];
  const folder = files[0]?.webkitRelativePath.split('/')[0] ?? null;
  const top = files.filter((f) => f.webkitRelativePath.split('/').length === 2);
  const subfolders = new Set(files.filter((f) => f.webkitRelativePath.split('/').length > 2).map((f) => f.webkitRelativePath.split('/')[1])).size;
  return { files: top, folder, subfolders };
}

export function DropZone({ onFiles, accept }: { onFiles(dropped: Dropped): void; accept: string }) {
  const [over, setOver] = useState(false);
  const onDrop = (e: TargetedDragEvent<HTMLElement>) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer) void fromDrop(e.dataTransfer).then(onFiles);
  };
  const onPick = (folder: boolean) => (e: TargetedEvent<HTMLInputElement>) => {
    const list = e.currentTarget.files;
    if (list && list.length > 0) onFiles(folder ? fromFolderInput(list) : { files: [...list], folder: null, subfolders: 0 });
    e.currentTarget.value = '';
  };
  return (
    <section
      class={`drop-zone${over ? ' is-over' : ''}`}
      aria-label="Photos to upload"
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p class="drop-title">Drop a folder of photos here</p>
      <p class="muted">JPEG or camera RAW (CR2, CR3, NEF, ARW, DNG, RAF, ORF, RW2…)</p>
      <div class="drop-actions">
        <label class="btn">
          Choose a folder
          <input type="file" class="visually-hidden" {...{ webkitdirectory: '' }} onChange={onPick(true)} />
        </label>
        <label class="btn">
          Choose photos
          <input type="file" class="visually-hidden" multiple accept={accept} onChange={onPick(false)} />
        </label>
      </div>
    </section>
  );
}
