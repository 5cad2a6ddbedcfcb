// `make demo`: the simulated live feed and feeder list read by the real server, and a few weeks of
// SIMULATED history through the real nightly pipeline, started at once. two banners, each URL
// printed only after it answered 200: the live URLs as soon as the server has caught up with the
// feed, the history URLs (and the estimates and map, which use the build) once the build is
// published and loaded. children run in their own process groups, killed as groups on Ctrl-C or
// on failure.
//
// the feed first catches up through the last 2 hours (sim/live.ts, one snapshot per read; the demo's
// server reads four a second), so by the first banner the server holds what it would after running
// for 2 hours: traces, and the aircraft that went quiet over oceans and coverage gaps. the history
// is written by `sim history` in a process of its own while this one loads the live feed's world.
import { MALLOC_ENV } from '../server/malloc.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { currentHeader } from '../artifacts/tree.ts';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { runAsMain, runCommand, type Command, type Specs } from '../lib/cli.ts';
import { FLEET_PER_AIRBORNE, createSky } from './sky.ts';
import { startLive, type Live } from './live.ts';
import { installed } from '../lib/install.ts';
import { answering, daysOf, fullBanner, historyBanner, httpGet, liveBanner } from './demo-banner.ts';
import { historyUrls, liveUrls } from './demo-urls.ts';
import { faultArgs, faultSpecs, faultsOf, type FaultFlags } from './fault-specs.ts';

