/** How objects are named in URLs and served over HTTP: the same from the embedded store and from S3. */

/** Object keys are paths of segments; each segment is URL-encoded on the way into a link. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  webp: 'image/webp',
  json: 'application/json',
  xmp: 'application/rdf+xml',
};

export function contentType(key: string): string {
  return CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';
}

/** Saves a download under the object's own name, the last segment of its key (RFC 6266, UTF-8 names included). */
export function contentDisposition(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
