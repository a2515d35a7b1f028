import { InvalidRequest } from './errors.js';

export const JPEG_EXTENSIONS = ['jpg', 'jpeg'] as const;
export const RAW_EXTENSIONS = ['dng', 'nef', 'cr2', 'cr3', 'arw', 'nrw', 'crw', 'srf', 'sr2', 'orf', 'raw', 'rw2', 'raf', 'ptx', 'pef', 'rwl', 'srw', '3fr', 'fff'] as const;
const SUPPORTED = [...JPEG_EXTENSIONS, ...RAW_EXTENSIONS];

/** DNG is told apart from other RAWs only for messages; every RAW may be mixed with DNG. */
export type PhotoKind = 'JPEG' | 'RAW';

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

export function photoKind(fileName: string): PhotoKind | null {
  const ext = extensionOf(fileName);
  if ((JPEG_EXTENSIONS as readonly string[]).includes(ext)) return 'JPEG';
  if ((RAW_EXTENSIONS as readonly string[]).includes(ext)) return 'RAW';
  return null;
}

/** C0 controls and DEL. */
const hasControlCharacter = (text: string) => [...text].some((ch) => ch.charCodeAt(0) < 0x20 || ch === '\u007f');

/** Names become the last segment of object keys and of download links: they must be plain names. */
export function assertPlainFileName(fileName: string): void {
  const bad = /[/\\]/.test(fileName) || hasControlCharacter(fileName) || fileName === '.' || fileName === '..' || fileName.includes('..');
  if (bad || fileName.trim() === '' || Buffer.byteLength(fileName) > 255) {
    throw new InvalidRequest(`File name ${JSON.stringify(fileName)} is not valid: send a plain file name of at most 255 bytes, without path separators, "..", or control characters.`);
  }
}

/** Checks one photo's name and returns its kind. */
export function assertSupportedPhoto(fileName: string): PhotoKind {
  assertPlainFileName(fileName);
  const kind = photoKind(fileName);
  if (!kind) throw new InvalidRequest(`file ${fileName} is not supported. supported files types are ${SUPPORTED.join(', ')}`);
  return kind;
}

/** A project holds all JPEG, or all RAW (DNG included): reference §4.6. */
export function assertCompatibleKinds(fileNames: string[]): void {
  const jpeg = fileNames.find((n) => photoKind(n) === 'JPEG');
  const raw = fileNames.find((n) => photoKind(n) === 'RAW');
  if (jpeg !== undefined && raw !== undefined) {
    throw new InvalidRequest(`Invalid combination of file types: ${jpeg} (JPEG) and ${raw} (RAW) in one project. A project holds all JPEG, all RAW, or RAW plus DNG.`);
  }
}
