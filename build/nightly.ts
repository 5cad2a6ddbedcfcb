// the nightly build, one command with steps:
//   traces -> flight log -> artifacts (+ estimate accuracy) -> validate -> atomic publish
// `npm run --silent nightly -- --help`; with no flags it builds the bundled sample into var/.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, runAsMain, runCommand, type Command } from '../lib/cli.ts';
import { NIGHTLY_SPECS, type NightlyConfig } from './nightly-config.ts';
import { loadRefdata, type Refdata } from '../lib/reference/index.ts';
import { keys } from '../artifacts/keys.ts';
import { airfieldTables, logAirfields } from './log/airfields.ts';
import { buildLog, type BuildLogResult } from './log/build.ts';
import { summary as logSummary } from './log/cli.ts';
import { historyProblem, type DaySelection } from './history/scan.ts';
import { addDays } from './history/scan.ts';
import { listLogDays, openLog } from './log/read.ts';
import { newestDay, type DestinationOf } from './accuracy/step.ts';
import { replayAndLearn } from './accuracy/night.ts';
import { destinationLookup, encodeLookup, servedRoutesOf } from '../artifacts/meta.ts';
import { consoleProgress, withPeakRss } from './progress.ts';
import { abandon, commit, linkReport, lockRoot, newBuildId, stage } from './publish/publish.ts';
import { badReport, verifyInWorker } from './publish/verify.ts';
import type { BuildContext, LogDays } from './steps/context.ts';
import type { Progress } from './progress.ts';
import { buildArtifacts } from './steps/pipeline.ts';
import { refViewOf } from '../artifacts/reference-view-adapter.ts';
import { writeBundles } from './bundle/bundle.ts';
import { refAirports, type BundleAirports } from './bundle/flights.ts';
import { installed } from '../lib/install.ts';
import { currentHeader, readObject } from '../artifacts/tree.ts';
import { changedFiles, fileUnchanged, readInputs, readRecordedInputs, writeInputs, type BuildInputs, type InputSources } from './publish/inputs.ts';
import { dayFile } from './log/write.ts';
import { decodeFlow } from '../lib/estimate/flow.ts';
import { decodePaths } from '../lib/estimate/paths.ts';
import { learnedDoc } from '../artifacts/learned.ts';

export interface NightlyResult {
  buildId: string;
  log: BuildLogResult | null;
  archiveThrough: string | null;
  windowDays: number;
  counts: Record<string, number>;
  written: number;
  linked: number;
  /** of the written, objects the published build held damaged (build/publish/verify.ts) */
  repaired?: number;
  /** true when the inputs equalled the published build's and nothing was built */
  unchanged?: boolean;
}

