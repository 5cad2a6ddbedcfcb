// the folder graph of the house (docs/ARCHITECTURE.md): lib <- schemas <- artifacts <- {build, server},
// sim on top of all of them. test/ may import anything below it, bench/ also test/'s fixture loaders; nothing imports bench/
// but the tests of the benches' own logic, in test/bench/ (a scorer that counts a figure the docs claim is tested too).
// web/ is the browser code (the map): it may use lib and schemas, nothing that runs on the server;
// the server bundles it by path (server/map/bundle.ts), never by import. docs/gen makes the generated parts of
// the docs from both build/'s and server/'s config specs, so it ranks with bench/ above them all; only its tests,
// in test/docs/, import it.
// inside the ranked folders no file imports itself again through any chain of imports (a circle
// is two files that must be read, changed and tested together), and inside server/ a snapshot
// travels one way: feed/ (records) <- parts/ (the prepared form) <- ingest/ (the threads) <- live/.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, posix, relative, sep } from 'node:path';

/** rank of each top-level folder: a file may import only from folders of a lower rank (or its own) */
export const RANKS: Record<string, number> = { lib: 0, schemas: 1, artifacts: 2, web: 2, build: 3, server: 3, sim: 4, test: 5, bench: 6, docs: 6 };

export interface WrongWay {
  file: string;
  specifier: string;
  from: string;
  to: string;
}

// static imports, re-exports, dynamic import() and import type, with a relative specifier
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** the relative specifiers a source text imports */
export function relativeImports(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[2]!);
}

/** imports in `files` (path relative to the root -> source text) that point up the graph, or sideways between build and server (or bench and docs) */
export function wrongWayImports(files: Map<string, string>): WrongWay[] {
  const out: WrongWay[] = [];
  for (const [file, source] of files) {
    const from = file.split('/')[0]!;
    if (!(from in RANKS)) continue;
    for (const specifier of relativeImports(source)) {
      const to = normalize(join(dirname(file), specifier)).split(sep)[0]!;
      if (to === from || !(to in RANKS)) continue;
      if ((to === 'bench' || to === 'docs') && file.startsWith(`test/${to}/`)) continue;
      if (RANKS[to]! >= RANKS[from]!) out.push({ file, specifier, from, to });
    }
  }
  return out;
}

/** every .ts file under the ranked folders of `root`, keyed by its path relative to root */
export function sourceFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) files.set(relative(root, p).split(sep).join('/'), readFileSync(p, 'utf8'));
    }
  };
  for (const top of Object.keys(RANKS)) walk(join(root, top));
  return files;
}

/** each file's relative imports (static, type-only, re-exports, dynamic) that name another file of `files`, by path */
export function importGraph(files: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, source] of files) {
    const to = relativeImports(source).map((specifier) => posix.normalize(posix.join(posix.dirname(file), specifier)));
    graph.set(file, [...new Set(to.filter((t) => files.has(t)))]);
  }
  return graph;
}

/**
 * Every import circle in `graph`: one per strongly connected component of more than one file, or
 * a file that imports itself (Tarjan's algorithm, iterative), each given as one closed path
 * through it (`[a, b, a]`), starting at its first file in sort order.
 */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const edges = (v: string) => (graph.get(v) ?? []).filter((w) => graph.has(w));
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    // an explicit stack of (file, next edge to follow), so a long chain of imports cannot overflow the call stack
    const work: [string, number][] = [[root, 0]];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      const out = edges(v);
      if (i < out.length) {
        top[1]++;
        const w = out[i]!;
        if (!index.has(w)) {
          index.set(w, index.size);
          low.set(w, index.get(w)!);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) !== index.get(v)) continue;
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges(v).includes(v)) components.push(component);
    }
  }
  return components.map((c) => closedPath(c, edges)).sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
}

/** A shortest closed path through a component's first file (sort order), inside the component. */
function closedPath(component: string[], edges: (v: string) => string[]): string[] {
  const inside = new Set(component);
  const start = [...component].sort()[0]!;
  const from = new Map<string, string>();
  const queue = [start];
  for (let k = 0; k < queue.length; k++) {
    const v = queue[k]!;
    for (const w of edges(v)) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = from.get(u)!) path.push(u);
        return [start, ...path.slice(1).reverse(), start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  throw new Error(`${start} is in a circle that does not come back to it`);
}

/** the folders a snapshot passes through in server/, in order: a file may import only from its own or an earlier one */
export const SNAPSHOT_PATH = ['server/feed', 'server/parts', 'server/ingest', 'server/live'];

const stepOf = (file: string) => SNAPSHOT_PATH.findIndex((d) => file.startsWith(`${d}/`));

/** imports in `files` that go back along the snapshot's path (feed/ or ingest/ reading live/, feed/ reading ingest/, ...) */
export function backwardImports(files: Map<string, string>): WrongWay[] {
  const out: WrongWay[] = [];
  for (const [file, source] of files) {
    const from = stepOf(file);
    if (from < 0) continue;
    for (const specifier of relativeImports(source)) {
      const to = stepOf(posix.normalize(posix.join(posix.dirname(file), specifier)));
      if (to > from) out.push({ file, specifier, from: SNAPSHOT_PATH[from]!, to: SNAPSHOT_PATH[to]! });
    }
  }
  return out;
}
