/** The area of a project that upload links write to (storageKeys.upload). */
export const UPLOADS = 'uploads';

/** `IMG_1.xmp` → `IMG_1.jpg`; JPEG names stay as they are. */
function jpegName(fileName: string): string {
  return /\.jpe?g$/i.test(fileName) ? fileName : `${fileName.replace(/\.[^.]*$/, '')}.jpg`;
}

/**
 * Where each project's objects live in the blob store. The last segment is the file's own
 * name, or for a thumbnail its output's name as a JPEG, which it always is.
 */
export const storageKeys = {
  /** Where upload links put a photo or a manifest; moved to its sealed key when the project is submitted. */
  upload: (projectUuid: string, fileName: string) => `projects/${projectUuid}/${UPLOADS}/${fileName}`,
  uploads: (projectUuid: string) => `projects/${projectUuid}/${UPLOADS}/`,
  /** A submitted photo, as the engine reads it: no link ever points here. */
  original: (projectUuid: string, fileName: string) => `projects/${projectUuid}/originals/${fileName}`,
  originals: (projectUuid: string) => `projects/${projectUuid}/originals/`,
  manifest: (projectUuid: string, fileName: string) => `projects/${projectUuid}/manifests/${fileName}`,
  /** A delivered file of one kind (i2i, xmp, export...). */
  output: (projectUuid: string, kind: string, fileName: string) => `projects/${projectUuid}/${kind}/${fileName}`,
  /**
   * An output's thumbnail. The outputs of one kind share an extension (or are JPEGs put by
   * the client), so their JPEG names stay apart.
   */
  thumbnail: (projectUuid: string, kind: string, fileName: string) => `projects/${projectUuid}/${kind}-thumbnails/${jpegName(fileName)}`,
};

/** The project, area and file name of a key of the form projects/{uuid}/{area}/{file name}; null for any other key. */
export function parseProjectKey(key: string): { projectUuid: string; area: string; fileName: string } | null {
  const match = /^projects\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(key);
  return match ? { projectUuid: match[1]!, area: match[2]!, fileName: match[3]! } : null;
}
