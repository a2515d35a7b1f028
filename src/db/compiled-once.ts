/**
 * A query built and compiled once, then run again and again with other parameters. Building
 * a Kysely query (its builder objects, its operation tree) and compiling it to SQL is work
 * on the API's thread at every call, though the SQL never changes with the parameters, only
 * what goes in their places: for the covers query of a project detail (two nested
 * subqueries) it was most of the call, 36–51 µs against 11–14 µs compiled once.
 *
 * The query is built with a stand-in (a slot) for each parameter; compiling it gives the
 * SQL and the parameter list, where the slots show where each parameter goes. Later calls
 * put their parameters in those places and run the same SQL.
 *
 * `build` must use its arguments only as values in the query: it is called with slots, so a
 * branch on an argument's value (`if (state) …`) would be taken once for every later call.
 * An array argument becomes a list of values (`in`): one compiled query is kept per length.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/** Stands in for the parameter at `index` (arrays' elements counted one by one) while building. */
class Slot {
  constructor(readonly index: number) {}
}

/** The compiled query, and for each of its parameters the argument it takes, or -1 for a value of the query's own. */
interface Template<Row> {
  compiled: CompiledQuery<Row>;
  sources: number[];
}

/** Compiled queries kept per function: page sizes bound the lengths of lists, this bounds what a caller could add. */
const MAX_SHAPES = 100;

type Argument = string | number | readonly (string | number)[];

export interface CompiledOnce<Args extends Argument[], Row> {
  /** The rows of the query with these arguments. */
  execute(...args: Args): Promise<Row[]>;
}

/** The arguments one after the other, arrays' elements in place of the arrays. */
function flatten(args: readonly Argument[]): (string | number)[] {
  return args.flatMap((arg) => (Array.isArray(arg) ? arg : [arg as string | number]));
}

/** Slots shaped like `args`: one per value, numbered in the order `flatten` lays the values out. */
function slotsLike(args: readonly Argument[]): unknown[] {
  let next = 0;
  return args.map((arg) => (Array.isArray(arg) ? arg.map(() => new Slot(next++)) : new Slot(next++)));
}

function compile<DB, Args extends Argument[], Row>(db: Kysely<DB>, build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>, args: Args): Template<Row> {
  const slots = slotsLike(args);
  const compiled = build(db, ...(slots as Args)).compile();
  const sources = compiled.parameters.map((p) => (p instanceof Slot ? p.index : -1));
  const used = new Set(sources);
  const unused = flatten(args).findIndex((_, i) => !used.has(i));
  // A slot missing from the parameters went somewhere else (into the SQL text, or a branch): the SQL would not fit other values.
  if (unused >= 0) throw new Error(`compiledOnce: parameter ${unused} is not a parameter of the compiled query`);
  return { compiled, sources };
}

/**
 * `build` compiled on the first call with each shape of arguments (the lengths of its arrays)
 * and reused. `db` must have no plugins: a plugin may rewrite a query at compilation and its
 * results by query id, which a reused compiled query shares.
 */
export function compiledOnce<DB, Args extends Argument[], Row>(db: Kysely<DB>, build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>): CompiledOnce<Args, Row> {
  if (db.getExecutor().plugins.length > 0) throw new Error('compiledOnce: the database has plugins');
  const templates = new Map<string, Template<Row>>();
  return {
    async execute(...args: Args): Promise<Row[]> {
      const shape = args.map((arg) => (Array.isArray(arg) ? arg.length : '')).join();
      let template = templates.get(shape);
      if (!template) {
        if (templates.size >= MAX_SHAPES) templates.delete(templates.keys().next().value!);
        template = compile(db, build, args);
        templates.set(shape, template);
      }
      const values = flatten(args);
      const own = template.compiled.parameters;
      const parameters = template.sources.map((source, i) => (source < 0 ? own[i] : values[source]));
      const result = await db.executeQuery<Row>({ ...template.compiled, parameters });
      return result.rows;
    },
  };
}
