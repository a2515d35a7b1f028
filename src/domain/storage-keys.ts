/** The area of a project that upload links write to (storageKeys.upload). */
export const UPLOADS = 'uploads';

/** Where each project's objects live in the blob store. The last segment is always the file's own name. */
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
  /** An output's thumbnail, a JPEG whatever the output is. */
  thumbnail: (projectUuid: string, kind: string, fileName: string) => `projects/${projectUuid}/${kind}-thumbnails/${fileName}`,
};

/** The project, area and file name of a key of the form projects/{uuid}/{area}/{file name}; null for any other key. */
export function parseProjectKey(key: string): { projectUuid: string; area: string; fileName: string } | null {
  const match = /^projects\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(key);
  return match ? { projectUuid: match[1]!, area: match[2]!, fileName: match[3]! } : null;
}