export async function runNightly(c: NightlyConfig, progress: Progress, say: (line: string) => void, nowMs = Date.now()): Promise<NightlyResult> {
  const release = lockRoot(c.artifacts, say);
  try {
    // the published objects this build may link, checked against their manifest beside the log step
    const published = currentHeader(c.artifacts);
    const checking = published ? verifyInWorker(published.dir, c.verify || c.rebuild) : null;
    void checking?.catch(() => {}); // awaited below
    const loadRef = async () => {
      progress.start('refdata', 0);
      const r = await loadRefdata(c.ref);
      const skippedRows = r.counts.reduce((n, f) => n + f.skipped, 0);
      progress.done(`${r.airports.all.length} airports, ${r.catalog.size} catalog routes; ${skippedRows} malformed rows skipped`);
      return r;
    };
    // the log step needs the reference data (airfields); without it the data is loaded after the
    // stage, so that the check of a taken-over version (recycle.ts) starts sooner
    let refdata: Refdata | null = null;
    let log: BuildLogResult | null = null;
    if (!c.skipLog) {
      refdata = await loadRef();
      const select: DaySelection = c.days > 0 ? { days: c.days } : { all: true };
      const airfields = logAirfields(airfieldTables(refdata.airports.all, refdata.runways, refdata.types));
      log = await buildLog({ history: c.history, log: c.log, select, threads: c.threads, workers: c.logWorkers, ...airfields }, progress);
      say(logSummary(log));
    }

    const days = listLogDays(c.log);
    const archiveThrough = days.length ? days[days.length - 1]! : null;
    const windowStart = archiveThrough ? maxDay(days[0]!, addDays(archiveThrough, 1 - c.windowDays)) : null;
    const windowDays = archiveThrough && windowStart ? daysBetween(windowStart, archiveThrough) + 1 : 0;

    // a night whose inputs equal the published build's would make the same documents: stop here
    const current = currentHeader(c.artifacts);
    const recorded = current ? readRecordedInputs(current.dir) : null;
    const windowLogDays = windowStart ? days.filter((d) => d >= windowStart) : [];
    const inputs = readInputs(
      nightlyInputSources(c, windowLogDays, archiveThrough, windowStart, c.accuracy ? await newestDay(c.history).catch(() => null) : null, nowMs),
      recorded,
    );
    const verified = checking && current?.dir === published?.dir ? await checking : null;
    if (verified)
      say(
        `verify: build ${current!.id}: ${verified.checked} objects checked (${verified.full ? 'every one hashed' : `size and mtime; ${verified.hashed} modified since hashed`}) in ${(verified.ms / 1000).toFixed(1)} s, ${verified.bad.length} damaged`,
      );
    const damaged = verified && verified.bad.length > 0 ? verified.bad.map((b) => b.key) : null;
    if (damaged) say(badReport(current!.id, verified!));
    if (current && recorded && recorded.digest === inputs.digest && !c.rebuild && !damaged) {
      say(
        `inputs unchanged since build ${current.id} (code, reference data, ${windowLogDays.length} log days, options): nothing built, build ${current.id} stays current (--rebuild to build anyway)`,
      );
      const h = current.header;
      // the bundles of that build may have failed after its commit ("rerun the nightly"): made here if so
      if (bundlesBuildOf(c.bundles) !== current.id) await bundleStep(c, current.id, days, nowMs, progress, say);
      return {
        buildId: current.id,
        log,
        archiveThrough: h.archive_through,
        windowDays: h.window_days,
        counts: h.counts,
        written: 0,
        linked: 0,
        unchanged: true,
      };
    }

    const buildId = newBuildId(c.artifacts, nowMs);
    // the validation sample is seeded by the clock: each night checks other documents, a night can be replayed
    // the version the commit would prune is taken over and checked (recycle.ts), or the current one
    // hard-link copied, beside the first steps (writer.ts)
    progress.start("publish: stage (the current version's objects, linked in the background)", 0);
    const staged = stage(c.artifacts, buildId, {
      workers: c.writeWorkers,
      validate: c.validateAll ? 'all' : 'sample',
      seed: nowMs,
      linkInBackground: true,
      keep: c.keep,
    });
    progress.done(
      `${staged.previous ? staged.previous.objects.size : 0} objects, ${staged.recycled ? `into build ${staged.recycled} (taken over from the prune)` : 'hard-link copied'}`,
    );
    if (damaged) staged.writer.distrust(damaged);
    refdata ??= await loadRef();
    let result: NightlyResult;
    const duck = duckOf(c);
    const db = await openLog(c.log, { ...duck, since: windowStart ?? undefined });
    try {
      // documents whose own inputs are unchanged are kept from the previous build when it was made by this code from this reference data
      // a damaged object may be one a step would keep unbuilt: no document is kept tonight
      const reuse = staged.previous && !damaged && recorded?.static_digest === inputs.static_digest ? staged.previous.dir : null;
      const ctx: BuildContext = {
        db: db.connection,
        refdata,
        ref: refViewOf(refdata),
        writer: staged.writer,
        archiveThrough,
        windowStart,
        windowDays,
        windowLimit: c.windowDays,
        timetablesDir: c.timetables || null,
        catalogRouteFiles: c.catalogRouteFiles,
        nowMs,
        progress,
        counts: {},
        reuse,
        logDays: reuse && recorded ? logDaysSince(recorded, inputs, c.log) : null,
      };
      const made = await buildArtifacts(ctx);
      // the replay sees the routes exactly as the server will load them tonight, through its lookup
      // (the table's entries as decoding meta/routes gives them, without encoding it again)
      if (c.accuracy) {
        progress.start('accuracy: destinations (the routes table and airport positions the server loads)', 0);
        const destinationOf = destinationLookup(servedRoutesOf(made.routes), encodeLookup(ctx.ref));
        progress.done(`${made.routes.size} routes`);
        await accuracyArtifact(c.history, ctx, say, destinationOf, staged.previous);
      }
      ctx.counts.log_days = days.length;
      if (log) ctx.counts.log_legs_added = log.legs;
      progress.start('publish: last writes, manifest, commit', 0);
      await staged.writer.flush();
      if (staged.previous) say(`publish: ${linkReport(staged)}`);
      staged.writer.writeManifest({
        build_id: buildId,
        built_at: new Date(nowMs).toISOString(),
        archive_through: archiveThrough,
        window_days: windowDays,
        counts: ctx.counts,
      });
      writeInputs(staged.writer.dir, inputs);
      const committed = commit(c.artifacts, staged, c.keep);
      progress.done(`build ${committed.id} is current`);
      const s = staged.writer.stats;
      const repaired = damaged ? `, ${s.repaired} of them damaged in build ${staged.previous!.id} and rewritten` : '';
      say(
        `published build ${committed.id}: ${s.objects} objects (${s.written} written${repaired}, ${s.linked} unchanged, ${s.removed} removed), archive through ${archiveThrough ?? 'none'}, window ${windowDays} days`,
      );
      result = { buildId, log, archiveThrough, windowDays, counts: ctx.counts, written: s.written, linked: s.linked, repaired: s.repaired };
    } catch (e) {
      await staged.writer.close(); // no worker writes into the folder being removed
      abandon(staged);
      throw e;
    } finally {
      await staged.writer.close();
      db.close();
    }
    // after the commit: the new tree is live whatever happens here, and the error says so
    await bundleStep(c, buildId, days, nowMs, progress, say, refdata ? refViewOf(refdata) : undefined);
    return result;
  } finally {
    release();
  }
}

