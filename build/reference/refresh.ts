// reference:refresh: take a fresh upstream download (same file names as data/ref) into the
// snapshot. Every data file is parsed with the loaders first; if any is broken nothing is
// copied. Each changed file is written to a temporary name and renamed into place.
import { readFile, writeFile, rename, access, mkdir } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { DATA_FILES } from '../../lib/reference/files.ts';
import { parseSources } from '../../lib/reference/sources.ts';
import { installed } from '../../lib/install.ts';

export interface RefreshConfig {
  from: string;
  to: string;
  date: string;
  dryRun: boolean;
  allowShrink: boolean;
  maxSkipped: number;
}

export const refreshOptions: Specs<RefreshConfig> = {
  from: {
    flag: 'from',
    env: 'CONTRAIL_REFDATA_FROM',
    kind: 'string',
    default: '',
    help: 'directory holding the fresh upstream files, laid out like data/ref (a .gz file may also be given uncompressed)',
    check: (v) => (v ? undefined : 'is required: the directory with the downloaded files'),
  },
  to: { flag: 'to', env: 'CONTRAIL_REFDATA_DIR', kind: 'string', default: installed('data/ref'), help: 'the snapshot directory to update' },
  date: {
    flag: 'date',
    env: 'CONTRAIL_REFDATA_DATE',
    kind: 'string',
    default: '',
    help: 'retrieval date written to sources.json, YYYY-MM-DD (empty: today, UTC)',
    check: (v) => (v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v) ? undefined : 'must be YYYY-MM-DD'),
  },
  dryRun: { flag: 'dry-run', env: 'CONTRAIL_REFDATA_DRY_RUN', kind: 'bool', default: false, help: 'validate and report, write nothing' },
  // a download cut short still parses; a file that lost half its rows is refused unless asked
  allowShrink: {
    flag: 'allow-shrink',
    env: 'CONTRAIL_REFDATA_ALLOW_SHRINK',
    kind: 'bool',
    default: false,
    help: 'accept a file with fewer than half the rows of the current one',
  },
  maxSkipped: {
    flag: 'max-skipped',
    env: 'CONTRAIL_REFDATA_MAX_SKIPPED',
    kind: 'number',
    default: 0.01,
    help: 'largest share of malformed (skipped) rows a file may have, 0..1',
    check: (v) => (v >= 0 && v <= 1 ? undefined : 'must be between 0 and 1'),
  },
};

export const refreshUsage = `Usage: npm run --silent reference:refresh -- --from <dir> [options]

Validates a fresh download of the reference data with the loaders and copies it into the
snapshot (data/ref). A broken file refuses the whole refresh and leaves the snapshot as it was.
Where to download each file from: data/ref/SOURCES.md.`;

export interface FileReport {
  path: string;
  status: 'changed' | 'unchanged' | 'absent' | 'refused';
  before: number | null;
  after: number | null;
  problem?: string;
}

export interface RefreshResult {
  ok: boolean;
  files: FileReport[];
  /** ids of the sources whose retrieval date was set */
  dated: string[];
}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );
const isGzip = (b: Buffer) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

// the fresh copy of `path`: as named, or uncompressed when the snapshot keeps it gzipped
async function fresh(from: string, path: string): Promise<Buffer | null> {
  for (const name of path.endsWith('.gz') ? [path, path.slice(0, -3)] : [path]) {
    const p = join(from, name);
    if (await exists(p)) {
      const raw = await readFile(p);
      return isGzip(raw) ? gunzipSync(raw) : raw;
    }
  }
  return null;
}

async function writeAtomic(path: string, bytes: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, path);
}

