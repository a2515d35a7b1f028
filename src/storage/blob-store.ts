import type { Readable } from 'node:stream';

/** What a presigned PUT may require of the bytes it receives. */
export interface PutLinkOptions {
  /** Base64 MD5 the uploaded bytes must have. */
  md5?: string | null;
}

export interface BlobInfo {
  size: number;
  etag: string;
}

export interface PartInfo {
  partNumber: number;
  size: number;
  etag: string;
}

/**
 * Object storage as the service sees it: keys to bytes, and presigned links that let
 * clients move bytes without passing through the API. Local disk and S3 both fit it.
 */
export interface BlobStore {
  presignPut(key: string, options?: PutLinkOptions): Promise<string>;
  presignGet(key: string): Promise<string>;
  head(key: string): Promise<BlobInfo | null>;
  read(key: string): Promise<Buffer>;
  readStream(key: string): Readable;
  write(key: string, data: Buffer): Promise<void>;
  delete(key: string): Promise<void>;

  createMultipart(key: string): Promise<string>;
  presignPart(key: string, uploadId: string, partNumber: number): Promise<string>;
  listParts(key: string, uploadId: string): Promise<PartInfo[]>;
  /** Joins the parts, in order, into the object at key. */
  completeMultipart(key: string, uploadId: string, parts: PartInfo[]): Promise<void>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

/** Object keys are paths of segments; each segment is URL-encoded on the way into a link. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
