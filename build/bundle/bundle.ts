// the researchers' data, published after the nightly's commit as files a remote Parquet reader
// queries in place (HTTP range requests) and a person downloads one by one:
//   log/day=YYYY-MM-DD/legs.parquet  the flight log itself, Hive-partitioned (the day is in the
//                                    path, not in the file), byte for byte the log's own file
//   tables/{airframes,airports,routes}.parquet  derived from the current artifact build
//   tables/{flights,points}/date=YYYY-MM-DD/*.parquet  the build's flights and their tracks, by day
//   README LICENSE CREDITS SHA256SUMS, and index.json (/v1/bundles) listing every file
// every file is written atomically (temp + rename) and only when its bytes change: a rebuild
// that leaves a day as it was leaves its file, inode and mtime alone. nothing is tarred: a day is
// one file already, and the window is a list of them (the tarballs only duplicated the tree).
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentHeader } from '../../artifacts/tree.ts';
import { assertValid } from '../../schemas/index.ts';
import { silentProgress, type Progress } from '../progress.ts';
import { addDays } from '../history/scan.ts';
import { listLogDays, openLog } from '../log/read.ts';
import { dayFile, sqlString } from '../log/write.ts';
import { prune, publishFile, sha256 } from './files.ts';
import { writeTables } from './tables.ts';
import { flightsDaysToMake, pointsDay, prepareRouting, refAirports, writeFlightsDay, type BundleAirports } from './flights.ts';
import { creditsText, licenseText, readmeText, readSources, sumsText, usedSources, type BundleTexts } from './texts.ts';
import {
  DATE_PART,
  DAY_PART,
  DAY_TABLES,
  INDEX_FILE,
  LOG_DIR,
  LOG_FILE,
  logPath,
  TABLES,
  TABLES_DIR,
  dayTablePath,
  tablePath,
  urlOf,
  type DocName,
} from '../../artifacts/bundles.ts';
import { localFile, readIndex, type BundlesIndex, type DayTableEntry, type DocEntry, type FileEntry, type LogEntry, type TableEntry } from './index-file.ts';

export interface BundleOptions {
  /** flight log root (day=YYYY-MM-DD/legs.parquet) */
  log: string;
  /** artifact tree root (its `current` version gives the tables) */
  root: string;
  /** the published folder: index.json, log/, tables/, README, LICENSE ... */
  out: string;
  nowMs: number;
  progress?: Progress;
  /** reference-data sources of the build (its --ref folder's sources.json) */
  sources?: string;
  /** public base URL of the service (absolute links in README and CREDITS); empty: none known */
  baseUrl?: string;
  /** the credits page; empty: {baseUrl}/v1/credits */
  creditsUrl?: string;
  /** credits of recorded traffic the log was built from besides the network's feeders, one line each */
  traffic?: string[];
  threads?: number;
  memoryLimit?: string;
  /** where DuckDB spills beyond memoryLimit */
  tempDirectory?: string;
  /** the build's reference airports (IATA codes of the flights table); default: the shipped data/ref's */
  airports?: BundleAirports;
}

export interface BundleResult {
  index: BundlesIndex;
  /** paths (below out) written because their bytes changed */
  written: string[];
  /** paths (below out) removed: days gone from the log, tables of no build, the old tarballs */
  removed: string[];
  /** DuckDB's own reading of its limits during the step (memory_limit, temp_directory) */
  duckdb: { memoryLimit: string; tempDirectory: string };
}

const DEFAULT_SOURCES = new URL('../../data/ref/sources.json', import.meta.url).pathname;