const duckOf = (c: NightlyConfig) => ({ threads: c.threads, memoryLimit: c.memoryLimit, tempDirectory: join(c.artifacts, '.duckdb-spill') });

/** the researchers' files of the published build `buildId` (a failure says the build is live) */
async function bundleStep(
  c: NightlyConfig,
  buildId: string,
  days: string[],
  nowMs: number,
  progress: Progress,
  say: (line: string) => void,
  airports?: BundleAirports,
): Promise<void> {
  if (!c.bundles) return;
  const duck = duckOf(c);
  try {
    const b = await writeBundles({
      log: c.log,
      root: c.artifacts,
      out: c.bundles,
      nowMs,
      progress,
      ...duck,
      sources: join(c.ref, 'sources.json'),
      airports: airports ?? (await refAirports(c.ref)),
      baseUrl: c.baseUrl,
      creditsUrl: c.creditsUrl,
      traffic: sampleCredit(c.history, days),
    });
    say(
      `bundles: ${b.written.length} files written (content changed), ${b.removed.length} removed, ${b.index.log.length} days and ${b.index.tables.length} tables listed in ${c.bundles}/index.json; DuckDB memory limit ${b.duckdb.memoryLimit}, spilling to ${b.duckdb.tempDirectory}`,
    );
  } catch (e) {
    throw new AfterPublishError(`bundles: ${(e as Error).message}`, buildId);
  }
}

/** the build the researchers' files were last made from (their index.json), null when none */
function bundlesBuildOf(bundles: string): string | null {
  if (!bundles) return null;
  try {
    return (JSON.parse(readFileSync(join(bundles, 'index.json'), 'utf8')) as { build_id: string | null }).build_id;
  } catch {
    return null;
  }
}

/** a failure after the new build became current: the published tree is the new build, not the old one */
export class AfterPublishError extends Error {
  constructor(
    message: string,
    readonly buildId: string,
  ) {
    super(`${message} (build ${buildId} is published and served; only this later step failed: rerun the nightly)`);
  }
}

async function accuracyArtifact(
  history: string,
  ctx: BuildContext,
  say: (line: string) => void,
  destinationOf: DestinationOf,
  previous: { dir: string } | null,
): Promise<void> {
  const day = await newestDay(history).catch(() => null);
  if (!day) return say('accuracy: no history day to replay; the served accuracy stays null');
  // what the live server had learned while `day` was flown (the flow and the paths): before it, never from it
  const warn = (m: string) => say(`accuracy: previous build: ${m}`);
  const prevFlow = previous ? learnedDoc(previous.dir, 'flow', warn) : null;
  const prevPaths = previous ? learnedDoc(previous.dir, 'paths', warn) : null;
  if ((prevFlow && prevFlow.through >= day) || (prevPaths && prevPaths.through >= day)) {
    // this day is learned already (the night is built again): what was learned and its accuracy stay as published
    if (prevFlow) ctx.writer.put(keys.flow(), prevFlow);
    if (prevPaths) ctx.writer.put(keys.paths(), prevPaths);
    const acc = readObject(previous!.dir, keys.accuracy());
    if (acc) ctx.writer.put(keys.accuracy(), acc);
    return say(`accuracy: ${day} was learned and replayed by an earlier build; its flow, paths and figures are kept`);
  }
  const before = { flow: prevFlow && decodeFlow(prevFlow), paths: prevPaths && decodePaths(prevPaths) };
  // one pass over the day's files: replayed, learned, dropped (build/accuracy/night.ts)
  const r = await replayAndLearn(history, day, destinationOf, before, ctx.progress);
  for (const s of r.step.skipped) say(`accuracy: skipped ${s}`);
  if (!r.step.doc) ctx.progress.done(`no cruise stretch to score on ${day}`);
  else {
    ctx.writer.put(keys.accuracy(), r.step.doc);
    ctx.counts.accuracy_samples = r.step.doc.n;
    const first = before.flow || before.paths ? '' : ' (nothing learned before this day)';
    ctx.progress.done(`n=${r.step.doc.n}, median ${r.step.doc.median_km} km; ${r.step.read} traces, ${r.step.skipped.length} skipped${first}`);
  }
  ctx.writer.put(keys.flow(), r.flow);
  ctx.counts.flow_bins = r.flowBins;
  say(`flow: learned ${r.flowLearned} cruise points of ${day}; ${r.flowBins} place-and-heading bins`);
  ctx.writer.put(keys.paths(), r.paths);
  ctx.counts.traffic_paths = r.pathsKept;
  say(`paths: learned ${r.pathsAdded} paths of ${day}; ${r.pathsKept} kept`);
}

