// researchers' bundles: one .tar.gz per log day and one rolling bundle for the artifact window,
// each holding the flight log as Parquet (zstd, written by DuckDB COPY), LICENSE, CREDITS, README
// and SHA256SUMS; the rolling one also holds the derived tables (airframes, airports, routes) as
// Parquet.
// files are named by their own hash (immutable caching), listed in <out>/index.json (served as
// /v1/bundles). a daily bundle is rebuilt only when its day's legs.parquet changed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentVersion, readObject, type Version } from '../../artifacts/tree.ts';
import { keys } from '../../artifacts/keys.ts';
import { assertValid } from '../../schemas/index.ts';
import { silentProgress, type Progress } from '../progress.ts';
import { addDays, isDay } from '../history/scan.ts';
import { listLogDays, openLog, type OpenLog } from '../log/read.ts';
import { dayFile, sqlString } from '../log/write.ts';
import { TarGzWriter } from './tar.ts';
import { creditsText, licenseText, readmeText, readSources, type BundleTexts } from './texts.ts';

import { BUNDLES_URL, INDEX_FILE, KINDS, type BundleKind } from '../../artifacts/bundles.ts';

export interface BundleEntry {
  kind: BundleKind;
  /** URL path of the file, e.g. /v1/bundles/daily/contrail-2026-11-21-0123456789ab.tar.gz */
  path: string;
  /** first and last log day covered (ISO dates) */
  from: string;
  to: string;
  legs: number;
  bytes: number;
  /** sha256 of the .tar.gz */
  sha256: string;
  /** ISO 8601 UTC */
  created_at: string;
  /** artifact build included (rolling), else null */
  build_id: string | null;
  /** sha256 of the log file(s) the bundle was made from: a daily bundle is rebuilt when it changes */
  log_sha256: string;
}

export interface BundlesIndex {
  generated_at: string;
  license: string;
  credits_url: string;
  bundles: BundleEntry[];
}

export interface BundleOptions {
  /** flight log root (day=YYYY-MM-DD/legs.parquet) */
  log: string;
  /** artifact tree root (its `current` version goes into the rolling bundle) */
  root: string;
  /** bundles folder: index.json, daily/, rolling/ */
  out: string;
  /** days to rebuild even when unchanged; days whose log changed or that have no bundle are always built */
  days?: string[];
  nowMs: number;
  progress?: Progress;
  /** reference-data sources (default data/ref/sources.json of this checkout) */
  sources?: string;
  creditsUrl?: string;
  /** credits of the observations, one line each */
  traffic?: string[];
  threads?: number;
}

export interface BundleResult {
  index: BundlesIndex;
  built: BundleEntry[];
  /** files deleted from <out> because no index entry names them any more */
  removed: string[];
}

const DEFAULT_SOURCES = new URL('../../data/ref/sources.json', import.meta.url).pathname;
const DEFAULT_TRAFFIC = [
  "The network's feeders: the receiving stations listed at /v1/stations, whose receivers heard every leg.",
  'Sample history (when built from data/sample): adsb.lol and its feeders, ODbL 1.0, as published in the eastham adsb_actions repository (BSD-2-Clause).',
];

const fileUrl = (kind: BundleKind, name: string) => `${BUNDLES_URL}/${kind}/${name}`;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** Reads <out>/index.json, or null when absent or unreadable (everything is rebuilt then). */
export function readIndex(out: string): BundlesIndex | null {
  try {
    const doc = JSON.parse(readFileSync(join(out, INDEX_FILE), 'utf8')) as BundlesIndex;
    assertValid('bundles-index', doc, INDEX_FILE);
    return doc;
  } catch {
    return null;
  }
}

