/**
 * Translates ajv's validation errors into the FastAPI / pydantic v2 shape the official
 * clients parse: `{"detail":[{"type","loc","msg","input","ctx"?}]}`, one entry per field.
 */

export interface PydanticError {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** The subset of an ajv ErrorObject (compiled with verbose: true) that we read. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  data?: unknown;
  parentSchema?: { type?: unknown } & Record<string, unknown>;
}

export type ValidationContext = 'body' | 'querystring' | 'params' | 'headers';

const LOC_ROOT: Record<ValidationContext, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** pydantic's way of listing choices: 'a', 'b' or 'c'. */
function choices(values: unknown[]): string {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : JSON.stringify(v)));
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function typeError(expected: string, data: unknown): Omit<PydanticError, 'loc' | 'input'> {
  switch (expected) {
    case 'integer':
      if (typeof data === 'string') return { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' };
      if (typeof data === 'number') return { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' };
      return { type: 'int_type', msg: 'Input should be a valid integer' };
    case 'number':
      if (typeof data === 'string') return { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' };
      return { type: 'float_type', msg: 'Input should be a valid number' };
    case 'boolean':
      if (typeof data === 'string' || typeof data === 'number') return { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' };
      return { type: 'bool_type', msg: 'Input should be a valid boolean' };
    case 'string':
      return { type: 'string_type', msg: 'Input should be a valid string' };
    case 'array':
      return { type: 'list_type', msg: 'Input should be a valid list' };
    case 'object':
      return { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from' };
    default:
      return { type: `${expected}_type`, msg: `Input should be a valid ${expected}` };
  }
}

/** The value at a JSON pointer in what the client sent, or, where the pointer leads nowhere, what ajv saw. */
function inputAt(sent: { value: unknown } | undefined, pointer: string, seen: unknown): unknown {
  if (!sent) return seen;
  let value = sent.value;
  for (const segment of pointerSegments(pointer)) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return seen;
    value = (value as Record<string | number, unknown>)[segment];
  }
  return value;
}

function translate(error: AjvError, root: string, sent: { value: unknown } | undefined): PydanticError | null {
  const loc = [root, ...pointerSegments(error.instancePath)];
  const input = inputAt(sent, error.instancePath, error.data);
  const p = error.params;
  switch (error.keyword) {
    case 'required':
      // pydantic shows the enclosing object for a missing body field, null for a missing parameter.
      return { type: 'missing', loc: [...loc, String(p.missingProperty)], msg: 'Field required', input: root === 'body' ? input : null };
    case 'type': {
      const expected = Array.isArray(p.type) ? String(p.type[0]) : String(p.type);
      if (expected === 'null') return null;
      if (root === 'body' && loc.length === 1 && (input === null || input === undefined)) {
        return { type: 'missing', loc, msg: 'Field required', input: null };
      }
      return { ...typeError(expected, input), loc, input };
    }
    case 'minimum':
      return { type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${p.limit}`, input, ctx: { ge: p.limit } };
    case 'maximum':
      return { type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${p.limit}`, input, ctx: { le: p.limit } };
    case 'exclusiveMinimum':
      return { type: 'greater_than', loc, msg: `Input should be greater than ${p.limit}`, input, ctx: { gt: p.limit } };
    case 'exclusiveMaximum':
      return { type: 'less_than', loc, msg: `Input should be less than ${p.limit}`, input, ctx: { lt: p.limit } };
    case 'minLength':
      return { type: 'string_too_short', loc, msg: `String should have at least ${plural(Number(p.limit), 'character')}`, input, ctx: { min_length: p.limit } };
    case 'maxLength':
      return { type: 'string_too_long', loc, msg: `String should have at most ${plural(Number(p.limit), 'character')}`, input, ctx: { max_length: p.limit } };
    case 'minItems': {
      const actual = Array.isArray(input) ? input.length : 0;
      return { type: 'too_short', loc, msg: `List should have at least ${plural(Number(p.limit), 'item')} after validation, not ${actual}`, input, ctx: { field_type: 'List', min_length: p.limit, actual_length: actual } };
    }
    case 'maxItems': {
      const actual = Array.isArray(input) ? input.length : 0;
      return { type: 'too_long', loc, msg: `List should have at most ${plural(Number(p.limit), 'item')} after validation, not ${actual}`, input, ctx: { field_type: 'List', max_length: p.limit, actual_length: actual } };
    }
    case 'pattern':
      return { type: 'string_pattern_mismatch', loc, msg: `String should match pattern '${p.pattern}'`, input, ctx: { pattern: p.pattern } };
    case 'enum': {
      const expected = choices(p.allowedValues as unknown[]);
      return { type: 'enum', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
    }
    case 'const':
      return { type: 'literal_error', loc, msg: `Input should be ${choices([p.allowedValue])}`, input, ctx: { expected: choices([p.allowedValue]) } };
    case 'format':
      if (p.format === 'uri') return { type: 'url_parsing', loc, msg: 'Input should be a valid URL', input };
      return { type: 'value_error', loc, msg: `Value error, input should be a valid ${p.format}`, input };
    case 'anyOf':
      return null;
    default:
      return { type: 'value_error', loc, msg: `Value error, ${error.keyword} check failed`, input };
  }
}

/**
 * One pydantic entry per failed location; for nullable fields the non-null alternative speaks.
 * `sent` is the value before validation changed it (defaults filled in, unknown fields dropped):
 * inputs are echoed from it, as pydantic echoes them.
 */
export function toPydanticErrors(errors: AjvError[], context: ValidationContext, sent?: { value: unknown }): PydanticError[] {
  const root = LOC_ROOT[context];
  const byLoc = new Map<string, PydanticError>();
  for (const error of errors) {
    const entry = translate(error, root, sent);
    if (!entry) continue;
    const key = JSON.stringify(entry.loc);
    if (!byLoc.has(key)) byLoc.set(key, entry);
  }
  if (byLoc.size === 0 && errors.length > 0) {
    // Only anyOf/null errors: the value matched no alternative of a nullable field.
    const first = errors[0]!;
    const loc = [root, ...pointerSegments(first.instancePath)];
    return [{ type: 'value_error', loc, msg: 'Value error, input does not match any allowed type', input: inputAt(sent, first.instancePath, first.data) }];
  }
  return [...byLoc.values()];
}

/** FastAPI's answer to a body that is not JSON. */
export function jsonInvalidError(position: number, reason: string): PydanticError {
  return { type: 'json_invalid', loc: ['body', position], msg: 'JSON decode error', input: {}, ctx: { error: reason } };
}

/** Inputs echoed in a 422 as they are up to this many characters (of their JSON), as FastAPI echoes them. */
const ECHO_LIMIT = 1024;

/**
 * An error's input, bounded: FastAPI echoes inputs whole, which for a 10 MB body is 10 MB
 * back. Past ECHO_LIMIT the input is shortened the way pydantic shortens values in its
 * messages: the first 25 and the last 24 characters around "...".
 */
export function boundedInput(input: unknown): unknown {
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  if (text === undefined || text.length <= ECHO_LIMIT) return input;
  return `${text.slice(0, 25)}...${text.slice(-24)}`;
}
