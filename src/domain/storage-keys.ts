/** Where each project's objects live in the blob store. The last segment is always the file's own name. */
export const storageKeys = {
  original: (projectUuid: string, fileName: string) => `projects/${projectUuid}/originals/${fileName}`,
  manifest: (projectUuid: string, fileName: string) => `projects/${projectUuid}/manifests/${fileName}`,
  /** A delivered file of one kind (i2i, xmp, export...). */
  output: (projectUuid: string, kind: string, fileName: string) => `projects/${projectUuid}/${kind}/${fileName}`,
  /** An output's thumbnail, a JPEG whatever the output is. */
  thumbnail: (projectUuid: string, kind: string, fileName: string) => `projects/${projectUuid}/${kind}-thumbnails/${fileName}`,
};
