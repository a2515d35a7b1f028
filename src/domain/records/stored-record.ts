/**
 * The JSON records the service keeps in database columns (edit options, output sources,
 * settings, job payloads...): each has a TypeBox schema and a version, and is decoded with
 * its schema whenever it is read back, never cast. docs/architecture.md lists them.
 */
import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';

/** A stored record that cannot be read: not JSON, of an unknown version, or not the shape its version says. */
export class CorruptRecord extends Error {}

/** How one kind of stored record is written and read back. */
export interface StoredRecord<T> {
  /** What the record is, for messages: "i2i edit options". */
  name: string;
  version: number;
  encode(value: T): string;
  /** Reads a stored record of any known version as the current one; `where` names the row for the message of a CorruptRecord. */
  decode(text: string, where: string): T;
}

export interface RecordSpec<S extends TSchema> {
  name: string;
  /** The current version: what encode writes. */
  version: number;
  /** The current shape, without its `version` field. */
  schema: S;
  /** upgrades[n] turns a version-n record (without its `version` field) into version n+1, as DevelopSettings' migrations do. */
  upgrades?: Record<number, (old: Record<string, unknown>) => Record<string, unknown>>;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON text parsed, or a CorruptRecord saying where. */
export function parseStored(text: string, name: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CorruptRecord(`Cannot read the ${name} of ${where}: not JSON (${(err as Error).message}).`);
  }
}

/**
 * A record kept as a JSON object with a `version` field. An object without one was written
 * before records were versioned, in the shape of version 1. Reading brings an older version
 * up to date step by step, then checks it against the current schema.
 */
export function objectRecord<S extends TSchema>(spec: RecordSpec<S>): StoredRecord<Static<S>> {
  const validator = Compile(spec.schema);
  const { name, version } = spec;
  return {
    name,
    version,
    encode: (value) => JSON.stringify({ version, ...(value as object) }),
    decode(text, where) {
      const parsed = parseStored(text, name, where);
      if (!isPlainObject(parsed)) throw new CorruptRecord(`Cannot read the ${name} of ${where}: not a JSON object.`);
      const { version: stored = 1, ...fields } = parsed;
      if (!Number.isInteger(stored) || (stored as number) < 1 || (stored as number) > version) {
        throw new CorruptRecord(`Cannot read the ${name} of ${where}: version ${JSON.stringify(stored)}, and this retouch reads versions 1 to ${version}.`);
      }
      let record = fields;
      for (let v = stored as number; v < version; v++) record = spec.upgrades![v]!(record);
      return checked(validator, record, name, where);
    },
  };
}

/** A record kept as a bare JSON array: version 1 by its shape (a later version would be an object with a `version`). */
export function listRecord<S extends TSchema>(name: string, items: S): StoredRecord<Static<S>[]> {
  const validator = Compile(Type.Array(items));
  return {
    name,
    version: 1,
    encode: (value) => JSON.stringify(value),
    decode: (text, where) => checked(validator, parseStored(text, name, where), name, where),
  };
}

interface Validator<T> {
  Check(value: unknown): value is T;
  Errors(value: unknown): { keyword: string; instancePath: string; message: string; params: object }[];
}

function checked<T>(validator: Validator<T>, value: unknown, name: string, where: string): T {
  if (validator.Check(value)) return value;
  // The error of a field that should not be there says which field: ajv-style `additionalProperties` rather than its `false` sub-schema.
  const error = validator.Errors(value).find((e) => e.keyword !== 'boolean');
  const extra = error && 'additionalProperties' in error.params ? ` (${String(error.params.additionalProperties)})` : '';
  throw new CorruptRecord(`Cannot read the ${name} of ${where}: ${error ? `${error.instancePath || '/'} ${error.message}${extra}` : 'it does not match its schema'}.`);
}
