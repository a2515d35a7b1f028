/**
 * Requests generated from an OpenAPI 3.1 document: values that follow each parameter's and
 * body's schema, and values that break it (huge numbers, NUL, odd unicode, deep JSON, wrong
 * types, missing fields, odd paths). Driven by a seeded generator, so a run is repeatable.
 */
import { seededRandom } from '../../src/imaging/random.js';

/** The part of a JSON schema the generator reads. */
export interface Schema {
  type?: string;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: Schema;
  minItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** The path template, e.g. /v1/i2i/projects/{project_uuid}. */
  path: string;
  parameters: Parameter[];
  body: Schema | null;
}

export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded as a client would send them. */
  url: string;
  headers: Record<string, string>;
  body: string | Buffer | null;
}

/** Every operation of the document. */
export function operationsOf(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: (op.parameters ?? []) as Parameter[],
      body: (op.requestBody?.content?.['application/json']?.schema ?? null) as Schema | null,
    })),
  );
}

/** Text that breaks things: NUL, control and format characters, lone surrogates, traversal, injection, sheer length. */
const HOSTILE_TEXT = [
  'a\u0000b',
  '\u0000',
  'x\u0000',
  '\u0001\u001f\u007f',
  '../../etc/passwd',
  '..',
  '.',
  ' ',
  '',
  '\t\n',
  '%',
  '%00',
  '%zz',
  'ü',
  'Ω≈ç√',
  '🎞️📷',
  '\u202etxt.exe',
  '\ufeff',
  '\ud800',
  '\udfff',
  'e\u0301',
  "' or 1=1 --",
  '"; drop table projects; --',
  '\\',
  '/',
  '<script>alert(1)</script>',
  'NaN',
  '-1',
  '1e400',
  '9'.repeat(40),
  'x'.repeat(5000),
  'IMG_1.jpg\u0000.png',
  'null',
  'true',
];

const HOSTILE_NUMBERS = [-1, 0, 1.5, -0.0001, 2 ** 31, 2 ** 53 + 2, 2 ** 63, -(2 ** 63), 1e30, -1e30, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53];

/** Raw bodies that are not the JSON a route expects, or not JSON at all. */
function hostileBody(rnd: () => number): string | Buffer {
  const deep = (open: string, close: string, n: number) => open.repeat(n) + close.repeat(n);
  const bodies: (() => string | Buffer)[] = [
    () => deep('[', ']', 5000),
    () => deep('{"a":', '}', 3000).replace(/}$/, '1}'),
    () => `{"files_list": ${deep('[', ']', 2000)}}`,
    () => '{',
    () => '{"name": "unterminated',
    () => 'null',
    () => '[]',
    () => '0',
    () => '"text"',
    () => 'not json at all',
    () => Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x7d]),
    () => JSON.stringify({ name: 'x'.repeat(100_000) }),
    () => JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ file_name: i }))),
    () => JSON.stringify({ files_list: Array.from({ length: 3000 }, () => ({ file_name: 'a\u0000.jpg' })) }),
    () => '{"a":1,"a":2}',
    () => '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}',
  ];
  return pick(rnd, bodies)();
}

const CONTENT_TYPES = ['application/json', '', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1'];

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)]!;
}

function integerBetween(rnd: () => number, low: number, high: number): number {
  return low + Math.floor(rnd() * (high - low + 1));
}

/** Percent-encodes a value for a URL; lone surrogates go out as the invalid UTF-8 a careless client sends. */
function encode(value: string): string {
  if (value === '%zz' || value === '%') return value;
  return [...value].map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');
}

/** Known-good values of a path parameter of an operation (real project uuids, file names, upload ids); none when empty. */
export type PathValues = (parameter: string, op: Operation) => string[];

export class OpenApiFuzzer {
  private readonly rnd: () => number;

  constructor(
    seed: number,
    private readonly known: PathValues,
  ) {
    this.rnd = seededRandom(seed);
  }

