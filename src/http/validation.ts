import { Ajv, type Options } from 'ajv';
import ajvFormats from 'ajv-formats';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const common: Options = { allErrors: true, verbose: true, removeAdditional: true, useDefaults: true, strict: false };

/**
 * Two validators, as pydantic behaves: query and path values arrive as text and are parsed
 * ("20" is an integer), while JSON bodies keep their types (7 is not a string) but for the
 * conversions of pydantic's lax mode (laxBody).
 */
export function registerValidation(app: FastifyInstance): void {
  const fromText = new Ajv({ ...common, coerceTypes: 'array' });
  const fromJson = new Ajv({ ...common, coerceTypes: false });
  for (const ajv of [fromText, fromJson]) ajvFormats.default(ajv);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? fromJson : fromText).compile(schema));
  app.addHook('preValidation', async (request) => {
    normalizeQuery(request);
    laxBody(request);
  });
}

const TRUE = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

interface PropertySchema {
  type?: string;
  anyOf?: PropertySchema[];
  properties?: Record<string, PropertySchema>;
  items?: PropertySchema;
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

const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** Whether the value already is of the schema's kind (an enum or a literal, untyped, takes anything as it is). */
function sameKind(value: unknown, schema: PropertySchema): boolean {
  switch (schema.type) {
    case undefined:
      return true;
    case 'integer':
      return Number.isInteger(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      return typeof value === schema.type;
  }
}

/** One JSON value as pydantic's lax mode reads it for the schema; a value it would refuse is left for ajv to report. */
function laxValue(value: unknown, schema: PropertySchema | undefined): unknown {
  if (!schema || value === null) return value;
  if (schema.anyOf) {
    // As pydantic's smart unions: an alternative the value already fits wins over a conversion.
    const fits = schema.anyOf.find((branch) => sameKind(value, branch));
    if (fits) return laxValue(value, fits);
    for (const branch of schema.anyOf) {
      const read = laxValue(value, branch);
      if (read !== value) return read;
    }
    return value;
  }
  switch (schema.type) {
    case 'integer':
      if (typeof value === 'string' && INTEGER_TEXT.test(value)) return Number(value);
      return typeof value === 'boolean' ? Number(value) : value;
    case 'number':
      if (typeof value === 'string' && NUMBER_TEXT.test(value)) return Number(value);
      return typeof value === 'boolean' ? Number(value) : value;
    case 'boolean':
      if (value === 0 || value === 1) return value === 1;
      if (typeof value === 'string' && TRUE.has(value.toLowerCase())) return true;
      if (typeof value === 'string' && FALSE.has(value.toLowerCase())) return false;
      return value;
    case 'object':
      if (typeof value === 'object' && !Array.isArray(value) && schema.properties) {
        const fields = value as Record<string, unknown>;
        for (const [name, field] of Object.entries(schema.properties)) {
          if (Object.hasOwn(fields, name)) fields[name] = laxValue(fields[name], field);
        }
      }
      return value;
    case 'array':
      if (Array.isArray(value)) return value.map((item) => laxValue(item, schema.items));
      return value;
    default:
      return value;
  }
}

/**
 * pydantic's lax mode, the default FastAPI validates JSON bodies in, reads "40" and true as
 * integers, 0/1 and its boolean words as booleans; ajv without coercion would refuse them
 * (and coercing ajv would also read 7 as a string, which pydantic refuses). The 422s echo
 * the body as sent whatever this changes (sent-bodies.ts).
 */
function laxBody(request: FastifyRequest): void {
  const schema = request.routeOptions.schema?.body as PropertySchema | undefined;
  if (schema && request.body !== undefined) request.body = laxValue(request.body, schema);
}
