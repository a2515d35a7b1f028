import type { FastifyInstance } from 'fastify';
import { JsonBodyError } from './errors.js';
import { jsonInvalidError } from './validation-errors.js';

/**
 * Every body the API takes is JSON, whatever the Content-Type says: official clients
 * send JSON with an empty Content-Type, or none. An empty body reads as null.
 */
export function registerJsonParsing(app: FastifyInstance): void {
  // Fastify refuses an empty Content-Type with 415 before any parser runs; treat it as absent.
  app.addHook('onRequest', async (request) => {
    if (request.headers['content-type']?.trim() === '') delete request.headers['content-type'];
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    const body = String(text);
    if (body.trim() === '') return done(null, null);
    try {
      done(null, JSON.parse(body));
    } catch (err) {
      const position = Number(/position (\d+)/.exec(String(err))?.[1] ?? 0);
      done(new JsonBodyError(jsonInvalidError(position, (err as Error).message)), undefined);
    }
  });
  // Requests with no body at all never reach the parser; give their handlers the same null.
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) request.body = null;
  });
}