  /** A value the schema accepts (mostly: patterns other than the base64 MD5 one are not followed). */
  valid(schema: Schema, depth = 0): unknown {
    const r = this.rnd;
    if (schema.anyOf) {
      const branches = schema.anyOf.filter((s) => s.type !== 'null');
      return r() < 0.1 || branches.length === 0 ? null : this.valid(pick(r, branches), depth);
    }
    if (schema.enum) return pick(r, schema.enum);
    if (schema.const !== undefined) return schema.const;
    switch (schema.type) {
      case 'integer': {
        // Small values from 0 (or the minimum) up, where ids the service issued are.
        const low = Math.min(Math.max(0, schema.minimum ?? 0), schema.maximum ?? Infinity);
        return integerBetween(r, low, Math.min(schema.maximum ?? Infinity, low + 50));
      }
      case 'number':
        return (schema.minimum ?? 0) + r() * ((schema.maximum ?? 1) - (schema.minimum ?? 0));
      case 'boolean':
        return r() < 0.5;
      case 'string':
        if (schema.pattern?.includes('{22}==')) return `${'A'.repeat(22)}==`;
        if (schema.format === 'uri') return 'https://example.com/hook';
        return pick(r, ['IMG_1.jpg', 'photo.CR2', 'Maple Street', 'a', 'x'.repeat(schema.maxLength ?? 12)])
          .slice(0, schema.maxLength ?? 255)
          .padEnd(schema.minLength ?? 0, 'x');
      case 'array':
        return Array.from({ length: Math.max(schema.minItems ?? 0, integerBetween(r, 0, 3)) }, () => this.valid(schema.items ?? {}, depth + 1));
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(schema.properties ?? {})) {
          if (schema.required?.includes(name) || r() < 0.5) out[name] = this.valid(property, depth + 1);
        }
        return out;
      }
      default:
        return depth > 2 ? null : { any: 'thing' };
    }
  }

  /** Anything: a hostile string or number, a wrong type, a deep or wide structure. */
  hostile(): unknown {
    const r = this.rnd;
    const kinds: (() => unknown)[] = [
      () => pick(r, HOSTILE_TEXT),
      () => pick(r, HOSTILE_NUMBERS),
      () => pick(r, [true, false, null]),
      () => [pick(r, HOSTILE_TEXT)],
      () => ({ [pick(r, HOSTILE_TEXT)]: pick(r, HOSTILE_NUMBERS) }),
      () => JSON.parse('['.repeat(200) + ']'.repeat(200)),
      () => Array.from({ length: 2000 }, (_, i) => i),
    ];
    return pick(r, kinds)();
  }

  /** The schema's value with one thing broken: a field made hostile, dropped, or added. */
  private broken(schema: Schema): unknown {
    const r = this.rnd;
    const value = this.valid(schema);
    if (value === null || typeof value !== 'object' || Array.isArray(value) || r() < 0.3) return this.hostile();
    const record = value as Record<string, unknown>;
    const names = Object.keys(schema.properties ?? {});
    const name = names.length > 0 && r() < 0.8 ? pick(r, names) : pick(r, HOSTILE_TEXT);
    if (r() < 0.25) delete record[name];
    else record[name] = schema.properties?.[name] && r() < 0.3 ? this.broken(schema.properties[name]!) : this.hostile();
    return record;
  }

  private text(value: unknown): string {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  }

  /**
   * One request for the operation: mostly valid with one thing broken, sometimes all valid,
   * sometimes hostile throughout (path parameters then only now and then, so that most
   * requests get past the project lookup).
   */
  request(op: Operation): FuzzRequest {
    const r = this.rnd;
    const mode = r();
    const wild = mode > 0.7;
    const brokenParam = mode < 0.55 ? pick(r, [...op.parameters.map((p) => p.name), 'body']) : null;

    let path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const known = this.known(name, op);
      const value = brokenParam === name || (wild && r() < 0.3) || known.length === 0 ? this.text(this.hostile()) : pick(r, known);
      return encode(value);
    });
    if (wild && r() < 0.3) path = pick(r, [`${path}/`, `${path}//`, path.replace('/v1/', '//v1/'), `${path}/%2e%2e/%2e%2e`, `${path}/${'a'.repeat(3000)}`, path.replace(/\/[^/]*$/, '/%2F')]);

    const query: string[] = [];
    for (const p of op.parameters.filter((q) => q.in === 'query')) {
      if (brokenParam === p.name && r() < 0.3) continue;
      if (!p.required && !wild && brokenParam !== p.name && r() < 0.5) continue;
      const value = wild || brokenParam === p.name ? this.text(this.hostile()) : this.text(this.valid(p.schema));
      query.push(`${encode(p.name)}=${encode(value)}`);
    }
    if (wild && r() < 0.2) query.push(`${encode(pick(r, HOSTILE_TEXT))}=${encode(pick(r, HOSTILE_TEXT))}`);
    if (wild && r() < 0.1) query.push(query[0] ?? 'page=1');

    const headers: Record<string, string> = {};
    let body: string | Buffer | null = null;
    if (op.body || r() < 0.1) {
      const schema = op.body ?? {};
      if (wild && r() < 0.5) body = hostileBody(r);
      else if (brokenParam === 'body') body = JSON.stringify(this.broken(schema));
      else if (r() < 0.05) body = null;
      else body = JSON.stringify(this.valid(schema)) ?? null;
      if (body !== null) headers['content-type'] = wild ? pick(r, CONTENT_TYPES) : pick(r, ['application/json', 'application/json', '']);
    }
    return { method: op.method, url: query.length > 0 ? `${path}?${query.join('&')}` : path, headers, body };
  }
}
