import { outputNameOf } from '../../src/client/photo-files.js';

/**
 * What this tab remembers beside the API. The API has no download link for originals,
 * no time of submission and no list of Copilot versions, so the app keeps them itself:
 * the dropped files in memory (gone on reload), the rest in sessionStorage.
 */

const originals = new Map<string, Map<string, File>>();

/** Keeps the files uploaded to a project, keyed by the name of the JPEG each becomes. */
export function rememberOriginals(uuid: string, files: File[]): void {
  originals.set(uuid, new Map(files.map((f) => [outputNameOf(f.name), f])));
}

/** The original of a delivered image, when this tab uploaded it and the browser can show it (JPEG, not RAW). */
export function originalOf(uuid: string, outputName: string): File | null {
  const file = originals.get(uuid)?.get(outputName);
  return file && /\.jpe?g$/i.test(file.name) ? file : null;
}

/** Names of the photos this tab uploaded to the project, or null when it uploaded none. */
export function uploadedNames(uuid: string): string[] | null {
  const files = originals.get(uuid);
  return files ? [...files.values()].map((f) => f.name) : null;
}

export interface Submission {
  at: number;
  hdr: boolean;
}

export function rememberSubmission(uuid: string, submission: Submission): void {
  sessionStorage.setItem(`retouch.submitted.${uuid}`, JSON.stringify(submission));
}

export function submissionOf(uuid: string): Submission | null {
  const raw = sessionStorage.getItem(`retouch.submitted.${uuid}`);
  return raw ? (JSON.parse(raw) as Submission) : null;
}

/** A Copilot version as the app shows it. */
export interface VersionNode {
  id: number;
  /** The version it was made from; null: the batch edit. */
  parent: number | null;
  /** The instruction typed, or the tool's label. */
  label: string;
  kind: 'instruction' | 'tool';
  /** What the service says the version changed: "exposure +0.40 EV, temperature +600 K". */
  changes: string;
  url: string;
  at: number;
}

const versionsKey = (uuid: string, photo: string) => `retouch.copilot.${uuid}.${photo}`;

export function storedVersions(uuid: string, photo: string): VersionNode[] {
  const raw = sessionStorage.getItem(versionsKey(uuid, photo));
  return raw ? (JSON.parse(raw) as VersionNode[]) : [];
}

export function storeVersions(uuid: string, photo: string, versions: VersionNode[]): void {
  if (versions.length === 0) sessionStorage.removeItem(versionsKey(uuid, photo));
  else sessionStorage.setItem(versionsKey(uuid, photo), JSON.stringify(versions));
}
