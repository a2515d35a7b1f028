import type { FastifyRequest } from 'fastify';

/**
 * Each request's JSON body text as it came. Validation fills in defaults and drops unknown
 * fields in place, while a 422 must echo inputs as sent (FastAPI shows them before defaults);
 * the text is already in memory, so keeping a reference costs nothing until a 422 re-reads it.
 */
const sentText = new WeakMap<FastifyRequest, string>();

export function rememberSentBody(request: FastifyRequest, text: string): void {
  sentText.set(request, text);
}

/** The body as the client sent it; undefined when there was none. */
export function bodyAsSent(request: FastifyRequest): { value: unknown } | undefined {
  const text = sentText.get(request);
  return text === undefined ? undefined : { value: JSON.parse(text) };
}
