/**
 * The import graph between the top-level parts of src/ (http, domain, jobs, storage, db,
 * imaging, cli, and the root modules: config, services, server, main), read from the
 * TypeScript sources. Type-only imports count: they couple the parts as much as any other.
 * Run `node dist/test/support/import-graph.js` after a build to print it (docs/architecture.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** One import of one part by another, with the files that make it. */
export interface Edge {
  from: string;
  to: string;
  /** "src/domain/batch.ts → src/jobs/queue.ts" for each import that makes the edge. */
  imports: string[];
}

const SPECIFIER = /\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The part a file of src/ belongs to: its top-level folder, or its own name for a root module. */
function partOf(srcRoot: string, file: string): string {
  const [first, ...rest] = path.relative(srcRoot, file).split(path.sep);
  return rest.length > 0 ? first! : path.parse(first!).name;
}

/** Every relative import of the sources under srcRoot, as file → file (".js" specifiers name the ".ts" source). */
function fileImports(srcRoot: string): { from: string; to: string }[] {
  return sourceFiles(srcRoot).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const found: { from: string; to: string }[] = [];
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
      found.push({ from: file, to: fs.existsSync(target) ? target : path.join(target, 'index.ts') });
    }
    return found;
  });
}

/** The edges between parts (imports within a part are left out), sorted. */
export function partGraph(srcRoot: string): Edge[] {
  const edges = new Map<string, Edge>();
  const repoRoot = path.dirname(srcRoot);
  for (const { from, to } of fileImports(srcRoot)) {
    const a = partOf(srcRoot, from);
    const b = partOf(srcRoot, to);
    if (a === b) continue;
    const key = `${a}→${b}`;
    const edge = edges.get(key) ?? { from: a, to: b, imports: [] };
    edge.imports.push(`${path.relative(repoRoot, from)} → ${path.relative(repoRoot, to)}`);
    edges.set(key, edge);
  }
  return [...edges.values()].sort((x, y) => x.from.localeCompare(y.from) || x.to.localeCompare(y.to));
}

/** The cycles of a graph, each as the list of its nodes (one per strongly connected component of more than one node). */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}

/** The source folder of this checkout, found from this file's place in dist/test/support or test/support. */
export function srcRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return path.join(dir, 'src');
}

// Run as a script it prints the graph; loaded by the test runner (every file under test/ is a test file to it), nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && !process.env.NODE_TEST_CONTEXT) {
  const edges = partGraph(srcRoot());
  for (const e of edges) process.stdout.write(`${e.from} → ${e.to}  (${e.imports.length} import${e.imports.length === 1 ? '' : 's'})\n`);
  const found = cycles(edges);
  process.stdout.write(found.length === 0 ? 'no cycles\n' : `cycles: ${found.map((c) => c.join(' ⇄ ')).join('; ')}\n`);
}
