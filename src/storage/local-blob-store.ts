import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobInfo, BlobStore, PartInfo, PutLinkOptions } from '../domain/blob-store.js';
import type { LinkClaims, LinkSigner } from './link-signer.js';
import { encodeKey } from './object-headers.js';

/** The bytes received do not have the MD5 the uploader declared. */
export class DigestMismatchError extends Error {}

/** A key that would leave the storage root, or a part outside an upload. */
export class InvalidKeyError extends Error {}

export interface LocalBlobStoreOptions {
  root: string;
  signer: LinkSigner;
  /** Base URL of the service that serves /storage. */
  publicUrl: string;
  linkTtlSeconds: number;
}

export interface WriteOptions {
  /** Base64 MD5 from a Content-MD5 header. */
  contentMd5?: string | undefined;
  /** Base64 MD5 declared when the link was made. */
  expectedMd5?: string | undefined;
}

/** Passes bytes through unchanged, feeding them to hash on the way. */
function hashing(hash: crypto.Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
}

/**
 * Blobs as files under a root directory. Presigned links point at the service's own
 * /storage route, which checks the signature and calls back into this store.
 */
export class LocalBlobStore implements BlobStore {
  private readonly objects: string;
  private readonly parts: string;
  private readonly tmp: string;
  /** Set again once the server knows its address, when PUBLIC_URL does not fix it. */
  publicUrl: string;

  constructor(private readonly options: LocalBlobStoreOptions) {
    this.publicUrl = options.publicUrl;
    this.objects = path.join(options.root, 'objects');
    this.parts = path.join(options.root, 'multipart');
    this.tmp = path.join(options.root, 'tmp');
    for (const dir of [this.objects, this.parts, this.tmp]) fs.mkdirSync(dir, { recursive: true });
  }

  /** The query string of a signed link for claims, minus the expiry computed here. */
  private link(claims: Omit<LinkClaims, 'expires'>): string {
    const expires = Math.floor(Date.now() / 1000) + this.options.linkTtlSeconds;
    const full: LinkClaims = { ...claims, expires };
    const query = new URLSearchParams({ method: claims.method, expires: String(expires) });
    if (claims.md5) query.set('md5', claims.md5);
    if (claims.uploadId) query.set('uploadId', claims.uploadId);
    if (claims.partNumber !== undefined) query.set('partNumber', String(claims.partNumber));
    query.set('signature', this.options.signer.sign(full));
    return `${this.publicUrl}/storage/${encodeKey(claims.key)}?${query.toString()}`;
  }

  async presignPut(key: string, options: PutLinkOptions = {}): Promise<string> {
    return this.link({ method: 'PUT', key, md5: options.md5 ?? undefined });
  }

  async presignGet(key: string): Promise<string> {
    return this.link({ method: 'GET', key });
  }

  async presignPart(key: string, uploadId: string, partNumber: number): Promise<string> {
    return this.link({ method: 'PUT', key, uploadId, partNumber });
  }

  /** Path of an object's file; refuses keys that would escape the root. */
  objectPath(key: string): string {
    const resolved = path.resolve(this.objects, key);
    if (!resolved.startsWith(this.objects + path.sep)) throw new InvalidKeyError(`invalid key ${key}`);
    return resolved;
  }

  private uploadDir(uploadId: string): string {
    if (!/^[A-Za-z0-9-]+$/.test(uploadId)) throw new InvalidKeyError(`invalid upload id ${uploadId}`);
    return path.join(this.parts, uploadId);
  }

