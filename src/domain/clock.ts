/** Timestamps are ISO 8601 UTC strings everywhere: they sort as text on both engines. */
export function nowIso(): string {
  return new Date().toISOString();
}
