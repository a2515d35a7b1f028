import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { errorMessage } from '../../client/api.js';
import { type ByteRange, TransferError, type UploadTransport } from '../../client/uploads.js';

/** A photo on disk, as the uploader sees it. */
export interface LocalPhoto {
  name: string;
  size: number;
  mtimeMs: number;
  path: string;
}

function answerText(status: number, body: string): string {
  try {
    return `${status} ${errorMessage(status, JSON.parse(body))}`;
  } catch {
    return `${status} ${http.STATUS_CODES[status] ?? ''}`.trim();
  }
}

/**
 * PUTs a byte range of a file with node:http, which (unlike fetch) sends the empty
 * Content-Type the reference asks for and a Content-Length, as S3 needs, while the bytes
 * stream from disk.
 */
export const nodeTransport: UploadTransport<LocalPhoto> = {
  put(url: string, file: LocalPhoto, range: ByteRange, onSent: (bytes: number) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const length = range.end - range.start;
      const source = length > 0 ? fs.createReadStream(file.path, { start: range.start, end: range.end - 1 }) : null;
      const request = (url.startsWith('https:') ? https : http).request(url, {
        method: 'PUT',
        headers: { 'content-type': '', 'content-length': String(length) },
      });
      request.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else reject(new TransferError(status, `upload of ${file.name} was refused: ${answerText(status, body)}`));
        });
      });
      request.on('error', (err: NodeJS.ErrnoException) => {
        source?.destroy();
        reject(new TransferError(0, `upload of ${file.name} failed: ${err.code ?? err.message}`));
      });
      if (!source) return void request.end();
      let sent = 0;
      source.on('data', (chunk) => {
        sent += chunk.length;
        onSent(sent);
      });
      // An unreadable file is not a network failure: it is not tried again.
      source.on('error', (err) => {
        request.destroy();
        reject(new Error(`cannot read ${file.path}: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
      });
      source.pipe(request);
    });
  },
};

/** Downloads a presigned link to a file, through a temporary name so that a file present is always whole. */
export async function downloadTo(url: string, file: string): Promise<void> {
  const name = path.basename(file);
  const res = await fetch(url).catch((err: Error) => {
    throw new TransferError(0, `download of ${name} failed: ${(err.cause as NodeJS.ErrnoException | undefined)?.code ?? err.message}`);
  });
  if (!res.ok || !res.body) throw new TransferError(res.status, `download of ${name} was refused: ${answerText(res.status, await res.text())}`);
  const partial = `${file}.part`;
  await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), fs.createWriteStream(partial));
  fs.renameSync(partial, file);
}
