/**
 * Which files a project takes, as docs/uploads.md lists them, so that clients pick the
 * photos out of a folder before asking for links; the service checks again.
 */
const JPEG = ['jpg', 'jpeg'];
const RAW = ['dng', 'nef', 'cr2', 'cr3', 'arw', 'nrw', 'crw', 'srf', 'sr2', 'orf', 'raw', 'rw2', 'raf', 'ptx', 'pef', 'rwl', 'srw', '3fr', 'fff'];

export type PhotoKind = 'JPEG' | 'RAW';

/** For a file picker's `accept`: `.jpg,.jpeg,.dng,…`. */
export const PHOTO_EXTENSIONS = [...JPEG, ...RAW].map((e) => `.${e}`).join(',');

/** JPEG, RAW, or null for a file that is not a photo retouch takes (also hidden files such as macOS's `._IMG_1.jpg`). */
export function photoKindOf(fileName: string): PhotoKind | null {
  if (fileName.startsWith('.')) return null;
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  if (JPEG.includes(ext)) return 'JPEG';
  if (RAW.includes(ext)) return 'RAW';
  return null;
}

/** The delivered JPEG's name for a source photo: `IMG_1.CR2` → `IMG_1.jpg` (docs/smart-editing.md). */
export function outputNameOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return `${dot < 0 ? fileName : fileName.slice(0, dot)}.jpg`;
}
