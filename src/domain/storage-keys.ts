/** `IMG_1.xmp` → `IMG_1.jpg`; JPEG names stay as they are. */
function jpegName(fileName: string): string {
  return /\.jpe?g$/i.test(fileName) ? fileName : `${fileName.replace(/\.[^.]*$/, '')}.jpg`;
}

/**
 * Where each project's objects live in the blob store. The last segment is the file's own
 * name, or for a thumbnail its output's name as a JPEG, which it always is.
 */
export const storageKeys = {
  original: (projectUuid: string, fileName: string) => `projects/${projectUuid}/originals/${fileName}`,
  manifest: (projectUuid: string, fileName: string) => `projects/${projectUuid}/manifests/${fileName}`,
  /** A delivered file of one kind (i2i, xmp, export...). */
  output: (projectUuid: string, kind: string, fileName: string) => `projects/${projectUuid}/${kind}/${fileName}`,
  /**
   * An output's thumbnail. The outputs of one kind share an extension (or are JPEGs put by
   * the client), so their JPEG names stay apart.
   */
  thumbnail: (projectUuid: string, kind: string, fileName: string) => `projects/${projectUuid}/${kind}-thumbnails/${jpegName(fileName)}`,
};
