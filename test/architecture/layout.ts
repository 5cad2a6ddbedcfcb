// the folder graph of the house (docs/ARCHITECTURE.md): lib <- schemas <- artifacts <- {build, server},
// sim on top of all of them. test/ may import anything below it, bench/ also test/'s fixture loaders; nothing imports bench/
// but the tests of the benches' own logic, in test/bench/ (a scorer that counts a figure the docs claim is tested too).
// web/ is the browser code (the map): it may use lib and schemas, nothing that runs on the server;
// the server bundles it by path (server/map/bundle.ts), never by import. docs/gen makes the generated parts of
// the docs from both build/'s and server/'s config specs, so it ranks with bench/ above them all; only its tests,
// in test/docs/, import it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

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
