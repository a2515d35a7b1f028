import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import FindMyWay from 'find-my-way';
import { DomainError, Forbidden, InvalidRequest, NotFound, Unauthenticated } from '../domain/errors.js';
import { bodyAsSent } from './sent-bodies.js';
import { type AjvError, boundedInput, type PydanticError, toPydanticErrors, type ValidationContext } from './validation-errors.js';

/** The standard error envelope of reference §7. */
export function errorBody(message: string): { error: { message: string } } {
  return { error: { message } };
}

/** A request body that is not JSON; answered as FastAPI does, with a 422. */
export class JsonBodyError extends Error {
  constructor(readonly entry: PydanticError) {
    super('JSON decode error');
  }
}

/**
 * A request whose fields are each valid but not together (pydantic's model validators):
 * a 422 with one `value_error` at `["body"]`, echoing the body as sent.
 */
export class ModelValidationError extends Error {
  entry(sent: unknown): PydanticError {
    return { type: 'value_error', loc: ['body'], msg: `Value error, ${this.message}`, input: sent, ctx: { error: this.message } };
  }
}

function domainStatus(err: DomainError): number {
  if (err instanceof InvalidRequest) return 400;
  if (err instanceof Unauthenticated) return 401;
  if (err instanceof Forbidden) return 403;
  if (err instanceof NotFound) return 404;
  return 400;
}

/** FastAPI reports query inputs as the strings sent (the last, for one sent twice), not as ajv's coerced values. */
function showRawQueryInput(detail: PydanticError[], url: string): void {
  const raw = new URLSearchParams(url.split('?')[1] ?? '');
  for (const entry of detail) {
    const name = entry.loc.length === 2 ? String(entry.loc[1]) : null;
    if (name !== null && entry.type !== 'missing' && raw.has(name)) entry.input = raw.getAll(name).at(-1);
  }
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

export function registerErrorHandling(app: FastifyInstance): void {
  // A shadow of the routing table, to tell "no such path" (404) from "no such method here" (405).
  const shadow = FindMyWay({ ignoreTrailingSlash: true });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if ((METHODS as readonly string[]).includes(method)) shadow.on(method as (typeof METHODS)[number], route.url, () => undefined);
    }
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const elsewhere = METHODS.some((m) => m !== request.method && shadow.find(m, path) !== null);
    if (elsewhere) return reply.code(405).send({ detail: 'Method Not Allowed' });
    return reply.code(404).send({ detail: 'Not Found' });
  });

  const unprocessable = (reply: FastifyReply, detail: PydanticError[]) => reply.code(422).send({ detail: detail.map((e) => ({ ...e, input: boundedInput(e.input) })) });

  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    if (err instanceof JsonBodyError) return unprocessable(reply, [err.entry]);
    if (err instanceof ModelValidationError) return unprocessable(reply, [err.entry(bodyAsSent(request)?.value ?? null)]);
    if (err.validation) {
      const context = (err.validationContext ?? 'body') as ValidationContext;
      const detail = toPydanticErrors(err.validation as unknown as AjvError[], context, context === 'body' ? bodyAsSent(request) : undefined);
      if (context === 'querystring') showRawQueryInput(detail, request.url);
      return unprocessable(reply, detail);
    }
    if (err instanceof DomainError) return reply.code(domainStatus(err)).send(errorBody(err.message));
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send(errorBody(err.message));
    request.log.error({ err }, 'unexpected error');
    return reply.code(500).send(errorBody('Internal Server Error'));
  });
}