export async function writeBundles(o: BundleOptions): Promise<BundleResult> {
  const progress = o.progress ?? silentProgress;
  const base = (o.baseUrl ?? '').replace(/\/+$/, '');
  const prev = readIndex(o.out);
  const created = new Date(o.nowMs).toISOString();
  const written: string[] = [];
  const was = <E extends FileEntry>(list: E[] | undefined, path: string) => list?.find((e) => e.path === path);
  mkdirSync(o.out, { recursive: true });

  // the log: each day's file as it is
  const days = listLogDays(o.log);
  progress.start('bundles: log', days.length);
  const log: LogEntry[] = [];
  const changedDays: string[] = [];
  const db = await openLog(o.log, { threads: o.threads ?? 1, memoryLimit: o.memoryLimit, tempDirectory: o.tempDirectory });
  const work = mkdtempSync(join(tmpdir(), 'contrail-bundle-'));
  try {
    const [setting] = await db.rows(`SELECT current_setting('memory_limit') AS m, current_setting('temp_directory') AS t`);
    const duckdb = { memoryLimit: String(setting!.m), tempDirectory: String(setting!.t) };
    for (const day of days) {
      const rel = logPath(day);
      const old = was(prev?.log, urlOf(rel));
      const w = publishFile(join(o.out, rel), { file: dayFile(o.log, day) }, old);
      const rows = w.changed || !old ? await parquetRows(db, join(o.out, rel)) : old.rows;
      if (w.changed) {
        written.push(rel);
        changedDays.push(day);
      }
      log.push({ day, path: urlOf(rel), rows, bytes: w.bytes, sha256: w.sha256, updated_at: w.changed || !old ? created : old.updated_at });
      progress.tick();
    }
    progress.done(`${days.length} days, ${changedDays.length} written`);

    // the tables of the current build, over its window
    // version.json, not the manifest: that one lists every object (90 MB for the sample build)
    const v = currentHeader(o.root);
    let tables: TableEntry[] = [];
    const flights: DayTableEntry[] = [];
    const points: DayTableEntry[] = [];
    let window: { from: string; to: string } | null = null;
    if (v?.header.archive_through) {
      const to = v.header.archive_through;
      window = { from: addDays(to, 1 - Math.max(1, v.header.window_days)), to };
      const kept = prev?.build_id === v.id && prev.tables_from === window.from && !changedDays.some((d) => d >= window!.from && d <= to) ? prev.tables : [];
      progress.start('bundles: tables', 0);
      if (kept.length === TABLES.length && kept.every((e) => sizeOf(localFile(o.out, e)) === e.bytes)) tables = kept;
      else {
        const made = await writeTables(db, work, `day BETWEEN DATE ${sqlString(window.from)} AND DATE ${sqlString(to)}`, v);
        tables = made.files.map((t) => {
          const rel = tablePath(t.name);
          const old = was(prev?.tables, urlOf(rel));
          const w = publishFile(join(o.out, rel), { file: t.file }, old);
          if (w.changed) written.push(rel);
          return {
            name: t.name,
            path: urlOf(rel),
            rows: t.rows,
            bytes: w.bytes,
            sha256: w.sha256,
            updated_at: w.changed || !old ? created : old.updated_at,
            build_id: v.id,
          };
        });
      }
      progress.done(`build ${v.id}, ${window.from} to ${to}`);

      // the flights and their tracks, a file per day: a closed day keeps its file (flightsDaysToMake)
      const inWindow = days.filter((d) => d >= window!.from && d <= to);
      const make = flightsDaysToMake({
        inWindow,
        listed: prev ? new Set(prev.flights.map((e) => e.day)) : null,
        sameBuild: prev?.build_id === v.id,
        keptClosedDays: (v.header.counts['flights.kept'] ?? 0) > 0,
        changedLog: changedDays,
      });
      progress.start('bundles: flights', inWindow.length);
      await prepareRouting(db, v.dir, o.airports ?? (await refAirports()));
      let made = 0;
      for (const day of inWindow) {
        const entry = (name: (typeof DAY_TABLES)[number], list: DayTableEntry[] | undefined, from: { file: string; rows: number }): DayTableEntry => {
          const rel = dayTablePath(name, day);
          const old = was(list, urlOf(rel));
          const w = publishFile(join(o.out, rel), from, old);
          if (w.changed) written.push(rel);
          const updated_at = w.changed || !old ? created : old.updated_at;
          return { name, day, path: urlOf(rel), rows: from.rows, bytes: w.bytes, sha256: w.sha256, updated_at, build_id: v.id };
        };
        const keep = make.has(day) ? undefined : was(prev?.flights, urlOf(dayTablePath('flights', day)));
        if (keep && sizeOf(localFile(o.out, keep)) === keep.bytes) flights.push(keep);
        else {
          const f = await writeFlightsDay(db, work, day);
          flights.push(entry('flights', prev?.flights, f));
          made++;
        }
        const pointsOf = await pointsDay(db, o.log, work, day);
        points.push(entry('points', prev?.points, pointsOf));
        progress.tick();
      }
      progress.done(`${inWindow.length} days, ${made} flights files made`);
    }

    // the texts, from what was published
    const texts: BundleTexts = {
      base,
      creditsUrl: o.creditsUrl || (base ? `${base}/v1/credits` : ''),
      sources: usedSources(readSources(o.sources ?? DEFAULT_SOURCES), {
        airports: await anyRow(db, `SELECT 1 FROM legs WHERE org IS NOT NULL OR dst IS NOT NULL LIMIT 1`),
        catalog:
          tables.length > 0 &&
          (await anyRow(db, `SELECT 1 FROM read_parquet(${sqlString(join(o.out, tablePath('routes')))}) WHERE route_source LIKE '%catalog%' LIMIT 1`)),
      }),
      traffic: o.traffic ?? [],
    };
    const facts = {
      days: log.map((e) => e.day),
      legs: log.reduce((n, e) => n + e.rows, 0),
      buildId: tables.length ? v!.id : null,
      window: tables.length ? window : null,
    };
    const bodies: [DocName, Buffer][] = [
      ['README', Buffer.from(readmeText(texts, facts))],
      ['LICENSE', Buffer.from(licenseText())],
      ['CREDITS', Buffer.from(creditsText(texts))],
    ];
    const listed = [...log, ...tables, ...flights, ...points];
    const sums = sumsText([
      ...listed.map((e) => [e.sha256, e.path.slice(urlOf('').length)] as [string, string]),
      ...bodies.map(([n, b]) => [sha256(b), n] as [string, string]),
    ]);
    bodies.push(['SHA256SUMS', Buffer.from(sums)]);
    const docs: DocEntry[] = bodies.map(([name, data]) => {
      const old = was(prev?.docs, urlOf(name));
      const w = publishFile(join(o.out, name), { data }, old);
      if (w.changed) written.push(name);
      return { name, path: urlOf(name), bytes: w.bytes, sha256: w.sha256, updated_at: w.changed || !old ? created : old.updated_at };
    });

    const index: BundlesIndex = {
      generated_at: created,
      license: 'ODbL-1.0',
      credits_url: texts.creditsUrl || '/v1/credits',
      archive_through: days.length ? days[days.length - 1]! : null,
      build_id: tables.length ? v!.id : null,
      tables_from: tables.length ? window!.from : null,
      tables_to: tables.length ? window!.to : null,
      log,
      tables,
      flights,
      points,
      docs,
    };
    assertValid('bundles-index', index, INDEX_FILE);
    publishFile(join(o.out, INDEX_FILE), { data: Buffer.from(JSON.stringify(index, null, 1)) });
    // only now that the index no longer names them
    const dayNames = new Set(days.map((d) => `day=${d}`));
    const tableNames = new Set(tables.map((t) => `${t.name}.parquet`));
    const removed = [
      ...prune(join(o.out, LOG_DIR), (n) => dayNames.has(n) && DAY_PART.test(n)).map((n) => `${LOG_DIR}/${n}`),
      ...days.flatMap((d) => prune(join(o.out, LOG_DIR, `day=${d}`), (n) => n === LOG_FILE).map((n) => `${LOG_DIR}/day=${d}/${n}`)),
      ...prune(join(o.out, TABLES_DIR), (n) => tableNames.has(n) || (DAY_TABLES.includes(n as never) && flights.length > 0)).map((n) => `${TABLES_DIR}/${n}`),
      ...DAY_TABLES.flatMap((t) => prunedDays(o.out, t, new Set(flights.map((e) => e.day)))),
      // the .tar.gz bundles of the earlier layout, and a killed run's temporaries; nothing else here is ours to judge
      ...prune(o.out, (n) => !LEGACY.includes(n)),
    ];
    return { index, written, removed, duckdb };
  } finally {
    db.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** the day folders of table `t` whose day the index no longer lists, and strays inside the listed ones */
function prunedDays(out: string, t: (typeof DAY_TABLES)[number], listed: Set<string>): string[] {
  const dir = join(out, TABLES_DIR, t);
  const days = prune(dir, (n) => DATE_PART.test(n) && listed.has(n.slice(5))).map((n) => `${TABLES_DIR}/${t}/${n}`);
  const inside = [...listed].flatMap((d) => prune(join(dir, `date=${d}`), (n) => n === `${t}.parquet`).map((n) => `${TABLES_DIR}/${t}/date=${d}/${n}`));
  return [...days, ...inside];
}

/** the folders of the earlier layout (daily and rolling .tar.gz bundles), removed on the first run */
const LEGACY = ['daily', 'rolling'];

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return -1;
  }
}

async function parquetRows(db: Awaited<ReturnType<typeof openLog>>, file: string): Promise<number> {
  const r = await db.rows(`SELECT coalesce(sum(num_rows), 0) AS n FROM parquet_file_metadata(${sqlString(file)})`);
  return Number(r[0]!.n);
}

async function anyRow(db: Awaited<ReturnType<typeof openLog>>, sql: string): Promise<boolean> {
  return (await db.rows(sql)).length > 0;
}
