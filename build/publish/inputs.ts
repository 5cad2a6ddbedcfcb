// what a build was made from, so a night whose inputs did not change can say so before doing any
// work: the build's code (every source file of the install), the reference data, the review list,
// the flight log's files inside the window and the options that shape documents. each file counts
// by its content's sha256; a file whose size and mtime equal those recorded by the previous build
// keeps the hash recorded then (make's rule, so a night does not re-read a gigabyte of Parquet).
// written beside the manifest as build-inputs.json (no key names it: never served or uploaded).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const INPUTS_FILE = 'build-inputs.json';

export interface FileMark {
  size: number;
  mtime_ms: number;
  sha256: string;
}

export interface BuildInputs {
  /** one hash of everything below: equal hashes, equal documents */
  digest: string;
  /** the part that is the same for every document whatever the log holds: code, reference data, options */
  static_digest: string;
  /** path (prefixed by its group) -> mark */
  files: Record<string, FileMark>;
  /** options and other values that shape documents (part of static_digest) */
  values: Values;
  /** values that come from the log, such as its newest day (part of digest only) */
  log_values: Values;
}

type Values = Record<string, string | number | boolean | null>;

export interface InputSources {
  /** folders whose files are all inputs, named by group: code, ref, ... */
  folders: Record<string, string>;
  /** single files (a missing one counts as absent), named by group */
  files: Record<string, string>;
  /** log files (the window's days), named by group; these are not part of static_digest */
  logFiles: Record<string, string>;
  values: Values;
  logValues: Values;
}

const SKIP_DIR = new Set(['node_modules', '.git', 'var', 'test', 'bench', '.duckdb-spill']);

function* walk(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const n of names) {
    if (SKIP_DIR.has(n) || n.startsWith('.')) continue;
    const p = join(dir, n);
    const st = statSync(p);
    if (st.isDirectory()) yield* walk(p);
    else if (st.isFile()) yield p;
  }
}

function mark(path: string, before: FileMark | undefined): FileMark {
  const st = statSync(path);
  if (before && before.size === st.size && before.mtime_ms === st.mtimeMs) return before;
  return { size: st.size, mtime_ms: st.mtimeMs, sha256: createHash('sha256').update(readFileSync(path)).digest('hex') };
}

/** PURE: the digest of a set of marks and values (keys in sorted order) */
function digestOf(files: Record<string, FileMark>, ...values: Values[]): string {
  const h = createHash('sha256');
  for (const k of Object.keys(files).sort()) h.update(`${k}\0${files[k]!.sha256}\n`);
  values.forEach((v, i) => {
    for (const k of Object.keys(v).sort()) h.update(`${i}:${k}\0${JSON.stringify(v[k])}\n`);
  });
  return h.digest('hex');
}

/** The inputs of this build, reusing the previous build's hashes of files whose size and mtime are unchanged. */
export function readInputs(src: InputSources, previous: BuildInputs | null): BuildInputs {
  const before = previous?.files ?? {};
  const staticFiles: Record<string, FileMark> = {};
  for (const [group, dir] of Object.entries(src.folders)) {
    for (const p of walk(dir)) {
      const k = `${group}:${relative(dir, p)}`;
      staticFiles[k] = mark(p, before[k]);
    }
  }
  for (const [group, p] of Object.entries(src.files)) {
    const k = `${group}:`;
    staticFiles[k] = existsSync(p) ? mark(p, before[k]) : { size: -1, mtime_ms: 0, sha256: 'absent' };
  }
  const files = { ...staticFiles };
  for (const [k, p] of Object.entries(src.logFiles)) files[k] = mark(p, before[k]);
  return {
    digest: digestOf(files, src.values, src.logValues),
    static_digest: digestOf(staticFiles, src.values),
    files,
    values: src.values,
    log_values: src.logValues,
  };
}

/** The inputs recorded by a published version, or null (none recorded, or unreadable: then nothing is reused). */
export function readRecordedInputs(versionDir: string): BuildInputs | null {
  try {
    return JSON.parse(readFileSync(join(versionDir, INPUTS_FILE), 'utf8')) as BuildInputs;
  } catch {
    return null;
  }
}

/** Record the inputs in a version being built (a temporary name, then a rename: the previous version's hard link stays as it was). */
export function writeInputs(versionDir: string, inputs: BuildInputs): void {
  const tmp = join(versionDir, `${INPUTS_FILE}.tmp`);
  writeFileSync(tmp, JSON.stringify(inputs));
  renameSync(tmp, join(versionDir, INPUTS_FILE));
}

/** the files of two builds' inputs that differ: keys only in the new one, only in the old one, or hashed differently */
export interface ChangedFiles {
  added: string[];
  dropped: string[];
  changed: string[];
}

/** PURE: which recorded files differ between a previous build's inputs and this one's (keys sorted) */
export function changedFiles(previous: BuildInputs, current: BuildInputs): ChangedFiles {
  const out: ChangedFiles = { added: [], dropped: [], changed: [] };
  for (const k of Object.keys(current.files).sort()) {
    const before = previous.files[k];
    if (!before) out.added.push(k);
    else if (before.sha256 !== current.files[k]!.sha256) out.changed.push(k);
  }
  for (const k of Object.keys(previous.files).sort()) if (!current.files[k]) out.dropped.push(k);
  return out;
}

/** true when `path` still holds the bytes `recorded` says it held (size and mtime trusted as in readInputs) */
export function fileUnchanged(path: string, recorded: FileMark): boolean {
  try {
    return mark(path, recorded).sha256 === recorded.sha256;
  } catch {
    return false; // gone
  }
}