/** the inputs' key of a log day's file: log:YYYY-MM-DD */
const LOG_KEY = 'log:';

/**
 * What decides tonight's documents: the code (its source folders and the locked dependencies,
 * DuckDB among them), the reference data, the review list, the window's log files and the options.
 * published timetables are read against the clock (each airport's local day), so a build with
 * them never counts as unchanged.
 */
function nightlyInputSources(
  c: NightlyConfig,
  windowLogDays: string[],
  archiveThrough: string | null,
  windowStart: string | null,
  accuracyDay: string | null,
  nowMs: number,
): InputSources {
  return {
    folders: { artifacts: installed('artifacts'), build: installed('build'), lib: installed('lib'), schemas: installed('schemas'), ref: c.ref },
    files: { lock: installed('package-lock.json'), review: installed('data/catalog-review.csv') },
    logFiles: Object.fromEntries(windowLogDays.map((d) => [`${LOG_KEY}${d}`, dayFile(c.log, d)])),
    values: {
      window_days: c.windowDays,
      log_empty: archiveThrough === null,
      timetables: c.timetables ? nowMs : null,
      catalog_route_files: c.catalogRouteFiles,
    },
    logValues: { archive_through: archiveThrough, window_start: windowStart, accuracy_day: accuracyDay },
  };
}

/**
 * The log days tonight's window differs by from the build that recorded `recorded` (ctx.logDays):
 * null when a day's file changed in place (its earlier legs are gone) or a day that left the
 * window no longer holds the bytes that build read.
 */
function logDaysSince(recorded: BuildInputs, inputs: BuildInputs, log: string): LogDays | null {
  const d = changedFiles(recorded, inputs);
  const dayOf = (k: string) => (k.startsWith(LOG_KEY) ? k.slice(LOG_KEY.length) : null);
  if (d.changed.length || [...d.added, ...d.dropped].some((k) => dayOf(k) === null)) return null;
  const dropped = d.dropped.map((k) => ({ day: dayOf(k)!, file: dayFile(log, dayOf(k)!) }));
  if (dropped.some((x, i) => !fileUnchanged(x.file, recorded.files[d.dropped[i]!]!))) return null;
  return { added: d.added.map((k) => dayOf(k)!), dropped };
}

/**
 * The credit of the recorded traffic shipped in data/sample, when this log holds it: the history
 * is that folder and the log has one of its days. a real network's build credits only its feeders.
 */
function sampleCredit(history: string, logDays: string[]): string[] {
  const sample = installed('data/sample/globe_history');
  if (resolve(history) !== sample || !logDays.some((d) => existsSync(join(sample, ...d.split('-'))))) return [];
  return [
    'Sample history: adsb.lol and its feeders (https://adsb.lol), ODbL 1.0, as published in the eastham adsb_actions repository (https://github.com/eastham/adsb_actions, BSD-2-Clause).',
  ];
}

const maxDay = (a: string, b: string) => (a > b ? a : b);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

const USAGE = `Usage: npm run --silent nightly -- [options]

The nightly build: readsb globe_history traces -> Parquet flight log -> gzipped JSON artifacts,
validated against schemas/ and published atomically under --artifacts (the server follows its
\`current\` link). With no options it builds the bundled sample (data/sample) into var/.`;

const nightly: Command<NightlyConfig> = {
  name: 'nightly',
  usage: USAGE,
  specs: NIGHTLY_SPECS,
  check: (c) => {
    const problem = c.skipLog ? null : historyProblem(c.history);
    if (problem) throw new ConfigError(problem);
  },
  run: async (c) => {
    const t0 = Date.now();
    const r = await runNightly(c, withPeakRss(consoleProgress()), (l) => console.error(l));
    console.error(`nightly: done in ${((Date.now() - t0) / 1000).toFixed(1)} s (build ${r.buildId})`);
    return 0;
  },
  onFailure: (e) => (e instanceof AfterPublishError ? null : 'the published tree is unchanged'),
};

runAsMain(import.meta.url, () => runCommand(nightly, process.argv.slice(2)));
