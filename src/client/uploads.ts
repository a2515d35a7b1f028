import { ApiError, type RetouchClient } from './api.js';
import type { Flow, MultipartStart } from './records.js';

/** Files above this go up in parts (reference §4.4: a single PUT of a large RAW may time out). */
export const MULTIPART_THRESHOLD = 100 * 1024 * 1024;
/** S3's minimum for every part but the last, which retouch keeps too. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
const DEFAULT_PART_SIZE = 16 * 1024 * 1024;
const MAX_PARTS = 10_000;

/** Bytes [start, end) of a file. */
export interface ByteRange {
  start: number;
  end: number;
}

/** The ranges of a multipart upload: parts of `partSize` (at least 5 MB), more when the file would need over 10000. */
export function partRanges(size: number, partSize = DEFAULT_PART_SIZE): ByteRange[] {
  const length = Math.max(partSize, MIN_PART_SIZE, Math.ceil(size / MAX_PARTS));
  const ranges: ByteRange[] = [];
  for (let start = 0; start < size || ranges.length === 0; start += length) ranges.push({ start, end: Math.min(size, start + length) });
  return ranges;
}

/** A PUT that failed; status 0 when no answer came. */
export class TransferError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Moves bytes to presigned links: XMLHttpRequest in the browser, node:http in the CLI. */
export interface UploadTransport<F> {
  /**
   * PUTs bytes `range` of `file` to `url` with an empty Content-Type and no API key,
   * calling `onSent` with the bytes of this range sent so far; rejects with a TransferError.
   */
  put(url: string, file: F, range: ByteRange, onSent: (bytes: number) => void): Promise<void>;
}

export interface UploadFile {
  name: string;
  size: number;
}

export interface FileProgress {
  name: string;
  size: number;
  sent: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  /** Why it failed, on one line. */
  error?: string;
}

export interface UploadOptions {
  /** PUTs in flight at once. */
  concurrency?: number;
  /** Tries per PUT; network errors, 5xx, 408 and 429 are tried again, other refusals are not. */
  attempts?: number;
  multipartThreshold?: number;
  partSize?: number;
  /** The wait before try number `attempt + 1`. */
  retryDelayMs?: (attempt: number) => number;
  /** Called whenever a file's progress changes. */
  onProgress?: (file: FileProgress) => void;
}

/** Runs at most n tasks at once; a finished task hands its slot straight to the next waiting one. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active < n) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

function retryable(err: unknown): boolean {
  const status = err instanceof TransferError || err instanceof ApiError ? err.status : -1;
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

interface OpenMultipart {
  start: MultipartStart;
  ranges: ByteRange[];
  /** Part numbers already stored: a retry sends only the others. */
  stored: Set<number>;
}

/**
 * Uploads a project's photos straight to their presigned links, several at once: one PUT
 * per file, or a multipart upload for large files in a Smart Editing project (the
 * profile flow has no multipart endpoints). A failed PUT is tried again; a file that still
 * fails is reported, and running the uploader again on it sends only what is missing.
 */
export class Uploader<F extends UploadFile> {
  private readonly progress = new Map<string, FileProgress>();
  private readonly multiparts = new Map<string, OpenMultipart>();
  private readonly limit: <T>(task: () => Promise<T>) => Promise<T>;
  private readonly options: Required<Omit<UploadOptions, 'onProgress'>> & Pick<UploadOptions, 'onProgress'>;

  constructor(
    private readonly client: RetouchClient,
    private readonly flow: Flow,
    private readonly uuid: string,
    private readonly transport: UploadTransport<F>,
    options: UploadOptions = {},
  ) {
    this.options = {
      concurrency: options.concurrency ?? 4,
      attempts: options.attempts ?? 3,
      multipartThreshold: options.multipartThreshold ?? MULTIPART_THRESHOLD,
      partSize: options.partSize ?? DEFAULT_PART_SIZE,
      retryDelayMs: options.retryDelayMs ?? ((attempt) => 1000 * attempt),
      onProgress: options.onProgress,
    };
    this.limit = limiter(this.options.concurrency);
  }

  /** Uploads the files (again, for failed ones); resolves with every file's final progress. */
  async upload(files: F[]): Promise<FileProgress[]> {
    for (const file of files) this.set(this.entry(file), { state: 'waiting', sent: 0, error: undefined });
    let next = 0;
    const worker = async () => {
      while (next < files.length) await this.uploadOne(files[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, files.length) }, worker));
    return files.map((f) => this.entry(f));
  }

  private entry(file: F): FileProgress {
    const known = this.progress.get(file.name);
    if (known) return known;
    const p: FileProgress = { name: file.name, size: file.size, sent: 0, state: 'waiting' };
    this.progress.set(file.name, p);
    return p;
  }

  private set(p: FileProgress, change: Partial<FileProgress>): void {
    Object.assign(p, change);
    this.options.onProgress?.({ ...p });
  }

  private async uploadOne(file: F): Promise<void> {
    const p = this.entry(file);
    this.set(p, { state: 'uploading' });
    try {
      if (this.flow === 'i2i' && file.size > this.options.multipartThreshold) await this.multipart(file, p);
      else {
        const [link] = await this.client.uploadLinks(this.flow, this.uuid, [file.name]);
        await this.put(link!.upload_link, file, { start: 0, end: file.size }, (sent) => this.set(p, { sent }));
      }
      this.set(p, { state: 'done', sent: file.size });
    } catch (err) {
      this.set(p, { state: 'failed', error: (err as Error).message });
    }
  }

  private async multipart(file: F, p: FileProgress): Promise<void> {
    let open = this.multiparts.get(file.name);
    if (!open) {
      const ranges = partRanges(file.size, this.options.partSize);
      open = { start: await this.client.startMultipart(this.uuid, file.name, ranges.length), ranges, stored: new Set() };
      this.multiparts.set(file.name, open);
    }
    const { start, ranges, stored } = open;
    const sentOf = new Map<number, number>(ranges.map((r, i) => [i + 1, stored.has(i + 1) ? r.end - r.start : 0]));
    const report = () => this.set(p, { sent: [...sentOf.values()].reduce((a, b) => a + b, 0) });
    const results = await Promise.allSettled(
      start.parts
        .filter((part) => !stored.has(part.part_number))
        .map(async (part) => {
          const onSent = (bytes: number) => {
            sentOf.set(part.part_number, bytes);
            report();
          };
          await this.put(part.upload_url, file, ranges[part.part_number - 1]!, onSent);
          stored.add(part.part_number);
        }),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) {
      // An expired or refused part link cannot be renewed: the next try starts a new upload.
      if (failure.reason instanceof TransferError && failure.reason.status === 403) {
        this.multiparts.delete(file.name);
        await this.client.abortMultipart(this.uuid, start.upload_id, start.key).catch(() => undefined);
      }
      throw failure.reason;
    }
    await this.client.completeMultipart(this.uuid, start.upload_id, file.name);
    this.multiparts.delete(file.name);
  }

  private async put(url: string, file: F, range: ByteRange, onSent: (bytes: number) => void): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        onSent(0);
        return await this.limit(() => this.transport.put(url, file, range, onSent));
      } catch (err) {
        if (attempt >= this.options.attempts || !retryable(err)) throw err;
        await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs(attempt)));
      }
    }
  }
}