interface DemoConfig extends FaultFlags {
  dir: string;
  port: number;
  days: number;
  firstDays: number;
  aircraft: number;
  seed: number;
  ref: string;
}
export const demoSpecs: Specs<DemoConfig> = {
  // the receiver faults and GA circuits of the simulated traffic, live and history alike (sim/README.md)
  ...faultSpecs,
  dir: {
    flag: 'dir',
    env: 'CONTRAIL_DEMO_DIR',
    kind: 'string',
    default: installed('var/demo'),
    help: 'working folder (history, log, artifacts, feed, state); its history and log are rewritten',
  },
  port: {
    flag: 'port',
    env: 'CONTRAIL_DEMO_PORT',
    kind: 'int',
    default: 8080,
    help: 'port of the server',
    check: (v) => (v > 0 && v < 65536 ? undefined : 'must be 1..65535'),
  },
  days: {
    flag: 'days',
    env: 'CONTRAIL_DEMO_DAYS',
    kind: 'int',
    default: 14,
    help: 'days of simulated history, ending yesterday (UTC)',
    check: (v) => (v >= 1 && v <= 60 ? undefined : 'must be 1..60'),
  },
  // the first banner waits on the simulated days and the nightly's steps that grow with them; the
  // newest two days hold a callsign flown on two days, which a board needs (docs/api.md "board-slots")
  firstDays: {
    flag: 'first-days',
    env: 'CONTRAIL_DEMO_FIRST_DAYS',
    kind: 'int',
    default: 2,
    help: "days of the first build, the newest: its history banner comes sooner, and a second build of all --days, with the estimates' accuracy, follows in the background (0, or --days or more: one build of all)",
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  aircraft: {
    flag: 'aircraft',
    env: 'CONTRAIL_DEMO_AIRCRAFT',
    kind: 'int',
    default: 120,
    help: 'about this many aircraft airborne at a busy hour',
    check: (v) => (v >= 10 ? undefined : 'must be at least 10'),
  },
  seed: { flag: 'seed', env: 'CONTRAIL_SIM_SEED', kind: 'int', default: 1, help: 'simulator seed' },
  ref: {
    flag: 'ref',
    env: 'CONTRAIL_REF',
    kind: 'string',
    default: installed('data/ref'),
    help: "reference data snapshot (the simulator's and the nightly build's)",
  },
};

/** simulated seconds of live feed the server reads before the present: the estimator's 2-hour cap, so
 * every aircraft it would list had it been running is listed (25-45 snapshots) */
export const DEMO_CATCH_UP_S = 7200;
/** s between the demo server's reads of the feed: the catch-up's snapshots go by four a second
 * (readsb's own period is 1 s; the present snapshot changes once a second, and a read that brings
 * nothing new is ignored) */
export const DEMO_FEED_INTERVAL_S = 0.25;
/** node flags of `sim history`: a larger young generation, as its rows are short-lived strings and
 * objects (a fifth less CPU a day, docs/perf-log/demo-startup.md) */
const HISTORY_NODE_ARGS = ['--max-semi-space-size=64'];
/** how long each wait may take before the demo gives up (a busy machine is several times slower) */
const LIVE_WAIT_MS = 300_000;
const LOAD_WAIT_MS = 120_000;

const children = new Set<ChildProcess>();
let live: Live | null = null;
/** Ctrl-C or SIGTERM: the exit code is 130 whatever the waits then see */
let interrupted = false;
const log = (s: string) => process.stderr.write(`demo: ${s}\n`);

/** runs `node --import tsx <script> args` from the install folder, in its own process group */
function start(
  script: string,
  args: string[],
  o: { stdout: 'inherit' | 'ignore'; onStderrLine?: (line: string) => void; env?: Record<string, string>; node?: string[] },
): ChildProcess {
  const child = spawn(process.execPath, [...(o.node ?? []), '--import', 'tsx', installed(script), ...args], {
    cwd: installed('.'),
    detached: true,
    stdio: ['ignore', o.stdout, o.onStderrLine ? 'pipe' : 'inherit'],
    env: { ...process.env, ...o.env },
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  if (o.onStderrLine) createInterface({ input: child.stderr! }).on('line', o.onStderrLine);
  return child;
}

function killAll(): void {
  live?.stop();
  for (const c of children) {
    try {
      if (c.pid) process.kill(-c.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

function exitCode(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? 1);
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

/**
 * Moves the folders of an earlier run aside at once (the new run writes fresh ones meanwhile) and
 * removes them in the background: thousands of trace files took 24 s to delete on a busy disk.
 */
function clearAside(dir: string, names: string[]): void {
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir).filter((n) => n.startsWith(OLD))) void rm(join(dir, old), { recursive: true, force: true }).catch(() => {}); // left for the next run
  const aside = join(dir, `${OLD}${process.pid}-${Date.now()}`);
  for (const name of names) {
    if (!existsSync(join(dir, name))) continue;
    mkdirSync(aside, { recursive: true });
    renameSync(join(dir, name), join(aside, name));
  }
  if (existsSync(aside)) void rm(aside, { recursive: true, force: true }).catch(() => {});
}
const OLD = '.old-';

/** a port free now on 127.0.0.1 (the kernel's pick, released at once) */
function freePort(): Promise<number> {
  return new Promise((ok, no) => {
    const s = createServer().once('error', no);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** polls `ready` every 250 ms until it holds (true), `gone` names a reason to stop (false) or the time is up (false); `say` every 5 s */
async function until(ready: () => Promise<boolean> | boolean, o: { timeoutMs: number; gone: () => string | null; say: () => void }): Promise<boolean> {
  const end = Date.now() + o.timeoutMs;
  let said = Date.now();
  while (Date.now() < end) {
    if (o.gone()) return false;
    if (await ready()) return true;
    if (Date.now() - said >= 5000) {
      said = Date.now();
      o.say();
    }
    await sleep(250);
  }
  return false;
}

const demo: Command<DemoConfig> = {
  name: 'demo',
  usage:
    'usage: npx tsx sim/demo.ts [options]   (make demo)\n\nRuns Contrail on SIMULATED traffic: the live feed and the real server at once (their URLs first),\nand history -> the real nightly build beside them (its URLs when it is published).',
  specs: demoSpecs,
  run: (c) => runDemo(c),
};

async function runDemo(c: DemoConfig): Promise<number> {
  const t0 = Date.now();
  const stop = (sig: string) => {
    interrupted = true;
    log(`${sig}: stopping the server and the simulator`);
    killAll();
    setTimeout(() => process.exit(130), 300);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  const fail = (why: string) => {
    if (!interrupted) log(why);
    killAll();
    return 1;
  };

  const dir = resolve(c.dir);
  const ref = resolve(c.ref);
  const p = (name: string) => join(dir, name);
  const secs = () => Math.round((Date.now() - t0) / 1000);
  log(
    `SIMULATED traffic, seed ${c.seed}. Started at once: ${daysOf(c.days)} of history (sim history, then the real nightly build on it) and the live feed with the real server`,
  );
  clearAside(dir, ['globe_history', 'log']);
  // the simulated days are independent (sim/history.ts historyDay): the newest `first` of them are
  // written and built first, the older ones after the history banner (docs/perf-log/demo-startup.md)
  const today = Math.floor(Date.now() / 86400000);
  const dayBack = (n: number) => new Date((today - n) * 86400000).toISOString().slice(0, 10);
  const first = c.firstDays > 0 && c.firstDays < c.days ? c.firstDays : c.days;
  // the same sky in each `sim history`: same seed, fleet and catalog
  const sim = ['--seed', String(c.seed), '--aircraft', String(c.aircraft), '--ref', ref, ...faultArgs(c)];
  const simulate = (days: number, from: string) =>
    start('sim/cli.ts', ['history', '--days', String(days), '--start', from, '--out', p('globe_history'), ...sim], {
      stdout: 'inherit',
      node: HISTORY_NODE_ARGS,
    });
  /** the simulation `history` to its end, then the real nightly over every day written so far: null once published, else why not */
  const historyBuild = async (history: ChildProcess, nightlyArgs: string[]): Promise<string | null> => {
    const simulated = await exitCode(history);
    if (simulated !== 0) return `the history simulation failed (exit ${simulated}); see its output above`;
    const nightly = start(
      'build/nightly.ts',
      ['--history', p('globe_history'), '--log', p('log'), '--artifacts', p('artifacts'), '--ref', ref, '--bundles', '', ...nightlyArgs],
      { stdout: 'ignore', onStderrLine: (line) => process.stderr.write(`${line}\n`) },
    );
    const code = await exitCode(nightly);
    return code === 0 ? null : `the nightly build failed (exit ${code}); see its output above`;
  };
  // the history in a process of its own (its days print as they are written), beside the live part
  const history = simulate(first, dayBack(first));

  // the feed's port is chosen before the world loads, so the server starts beside the load (its own
  // start-up took 11 s after the feed, docs/perf-log/demo-startup.md). the feed listens only once
  // loaded: until then a read is refused at once, where a socket already listening would queue the
  // server's timed-out reads, each then taking a catch-up snapshot nobody receives
  const feedPort = await freePort();
  log(`starting the server on port ${c.port}; it reads the live feed on 127.0.0.1:${feedPort} once the world is loaded`);
  log("(until it has caught up, the server's warnings about a refused feed and an old snapshot are expected)");
  const server = start(
    'server/main.ts',
    [
      '--feed',
      `http://127.0.0.1:${feedPort}/aircraft.json`,
      '--feed-interval',
      String(DEMO_FEED_INTERVAL_S),
      '--artifacts',
      p('artifacts'),
      '--stations',
      p('feeders.json'),
      '--state',
      p('state'),
      '--port',
      String(c.port),
      '--network-name',
      'Contrail demo (SIMULATED traffic)',
      // the demo runs without a network: the map's bundled basemap, never a tile server (docs/operating.md "Map tiles")
      '--map-tiles',
      'offline',
      // its log is on stdout: the listening line and what would need an operator, not the routine
      '--log-level',
      'warn',
    ],
    { stdout: 'inherit', env: MALLOC_ENV },
  );
  log('loading the simulated world for the live feed...');
  const sky = createSky({ ref, seed: c.seed, fleet: Math.ceil(c.aircraft * FLEET_PER_AIRBORNE), routeRows: 0, faults: faultsOf(c) });
  live = startLive(sky, { out: p('aircraft.json'), feeders: p('feeders.json'), http: feedPort, intervalMs: 1000, offsetMs: 0, catchUpS: DEMO_CATCH_UP_S });
  if ((await live.port.catch(() => null)) !== feedPort) return fail(`the live feed could not listen on 127.0.0.1:${feedPort} (taken meanwhile?): run it again`);
  log(
    `live feed on 127.0.0.1:${feedPort} (${sky.fleet.length} airframes, ${secs()} s); the server reads the last ${DEMO_CATCH_UP_S / 60} minutes of it first: ${live.catchUpSnapshots} snapshots, one every ${DEMO_FEED_INTERVAL_S} s`,
  );
  const base = `http://127.0.0.1:${c.port}`;
  const serverGone = () =>
    server.exitCode !== null || server.signalCode !== null
      ? `the server exited (${server.exitCode ?? server.signalCode}); port ${c.port} taken? try --port`
      : null;

  // history -> nightly, beside the live part; a first build of part of the days replays no accuracy:
  // the second build measures it, and the estimates say null (not yet measured) meanwhile
  const built = historyBuild(history, first < c.days ? ['--no-accuracy'] : []);
  let buildError: string | null | undefined;
  void built.then((e) => (buildError = e));

  // the live URLs: the server answers /v1/now once the feed has caught up to the present
  const liveUp = await until(async () => live!.caughtUp && (await httpGet(`${base}/v1/now`)).status === 200, {
    timeoutMs: LIVE_WAIT_MS,
    gone: () => serverGone() ?? (buildError ? buildError : null),
    say: () =>
      log(
        live!.caughtUp
          ? `live feed caught up; waiting for ${base}/v1/now to answer 200 (${secs()} s)`
          : `live feed: the server has read ${live!.catchUpShown}/${live!.catchUpSnapshots} catch-up snapshots (${secs()} s)`,
      ),
  });
  if (!liveUp) return fail(serverGone() ?? buildError ?? `${base}/v1/now did not answer 200 within ${LIVE_WAIT_MS / 1000} s`);
  const lv = liveUrls(sky, p('aircraft.json'));
  const liveOk = await answering(base, lv.urls);
  for (const l of liveOk.left) log(`(left out ${l.path}: it answered ${l.status})`);
  process.stdout.write(`${liveBanner({ base, secs: secs(), ok: liveOk.ok, days: c.days }).join('\n')}\n`);

  // the history URLs: once the build is published (its own progress meanwhile) and the server has
  // picked it up (it looks for a new build every few seconds)
  const published = await until(() => buildError !== undefined, { timeoutMs: Infinity, gone: serverGone, say: () => {} });
  if (!published || buildError) return fail(serverGone() ?? buildError ?? 'the nightly build did not finish');
  const firstBuild = await servedBuild(base, p('artifacts'), serverGone, secs);
  if (typeof firstBuild === 'string') return fail(firstBuild);
  const urls = await historyUrls(p('log'), ref, sky.world.byIdent, lv.place, async (path) => (await httpGet(`${base}${path}`)).status === 200);
  const hOk = await answering(base, urls);
  for (const l of hOk.left) log(`(left out ${l.path}: it answered ${l.status})`);
  const est = await httpGet(`${base}/v1/estimated`);
  const estimated = est.status === 200 ? (JSON.parse(est.body) as { aircraft: unknown[] }).aircraft.length : null;
  const partial = first < c.days ? { days: first, of: c.days } : undefined;
  process.stdout.write(`${historyBanner({ base, secs: secs(), ok: hOk.ok, ...firstBuild, estimated, partial }).join('\n')}\n`);

  if (partial) {
    // the older days and the accuracy, in the background: the real nightly over every day, which the
    // server switches to when it is published (the URLs above keep answering from the first meanwhile)
    log(`the older ${daysOf(c.days - first)}: simulating, then the nightly build over all ${daysOf(c.days)} (${secs()} s)`);
    const full = await historyBuild(simulate(c.days - first, dayBack(c.days)), []);
    const fullBuild = full ?? (await servedBuild(base, p('artifacts'), serverGone, secs));
    if (typeof fullBuild === 'string') {
      // the first build stays served: the demo stays up on it and says why the rest is missing
      if (!interrupted) log(`${fullBuild}; the server keeps serving build ${firstBuild.build}`);
    } else {
      const fOk = await answering(base, urls);
      for (const l of fOk.left) log(`(left out ${l.path}: it answered ${l.status})`);
      process.stdout.write(`${fullBanner({ base, secs: secs(), ok: fOk.ok, ...fullBuild, days: c.days }).join('\n')}\n`);
    }
  }
  await exitCode(server);
  killAll();
  return 0;
}

/** the build just published in `artifacts`, once the server answers from it; else why not */
async function servedBuild(
  base: string,
  artifacts: string,
  serverGone: () => string | null,
  secs: () => number,
): Promise<{ build: string; archiveThrough: string } | string> {
  // this run's build (a folder of an earlier run has the server serving that one's meanwhile)
  const current = currentHeader(artifacts);
  if (!current) return `the nightly build ended without publishing a build in ${artifacts}`;
  log(`nightly build ${current.id} is current (${secs()} s); waiting for the server to load it`);
  const loaded = await until(
    async () => {
      const r = await httpGet(`${base}/healthz`);
      return r.status === 200 && (JSON.parse(r.body) as { history_build: string | null }).history_build === current.id;
    },
    { timeoutMs: LOAD_WAIT_MS, gone: serverGone, say: () => log(`waiting for the server to load build ${current.id} (${secs()} s)`) },
  );
  if (!loaded) return serverGone() ?? `the server did not load build ${current.id} within ${LOAD_WAIT_MS / 1000} s`;
  return { build: current.id, archiveThrough: current.header.archive_through ?? 'none' };
}

runAsMain(import.meta.url, async () => {
  const code = await runCommand(demo, process.argv.slice(2));
  killAll();
  return interrupted ? 130 : code;
});
