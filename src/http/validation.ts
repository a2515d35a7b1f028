import { Ajv, type Options } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const common: Options = { allErrors: true, verbose: true, removeAdditional: true, useDefaults: true, strict: false };

/**
 * Two validators, as pydantic behaves: query and path values arrive as text and are parsed
 * ("20" is an integer), while JSON bodies keep their types (7 is not a string).
 */
export function registerValidation(app: FastifyInstance): void {
  const fromText = new Ajv({ ...common, coerceTypes: 'array' });
  const fromJson = new Ajv({ ...common, coerceTypes: false });
  for (const ajv of [fromText, fromJson]) ajvFormats.default(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? fromJson : fromText).compile(schema));
  app.addHook('preValidation', async (request) => normalizeQuery(request));
}

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

interface PropertySchema {
  type?: string;
  anyOf?: PropertySchema[];
}

function allowsBoolean(schema: PropertySchema | undefined): boolean {
  return schema?.type === 'boolean' || Boolean(schema?.anyOf?.some(allowsBoolean));
}

/**
 * Query values read as FastAPI reads them: a parameter sent twice counts by its last value
 * (no parameter of the API is a list), and pydantic reads yes/no/on/off/t/f/1/0 in any case
 * as booleans, where ajv knows only true/false.
 */
function normalizeQuery(request: FastifyRequest): void {
  const properties = (request.routeOptions.schema?.querystring as { properties?: Record<string, PropertySchema> } | undefined)?.properties;
  const query = request.query as Record<string, unknown> | undefined;
  if (!properties || !query) return;
  for (const [name, schema] of Object.entries(properties)) {
    if (Array.isArray(query[name])) query[name] = query[name].at(-1);
    const value = query[name];
    if (typeof value !== 'string' || !allowsBoolean(schema)) continue;
    const lower = value.toLowerCase();
    if (TRUE.has(lower)) query[name] = 'true';
    else if (FALSE.has(lower)) query[name] = 'false';
  }
}
