import { Zip, ZipPassThrough } from 'fflate';
import { errorMessage } from '../../src/client/api.js';
import type { DownloadEntry } from '../../src/client/records.js';
import { TransferError, type UploadTransport } from '../../src/client/uploads.js';

function refusal(status: number, body: string): string {
  try {
    return `${status} ${errorMessage(status, JSON.parse(body))}`;
  } catch {
    return String(status);
  }
}

/**
 * PUTs straight to the presigned link with XMLHttpRequest, the one browser API that
 * reports upload progress. The slice has no type, so no Content-Type is made up for it.
 */
export const browserTransport: UploadTransport<File> = {
  put(url, file, range, onSent) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', url);
      xhr.upload.onprogress = (e) => onSent(e.loaded);
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) resolve();
        else reject(new TransferError(xhr.status, `upload of ${file.name} was refused: ${refusal(xhr.status, xhr.responseText)}`));
      };
      xhr.onerror = () => reject(new TransferError(0, `upload of ${file.name} failed: the connection was lost`));
      xhr.send(file.slice(range.start, range.end));
    });
  },
};

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * One ZIP of the files, built in the browser (fflate) as each download streams in. The
 * images are stored, not deflated: JPEGs do not compress and it keeps the CPU free.
 */
export async function zipOf(entries: DownloadEntry[], onFile: (done: number) => void): Promise<Blob> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let finished!: () => void;
  let failed!: (err: Error) => void;
  const ended = new Promise<void>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const zip = new Zip((err, chunk, final) => {
    if (err) return failed(err);
    chunks.push(chunk as Uint8Array<ArrayBuffer>);
    if (final) finished();
  });
  for (const [i, entry] of entries.entries()) {
    const res = await fetch(entry.download_link);
    if (!res.ok || !res.body) throw new TransferError(res.status, `download of ${entry.file_name} was refused: ${refusal(res.status, await res.text())}`);
    const member = new ZipPassThrough(entry.file_name);
    zip.add(member);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      member.push(value);
    }
    member.push(new Uint8Array(0), true);
    onFile(i + 1);
  }
  zip.end();
  await ended;
  return new Blob(chunks, { type: 'application/zip' });
}