export async function writeBundles(o: BundleOptions): Promise<BundleResult> {
  const progress = o.progress ?? silentProgress;
  for (const d of o.days ?? []) if (!isDay(d)) throw new Error(`bundle day ${JSON.stringify(d)} is not a YYYY-MM-DD date`);
  const texts: BundleTexts = {
    creditsUrl: o.creditsUrl ?? '/v1/credits',
    sources: readSources(o.sources ?? DEFAULT_SOURCES),
    traffic: o.traffic ?? DEFAULT_TRAFFIC,
  };
  for (const k of KINDS) mkdirSync(join(o.out, k), { recursive: true });
  const prev = readIndex(o.out);
  const prevOf = (kind: BundleKind, from: string) => prev?.bundles.find((b) => b.kind === kind && b.from === from && existsSync(localFile(o.out, b)));
  const logDays = listLogDays(o.log);
  const force = new Set(o.days ?? []);
  const created = new Date(o.nowMs).toISOString();
  const entries: BundleEntry[] = [];
  const built: BundleEntry[] = [];
  const work = mkdtempSync(join(tmpdir(), 'contrail-bundle-'));
  const db = await openLog(o.log, { threads: o.threads ?? 1 });
  try {
    const daySha = new Map(logDays.map((d) => [d, sha256(readFileSync(dayFile(o.log, d)))]));
    const todo = logDays.filter((d) => force.has(d) || prevOf('daily', d)?.log_sha256 !== daySha.get(d));
    progress.start('bundles', todo.length + 1);
    for (const d of logDays) {
      const kept = prevOf('daily', d);
      if (!todo.includes(d) && kept) {
        entries.push(kept);
        continue;
      }
      const e = await writeOne(db, work, o.out, texts, { kind: 'daily', from: d, to: d, logSha: daySha.get(d)!, version: null, created });
      entries.push(e);
      built.push(e);
      progress.tick();
    }
    const v = currentVersion(o.root);
    if (v?.manifest.archive_through) {
      const to = v.manifest.archive_through;
      const from = addDays(to, 1 - Math.max(1, v.manifest.window_days));
      const logSha = sha256(logDays.filter((d) => d >= from && d <= to).map((d) => daySha.get(d)).join('\n'));
      const kept = prev?.bundles.find((b) => b.kind === 'rolling' && existsSync(localFile(o.out, b)));
      if (kept && kept.build_id === v.id && kept.log_sha256 === logSha && kept.from === from) entries.push(kept);
      else {
        const e = await writeOne(db, work, o.out, texts, { kind: 'rolling', from, to, logSha, version: v, created });
        entries.push(e);
        built.push(e);
      }
    }
    progress.done(`${built.length} bundles written, ${entries.length - built.length} unchanged`);
  } finally {
    db.close();
    rmSync(work, { recursive: true, force: true });
  }
  const index: BundlesIndex = { generated_at: created, license: 'ODbL-1.0', credits_url: texts.creditsUrl, bundles: entries };
  assertValid('bundles-index', index, INDEX_FILE);
  const tmp = join(o.out, `.${INDEX_FILE}.tmp-${process.pid}`);
  writeFileSync(tmp, JSON.stringify(index, null, 1));
  renameSync(tmp, join(o.out, INDEX_FILE));
  // only now that the index no longer names them
  const named = new Set(entries.map((e) => localFile(o.out, e)));
  const removed: string[] = [];
  for (const k of KINDS) {
    for (const n of readdirSync(join(o.out, k))) {
      const f = join(o.out, k, n);
      if (!named.has(f)) {
        rmSync(f, { force: true });
        removed.push(`${k}/${n}`);
      }
    }
  }
  return { index, built, removed };
}

/** The file on disk of an index entry. */
export function localFile(out: string, e: Pick<BundleEntry, 'path'>): string {
  return join(out, e.path.slice(BUNDLES_URL.length + 1));
}

interface One {
  kind: BundleKind;
  from: string;
  to: string;
  logSha: string;
  version: Version | null;
  created: string;
}

