import type { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { S3Config } from '../config.js';
import type { BlobInfo, BlobStore, PartInfo, PutLinkOptions } from '../domain/blob-store.js';
import { contentDisposition, contentType, encodeKey } from './object-headers.js';

export interface S3BlobStoreOptions extends S3Config {
  linkTtlSeconds: number;
}

/** The error S3 answers when the object or upload is not there (404 whatever its code: HEAD has no body to name it). */
function isMissing(err: unknown): boolean {
  return err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404;
}

/**
 * Blobs in an S3 bucket (AWS, or any S3-compatible server). Presigned links point at the
 * bucket, so uploads and downloads never pass through retouch; the service itself only
 * reads photos to develop them and writes what it makes.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;

  constructor(private readonly options: S3BlobStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires one: a presigned PUT would otherwise sign in the
      // checksum of an empty body, and several S3-compatible servers refuse the newer checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private get bucket(): string {
    return this.options.bucket;
  }

  private key(key: string): string {
    return this.options.prefix + key;
  }

  private get linkOptions(): { expiresIn: number } {
    return { expiresIn: this.options.linkTtlSeconds };
  }

  /** A declared MD5 is signed in as Content-MD5: the client must send that header, and S3 refuses bytes that do not match it. */
  presignPut(key: string, options: PutLinkOptions = {}): Promise<string> {
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), ...(options.md5 ? { ContentMD5: options.md5 } : {}) });
    return getSignedUrl(this.client, command, this.linkOptions);
  }

  /** Objects put through presigned links have no type of their own: the link names it, and the file name. */
  presignGet(key: string): Promise<string> {
    const command = new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key), ResponseContentType: contentType(key), ResponseContentDisposition: contentDisposition(key) });
    return getSignedUrl(this.client, command, this.linkOptions);
  }

  presignPart(key: string, uploadId: string, partNumber: number): Promise<string> {
    const command = new UploadPartCommand({ Bucket: this.bucket, Key: this.key(key), UploadId: uploadId, PartNumber: partNumber });
    return getSignedUrl(this.client, command, this.linkOptions);
  }

  async head(key: string): Promise<BlobInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return { size: head.ContentLength ?? 0, etag: head.ETag ?? '' };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<Map<string, BlobInfo>> {
    const found = new Map<string, BlobInfo>();
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.key(prefix), ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        found.set(object.Key!.slice(this.options.prefix.length), { size: object.Size ?? 0, etag: object.ETag ?? '' });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  /** Streams the object from the bucket into one buffer of the length S3 announces (no second copy). */
  async read(key: string): Promise<Buffer> {
    const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
    const length = object.ContentLength ?? 0;
    const bytes = Buffer.allocUnsafe(length);
    let filled = 0;
    for await (const chunk of object.Body as Readable) {
      if (filled + (chunk as Buffer).length > length) throw new Error(`${key}: the bucket sent more than the ${length} bytes it announced`);
      filled += (chunk as Buffer).copy(bytes, filled);
    }
    if (filled !== length) throw new Error(`${key}: the bucket sent ${filled} of ${length} bytes`);
    return bytes;
  }

  async write(key: string, data: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: data, ContentLength: data.length, ContentType: contentType(key) }));
  }

  /** A copy inside the bucket (no bytes through retouch), then the source is deleted. */
  async move(from: string, to: string): Promise<boolean> {
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: this.key(to), CopySource: `${this.bucket}/${encodeKey(this.key(from))}` }));
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
    await this.delete(from);
    return true;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  async createMultipart(key: string): Promise<string> {
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.key(key) }));
    return created.UploadId!;
  }

  /** The parts S3 holds; none when S3 no longer knows the upload (aborted, or expired by a lifecycle rule). */
  async listParts(key: string, uploadId: string): Promise<PartInfo[]> {
    const parts: PartInfo[] = [];
    let marker: string | undefined;
    try {
      do {
        const page = await this.client.send(new ListPartsCommand({ Bucket: this.bucket, Key: this.key(key), UploadId: uploadId, PartNumberMarker: marker }));
        for (const part of page.Parts ?? []) parts.push({ partNumber: part.PartNumber!, size: part.Size ?? 0, etag: part.ETag! });
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (err) {
      if (isMissing(err)) return [];
      throw err;
    }
    return parts;
  }

  async completeMultipart(key: string, uploadId: string, parts: PartInfo[]): Promise<void> {
    await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.key(key),
        UploadId: uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag })) },
      }),
    );
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.key(key), UploadId: uploadId }));
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  /** Closes the client's kept-alive connections. */
  close(): void {
    this.client.destroy();
  }
}