export async function refresh(cfg: RefreshConfig, today: string, log: (line: string) => void = console.log): Promise<RefreshResult> {
  const sourcesPath = join(cfg.to, 'sources.json');
  const sources = parseSources(await readFile(sourcesPath), sourcesPath);
  const files: FileReport[] = [];
  const writes: { path: string; bytes: Buffer }[] = [];
  const provided = new Set<string>();
  for (const df of DATA_FILES) {
    const next = await fresh(cfg.from, df.path);
    const currentPath = join(cfg.to, df.path);
    const current = (await exists(currentPath)) ? await readFile(currentPath) : null;
    const currentPlain = current && (isGzip(current) ? gunzipSync(current) : current);
    let before: number | null = null;
    try {
      before = currentPlain ? df.check(currentPlain).rows : null;
    } catch {
      before = null; // a broken current file does not block its replacement
    }
    if (!next) {
      files.push({ path: df.path, status: 'absent', before, after: null });
      continue;
    }
    provided.add(df.path);
    let problem: string | undefined;
    let after: number | null = null;
    try {
      const count = df.check(next);
      after = count.rows;
      const total = count.rows + count.skipped;
      if (count.rows === 0) problem = 'no usable rows';
      else if (count.skipped / total > cfg.maxSkipped) {
        problem = `${count.skipped} of ${total} rows malformed (${JSON.stringify(count.reasons)}), more than --max-skipped ${cfg.maxSkipped}`;
      } else if (before !== null && count.rows < before / 2 && !cfg.allowShrink) {
        problem = `${count.rows} rows against ${before} now: a truncated download? (--allow-shrink to accept)`;
      }
    } catch (err) {
      problem = (err as Error).message;
    }
    if (problem) {
      files.push({ path: df.path, status: 'refused', before, after, problem });
      continue;
    }
    const same = currentPlain !== null && currentPlain.equals(next);
    files.push({ path: df.path, status: same ? 'unchanged' : 'changed', before, after });
    if (!same) writes.push({ path: df.path, bytes: df.path.endsWith('.gz') ? gzipSync(next, { level: 9 }) : next });
  }
  // license, readme and credit files travel with their data, unchecked
  const dataPaths = new Set(DATA_FILES.map((d) => d.path));
  for (const s of sources) {
    for (const path of s.files) {
      if (dataPaths.has(path)) continue;
      const next = await fresh(cfg.from, path);
      if (!next) continue;
      provided.add(path);
      const currentPath = join(cfg.to, path);
      const current = (await exists(currentPath)) ? await readFile(currentPath) : null;
      if (!current || !current.equals(next)) writes.push({ path, bytes: next });
    }
  }

  for (const f of files) {
    const rows = (n: number | null) => (n === null ? '-' : String(n));
    log(`${f.status.padEnd(9)} ${f.path}  rows ${rows(f.before)} -> ${rows(f.after)}${f.problem ? `  (${f.problem})` : ''}`);
  }
  const refused = files.filter((f) => f.status === 'refused');
  if (refused.length) {
    log(`refused: ${refused.length} file(s) failed validation; ${cfg.to} left untouched`);
    return { ok: false, files, dated: [] };
  }
  const dated = sources.filter((s) => s.files.some((p) => provided.has(p))).map((s) => s.id);
  if (cfg.dryRun) {
    log(`dry run: ${writes.length} file(s) would be written; nothing changed`);
    return { ok: true, files, dated: [] };
  }
  for (const w of writes) await writeAtomic(join(cfg.to, w.path), w.bytes);
  if (dated.length) {
    const next = sources.map((s) => (dated.includes(s.id) ? { ...s, retrieved: today } : s));
    await writeAtomic(sourcesPath, Buffer.from(JSON.stringify(next, null, 2) + '\n'));
  }
  log(`wrote ${writes.length} file(s); retrieval date ${today} for ${dated.join(', ') || 'no source'}`);
  return { ok: true, files, dated };
}

const refreshCommand: Command<RefreshConfig> = {
  name: 'reference:refresh',
  usage: refreshUsage,
  specs: refreshOptions,
  run: async (c) => ((await refresh(c, c.date || new Date().toISOString().slice(0, 10))).ok ? 0 : 1),
};

runAsMain(import.meta.url, () => runCommand(refreshCommand, process.argv.slice(2)));
