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
 * Object storage as the domain sees it: keys to bytes, and presigned links that let
 * clients move bytes without passing through the API. The embedded store (local disk,
 * links served by retouch) and S3 (links at the bucket) both implement it.
 */
export interface BlobStore {
  presignPut(key: string, options?: PutLinkOptions): Promise<string>;
  /** A link that downloads the object under its own name (the last segment of its key). */
  presignGet(key: string): Promise<string>;
  head(key: string): Promise<BlobInfo | null>;
  /** The objects whose keys start with prefix, by key. */
  list(prefix: string): Promise<Map<string, BlobInfo>>;
  read(key: string): Promise<Buffer>;
  write(key: string, data: Buffer): Promise<void>;
  /** Moves an object over whatever is at `to`; false when there is nothing at `from`. */
  move(from: string, to: string): Promise<boolean>;
  delete(key: string): Promise<void>;

  createMultipart(key: string): Promise<string>;
  presignPart(key: string, uploadId: string, partNumber: number): Promise<string>;
  listParts(key: string, uploadId: string): Promise<PartInfo[]>;
  /** Joins the parts, in order, into the object at key. */
  completeMultipart(key: string, uploadId: string, parts: PartInfo[]): Promise<void>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}