  async head(key: string): Promise<BlobInfo | null> {
    try {
      const stat = await fsp.stat(this.objectPath(key));
      return stat.isFile() ? infoOf(stat) : null;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<Map<string, BlobInfo>> {
    const found = new Map<string, BlobInfo>();
    // The deepest directory that holds every key with this prefix; its files are filtered by the rest.
    const dir = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir === '' ? this.objects : this.objectPath(dir), { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return found;
      throw err;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const key = path.relative(this.objects, file).split(path.sep).join('/');
      if (!key.startsWith(prefix)) continue;
      // A file moved or deleted since the directory was read is simply not listed.
      const stat = await fsp.stat(file).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null;
        throw err;
      });
      if (stat) found.set(key, infoOf(stat));
    }
    return found;
  }

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.objectPath(key));
  }

  readStream(key: string, range?: { start: number; end: number }): Readable {
    return fs.createReadStream(this.objectPath(key), range);
  }

  async write(key: string, data: Buffer): Promise<void> {
    const source = new PassThrough();
    source.end(data);
    await this.writeStream(key, source);
  }

  async move(from: string, to: string): Promise<boolean> {
    const target = this.objectPath(to);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    try {
      await fsp.rename(this.objectPath(from), target);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.objectPath(key), { force: true });
  }

  /**
   * Streams source into the object at key: to a temporary file first, verified, then
   * renamed over the old object so readers see the old bytes or the new, never a part.
   */
  async writeStream(key: string, source: Readable, options: WriteOptions = {}): Promise<BlobInfo> {
    return this.writeFile(this.objectPath(key), source, options);
  }

  async writePart(uploadId: string, partNumber: number, source: Readable, options: WriteOptions = {}): Promise<BlobInfo> {
    const dir = this.uploadDir(uploadId);
    if (!fs.existsSync(dir)) throw new InvalidKeyError(`no multipart upload ${uploadId}`);
    return this.writeFile(path.join(dir, String(partNumber)), source, options);
  }

  private async writeFile(target: string, source: Readable, options: WriteOptions): Promise<BlobInfo> {
    const wanted = [options.contentMd5, options.expectedMd5].filter((v): v is string => Boolean(v));
    const temp = path.join(this.tmp, crypto.randomUUID());
    const sink = fs.createWriteStream(temp, { highWaterMark: 1 << 20 });
    try {
      if (wanted.length === 0) {
        // The common case streams straight to disk: no hashing stage in the way of throughput.
        await pipeline(source, sink);
      } else {
        const hash = crypto.createHash('md5');
        await pipeline(source, hashing(hash), sink);
        const digest = hash.digest('base64');
        const mismatch = wanted.find((md5) => md5 !== digest);
        if (mismatch !== undefined) throw new DigestMismatchError(`The MD5 of the uploaded bytes (${digest}) does not match the declared MD5 (${mismatch}).`);
      }
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.rename(temp, target);
    } finally {
      await fsp.rm(temp, { force: true });
    }
    return infoOf(await fsp.stat(target));
  }

  async createMultipart(_key: string): Promise<string> {
    const uploadId = crypto.randomUUID();
    await fsp.mkdir(this.uploadDir(uploadId), { recursive: true });
    return uploadId;
  }

  async listParts(_key: string, uploadId: string): Promise<PartInfo[]> {
    const dir = this.uploadDir(uploadId);
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const parts = await Promise.all(
      names
        .filter((n) => /^\d+$/.test(n))
        .map(async (n) => {
          const stat = await fsp.stat(path.join(dir, n));
          return { partNumber: Number(n), size: stat.size, etag: etagOf(stat) };
        }),
    );
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(key: string, uploadId: string, parts: PartInfo[]): Promise<void> {
    const dir = this.uploadDir(uploadId);
    const joined = new PassThrough({ highWaterMark: 1 << 20 });
    const feed = (async () => {
      for (const part of parts) {
        await pipeline(fs.createReadStream(path.join(dir, String(part.partNumber)), { highWaterMark: 1 << 20 }), joined, { end: false });
      }
      joined.end();
    })();
    feed.catch((err: Error) => joined.destroy(err));
    await Promise.all([this.writeStream(key, joined), feed]);
    await fsp.rm(dir, { recursive: true, force: true });
  }

  async abortMultipart(_key: string, uploadId: string): Promise<void> {
    await fsp.rm(this.uploadDir(uploadId), { recursive: true, force: true });
  }
}

function etagOf(stat: fs.Stats): string {
  return `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
}

function infoOf(stat: fs.Stats): BlobInfo {
  return { size: stat.size, etag: etagOf(stat) };
}
