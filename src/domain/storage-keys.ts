/** Where each project's objects live in the blob store. The last segment is always the file's own name. */
export const storageKeys = {
  original: (projectUuid: string, fileName: string) => `projects/${projectUuid}/originals/${fileName}`,
  manifest: (projectUuid: string, fileName: string) => `projects/${projectUuid}/manifests/${fileName}`,
  output: (projectUuid: string, fileName: string) => `projects/${projectUuid}/outputs/${fileName}`,
  thumbnail: (projectUuid: string, fileName: string) => `projects/${projectUuid}/thumbnails/${fileName}`,
};