async function writeOne(db: OpenLog, work: string, out: string, texts: BundleTexts, b: One): Promise<BundleEntry> {
  const stem = b.kind === 'daily' ? `contrail-${b.from}` : `contrail-${b.from}_${b.to}`;
  const parquet = join(work, `${stem}.parquet`);
  const where = `day BETWEEN DATE ${sqlString(b.from)} AND DATE ${sqlString(b.to)}`;
  // day is a real column here: a researcher reads one file, not a hive tree
  await db.connection.run(`COPY (SELECT * FROM legs WHERE ${where} ORDER BY day, hex, first_ts, last_ts) TO ${sqlString(parquet)} (FORMAT parquet, COMPRESSION zstd)`);
  const legs = Number((await db.rows(`SELECT count(*) AS n FROM legs WHERE ${where}`))[0]!.n);
  const staging = join(out, b.kind, `.${stem}.tar.gz`);
  // entries dated the end of the period: the same inputs give the same bytes
  const tar = new TarGzWriter(staging, Date.parse(`${addDays(b.to, 1)}T00:00:00Z`) / 1000);
  const sums: [string, string][] = [];
  const add = async (name: string, data: Buffer) => {
    await tar.addBuffer(`${stem}/${name}`, data);
    sums.push([sha256(data), name]);
  };
  try {
    await add('README', Buffer.from(readmeText({ kind: b.kind, from: b.from, to: b.to, legs, buildId: b.version?.id ?? null, creditsUrl: texts.creditsUrl })));
    await add('LICENSE', Buffer.from(licenseText()));
    await add('CREDITS', Buffer.from(creditsText(texts)));
    sums.push([await tar.addFile(`${stem}/legs.parquet`, parquet), 'legs.parquet']);
    if (b.version) {
      for (const name of await writeTables(db, work, where, b.version)) {
        sums.push([await tar.addFile(`${stem}/tables/${name}`, join(work, name)), `tables/${name}`]);
        rmSync(join(work, name), { force: true });
      }
    }
    await tar.addBuffer(`${stem}/SHA256SUMS`, Buffer.from(sums.map(([h, n]) => `${h}  ${n}\n`).join('')));
  } catch (e) {
    tar.abort();
    throw e;
  }
  const { sha256: sha, bytes } = await tar.close();
  const name = `${stem}-${sha.slice(0, 12)}.tar.gz`;
  renameSync(staging, join(out, b.kind, name));
  rmSync(parquet, { force: true });
  return { kind: b.kind, path: fileUrl(b.kind, name), from: b.from, to: b.to, legs, bytes, sha256: sha, created_at: b.created, build_id: b.version?.id ?? null, log_sha256: b.logSha };
}

/**
 * The derived tables of the rolling bundle, as Parquet beside legs.parquet (not the artifact tree
 * as hundreds of thousands of JSON files): airframes with their legs, airports with their observed
 * totals (circuits excluded, as /v1/airports), and the routes table the build served with each
 * callsign's route_source. Returns the file names written into `work`.
 */
async function writeTables(db: OpenLog, work: string, where: string, v: Version): Promise<string[]> {
  const c = db.connection;
  const to = (name: string) => `TO ${sqlString(join(work, name))} (FORMAT parquet, COMPRESSION zstd)`;
  await c.run(`COPY (
    SELECT hex, arg_max(reg, last_ts) AS reg, arg_max(type, last_ts) AS type, count(*)::INTEGER AS legs,
      min(day) AS first_day, max(day) AS last_day,
      list(struct_pack(day := day, callsign := callsign, first_ts := first_ts, dep_ts := dep_ts, arr_ts := arr_ts, org := org, dst := dst, open := open) ORDER BY first_ts) AS history
    FROM legs WHERE ${where} GROUP BY hex ORDER BY hex) ${to('airframes.parquet')}`);
  await c.run(`COPY (
    WITH m AS (
      SELECT org AS ident, 1 AS dep, 0 AS arr, hex, day FROM legs WHERE ${where} AND org IS NOT NULL AND org IS DISTINCT FROM dst
      UNION ALL
      SELECT dst AS ident, 0 AS dep, 1 AS arr, hex, day FROM legs WHERE ${where} AND dst IS NOT NULL AND dst IS DISTINCT FROM org)
    SELECT ident, sum(dep)::INTEGER AS departures, sum(arr)::INTEGER AS arrivals, count(DISTINCT hex)::INTEGER AS tails,
      count(DISTINCT day)::INTEGER AS days_observed
    FROM m GROUP BY ident ORDER BY ident) ${to('airports.parquet')}`);
  // the routes table as the server loaded it (meta/routes: callsign -> [org, dst, route_source], IATA)
  const table = (readObject(v.dir, keys.routesTable()) ?? {}) as Record<string, [string, string, string]>;
  const ndjson = join(work, 'routes.ndjson');
  const lines = Object.entries(table).map(([callsign, [org, dst, src]]) => JSON.stringify({ callsign, org, dst, route_source: src }));
  writeFileSync(ndjson, lines.join('\n'));
  const columns = `{'callsign': 'VARCHAR', 'org': 'VARCHAR', 'dst': 'VARCHAR', 'route_source': 'VARCHAR'}`;
  const rows = lines.length
    ? `SELECT * FROM read_json(${sqlString(ndjson)}, format = 'newline_delimited', columns = ${columns}) ORDER BY callsign`
    : 'SELECT NULL::VARCHAR AS callsign, NULL::VARCHAR AS org, NULL::VARCHAR AS dst, NULL::VARCHAR AS route_source WHERE false';
  await c.run(`COPY (${rows}) ${to('routes.parquet')}`);
  rmSync(ndjson, { force: true });
  return ['airframes.parquet', 'airports.parquet', 'routes.parquet'];
}
