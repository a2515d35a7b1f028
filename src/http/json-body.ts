import type { FastifyInstance } from 'fastify';
import { JsonBodyError } from './errors.js';
import { rememberSentBody } from './sent-bodies.js';
import { jsonInvalidError } from './validation-errors.js';

/**
 * Deeper than any body the API takes (three levels at most), shallow enough that nothing
 * downstream (validation, error serialisation) recurses far on hostile input.
 */
export const MAX_JSON_DEPTH = 32;

/** Where the text's arrays and objects first nest deeper than MAX_JSON_DEPTH, or -1; brackets inside strings do not count. */
function tooDeepAt(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

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
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, text, done) => {
    const body = String(text);
    if (body.trim() === '') return done(null, null);
    const deep = tooDeepAt(body);
    if (deep >= 0) return done(new JsonBodyError(jsonInvalidError(deep, `nested deeper than ${MAX_JSON_DEPTH} levels`)), undefined);
    try {
      const parsed = JSON.parse(body);
      rememberSentBody(request, body);
      done(null, parsed);
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
