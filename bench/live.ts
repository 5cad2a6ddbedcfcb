// live API benchmark, run by hand: the REAL server over loopback, driven by wrk (apt-get install wrk),
// optionally side by side with readsb's own API on the same traffic. `--help` for the options.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { mulberry32 } from '../lib/random.ts';
import { ENCODINGS, selectCases, type Case } from '../test/helpers/live-bench/cases.ts';
import { killAll, servedSnapshotAt, settle, startContrail, startReadsb, type Proc } from './live/servers.ts';
import { median, table, type Run, type Server } from '../test/helpers/live-bench/table.ts';
import { parseWrk, pointsScript, samplePoints, wrkArgs, type PointStyle, type WrkResult } from '../test/helpers/live-bench/wrk.ts';
import { flag } from './flags.ts';

const HELP = `Usage: npx tsx bench/live.ts [options]

The live server over loopback under wrk (-t2 -c64 by default), every case measured --rounds times
and summarised as medians: req/s (min-max over the rounds), p50 / p99 latency, mean answer size, and
each server's CPU time per answer (its whole process group, every thread, from /proc).
Point cases ask each request about a different point drawn from the snapshot's own aircraft.

Contrail alone (default): the server reads a copy of --snapshot that this bench rewrites with a
fresh "now" every --refresh-s seconds (by rename, as readsb does), so ingest runs during the runs.

Side by side (--readsb PATH --beast-feed PATH): readsb, built by hand from its public source,
decodes Beast frames from the traffic generator and writes aircraft.json every second; Contrail's
server reads that very file as its feed. wrk alternates between readsb's API (/re-api/?circle=,
?box=, ?all) and Contrail on the same traffic; the table adds readsb's figures and the ratio.

Against itself (--peer-entry FILE): a second Contrail server, e.g. main's code from another
checkout, reads the same feed and takes readsb's place in the table, in the same run; the ratio
is this checkout's over the peer's. A case readsb has no counterpart for (now) is run on
Contrail alone beside readsb.

Options:
  --duration S        seconds per wrk run (default 8)
  --rounds N          measured rounds; each case is the median of them (default 3)
  --warmup S          seconds of one unmeasured run per case and server before the rounds; 0: none (default 1)
  --threads N         wrk threads (default 2)
  --connections N     wrk connections (default 64)
  --queries LIST      of point25, point250, bbox, all, now (default: point25, point250, bbox, all)
  --encodings LIST    of plain (no Accept-Encoding), browser ("${ENCODINGS.browser}") (default: both)
  --points N          varied points drawn from the snapshot's aircraft, each jittered by <= 0.005 deg (default 100000)
  --seed N            seed of the point draw (default 7)
  --entry FILE        the server's entry point, run as node --import tsx FILE (default server/main.ts)
  --server-args "A B" extra flags for the server (e.g. a thread count)
  --peer-entry FILE   measure a second Contrail server (this entry point) side by side instead of readsb
  --peer-args "A B"   extra flags for the peer (default: --server-args)
  --node-args "A B"   extra flags for the server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof")
  --snapshot FILE     Contrail alone: another aircraft.json, gzip or plain (default bench/data/readsb_aircraft_12k.json.gz)
  --refresh-s S       Contrail alone: seconds between feed rewrites (default 1)
  --readsb PATH       a readsb binary: measure it side by side (needs --beast-feed)
  --beast-feed PATH   the Beast traffic generator (a node script: --write-db FILE; --port P --duration S --period S)
  --readsb-args "A B" extra flags for readsb
  --min-aircraft N    positioned aircraft readsb must hold before the runs start (default 11500)
  --readsb-attempts N starts of readsb in all when it aborts while the traffic arrives (default 5)
  --help              this text

The bench itself only waits while wrk runs (its own CPU time is printed at the end).`;

if (process.argv.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}

/** a bad flag: its message and the usage line, no stack */
const usage = (message: string): never => {
  console.error(`${message}\n(npx tsx bench/live.ts --help)`);
  process.exit(2);
};
const positive = (name: string, dflt: number, allowZero = false): number => {
  const raw = flag(name, String(dflt)).replace(/s$/, '');
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) usage(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, not "${raw}"`);
  return n;
};
const words = (name: string) => flag(name, '').split(/\s+/).filter(Boolean);

const DURATION = positive('duration', 8);
const ROUNDS = Math.round(positive('rounds', 3));
const WARMUP = positive('warmup', 1, true);
const THREADS = Math.round(positive('threads', 2));
const CONNECTIONS = Math.round(positive('connections', 64));
const CASES = (() => {
  try {
    return selectCases(flag('queries', 'point25,point250,bbox,all'), flag('encodings', 'plain,browser'));
  } catch (e) {
    return usage((e as Error).message);
  }
})();
const POINTS = Math.round(positive('points', 100_000));
const SEED = Math.round(positive('seed', 7, true));
const ENTRY = flag('entry', 'server/main.ts');
const SNAPSHOT = flag('snapshot', '');
const REFRESH_S = positive('refresh-s', 1);
const READSB = flag('readsb', '');
const PEER_ENTRY = flag('peer-entry', '');
if (READSB && PEER_ENTRY) usage('--readsb and --peer-entry both name the peer: give one');
const BEAST_FEED = flag('beast-feed', '');
const MIN_AIRCRAFT = Math.round(positive('min-aircraft', 11_500));
const ATTEMPTS = Math.round(positive('readsb-attempts', 5));
if (READSB && !BEAST_FEED) usage('--readsb needs --beast-feed PATH (the traffic generator that feeds it Beast frames)');
for (const [name, path] of [
  ['readsb', READSB],
  ['beast-feed', BEAST_FEED],
  ['entry', ENTRY],
  ['snapshot', SNAPSHOT],
  ['peer-entry', PEER_ENTRY],
] as const) {
  if (path && !existsSync(path)) usage(`--${name}: no such file: ${path}`);
}

// the peer, readsb or another Contrail, runs in readsb's slot of the table
const servers: Server[] = READSB || PEER_ENTRY ? ['readsb', 'contrail'] : ['contrail'];
const PEER_NAME = PEER_ENTRY ? `peer (${PEER_ENTRY})` : 'readsb';
/** readsb has no counterpart for some cases: Contrail alone runs them */
const measured = (s: Server, c: Case) => s === 'contrail' || PEER_ENTRY !== '' || c.query.readsbPath !== undefined || c.query.radiusNm !== undefined;
const runSeconds = CASES.length * servers.length * (WARMUP + ROUNDS * (DURATION + 1.5)); // ~1.5 s to settle after each run
const started = Date.now();
const cpu0 = process.cpuUsage();
const dir = mkdtempSync(join(tmpdir(), 'contrail-live-bench-'));
const procs: Proc[] = [];
let stopFeed = async () => {};
const cleanup = async () => {
  await stopFeed();
  // a server that ended on its own during the runs says why before its folder goes
  for (const p of procs) {
    const log = join(dir, `${p.name.toLowerCase()}.log`);
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      console.error(
        `${p.name} ENDED during the bench (${p.child.exitCode ?? p.child.signalCode}); its log ends:\n${existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(no log)'}`,
      );
  }
  for (const p of procs.reverse()) await p.stop();
  rmSync(dir, { recursive: true, force: true });
};
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const)
  process.once(signal, () => void cleanup().then(() => process.exit(code)));
// the servers run in their own process groups: whatever ends this process ends them too
process.once('exit', () => {
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** Contrail alone: the snapshot rewritten with a fresh `now` by rename; serialised once, not per write */
function snapshotFeed(): { feed: string; aircraft: { lat?: unknown; lon?: unknown }[] } {
  const input = readFileSync(SNAPSHOT || new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url));
  const raw = JSON.parse((input[0] === 0x1f && input[1] === 0x8b ? gunzipSync(input) : input).toString('utf8'));
  const tail = Buffer.from(JSON.stringify({ ...raw, now: undefined }).slice(1));
  const feed = join(dir, 'aircraft.json');
  const write = () => Buffer.concat([Buffer.from(`{"now":${(Date.now() / 1000).toFixed(3)},`), tail]);
  writeFileSync(feed, write());
  let writing: Promise<void> | undefined; // a tick is skipped while the last write is still going
  const refresher = setInterval(() => {
    writing ??= writeFile(`${feed}.tmp`, write())
      .then(() => rename(`${feed}.tmp`, feed))
      .catch((e: Error) => console.error(`feed rewrite failed: ${e.message}`))
      .finally(() => (writing = undefined));
  }, REFRESH_S * 1000);
  stopFeed = async () => {
    clearInterval(refresher);
    await writing;
  };
  return { feed, aircraft: raw.aircraft ?? [] };
}

const execWrk = promisify(execFile);
async function wrk(url: string, c: Case, style: PointStyle, duration = DURATION): Promise<WrkResult> {
  let script = '';
  if (c.query.radiusNm) {
    script = join(dir, `points-${style}-${c.query.radiusNm}.lua`);
    if (!existsSync(script)) writeFileSync(script, pointsScript(join(dir, 'points.txt'), style, c.query.radiusNm, THREADS));
  }
  const load = { threads: THREADS, connections: CONNECTIONS, acceptEncoding: ENCODINGS[c.encoding], script };
  try {
    const { stdout } = await execWrk('wrk', wrkArgs(url, { ...load, duration }), { timeout: (duration + 60) * 1000 });
    return parseWrk(stdout);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('wrk is not installed: apt-get install wrk');
    throw e;
  }
}

try {
  let feedNote: string;
  let feed: string;
  let aircraft: { lat?: unknown; lon?: unknown }[];
  let readsbBase = '';
  let feeding = () => true;
  if (READSB) {
    console.error(`starting readsb and the Beast feed; waiting for ${MIN_AIRCRAFT} positioned aircraft ...`);
    const r = await startReadsb({
      binary: READSB,
      beastFeed: resolve(BEAST_FEED),
      dir,
      minAircraft: MIN_AIRCRAFT,
      feedSeconds: Math.ceil(runSeconds) + 900,
      extraArgs: words('readsb-args'),
      attempts: ATTEMPTS,
    });
    procs.push(...r.procs);
    readsbBase = r.base;
    feeding = r.feeding;
    aircraft = JSON.parse(readFileSync(r.aircraftJson, 'utf8')).aircraft;
    feedNote = `readsb decoding Beast frames from ${BEAST_FEED}, writing aircraft.json every second; Contrail reads that file`;
    feed = r.aircraftJson;
  } else {
    ({ feed, aircraft } = snapshotFeed());
    feedNote = `${SNAPSHOT || 'bench/data/readsb_aircraft_12k.json.gz'} rewritten with a fresh "now" every ${REFRESH_S} s`;
  }
  writeFileSync(join(dir, 'points.txt'), samplePoints(aircraft, POINTS, mulberry32(SEED)).join('\n') + '\n');
  console.error('starting Contrail ...');
  const contrail = await startContrail({ entry: ENTRY, feed, extraArgs: words('server-args'), nodeArgs: words('node-args'), dir });
  procs.push(contrail);
  if (PEER_ENTRY) {
    console.error(`starting the peer (${PEER_ENTRY}) ...`);
    const peerArgs = flag('peer-args', '') ? words('peer-args') : words('server-args');
    const peer = await startContrail({ entry: PEER_ENTRY, feed, extraArgs: peerArgs, nodeArgs: words('node-args'), dir, name: 'peer' });
    procs.push(peer);
    readsbBase = peer.base;
  }
  const base: Record<Server, string> = { contrail: contrail.base, readsb: readsbBase };
  // a Contrail peer is asked what Contrail is asked
  const asks = (s: Server): 'contrail' | 'readsb' => (s === 'readsb' && !PEER_ENTRY ? 'readsb' : 'contrail');
  const url = (s: Server, c: Case) => base[s] + (c.query.radiusNm ? '/' : asks(s) === 'readsb' ? c.query.readsbPath : c.query.contrailPath);

  const positionedCount = aircraft.filter((a) => typeof a.lat === 'number').length;
  console.error(
    `about ${Math.ceil(runSeconds / 60)} min of wrk: ${CASES.length} cases x ${servers.join(' + ')} x (${WARMUP} s warm-up + ${ROUNDS} x ${DURATION} s)`,
  );
  const loads: number[] = [];
  if (WARMUP > 0) {
    for (const c of CASES) for (const s of servers) if (measured(s, c)) await wrk(url(s, c), c, asks(s), WARMUP);
  }
  const runs: Run[] = [];
  const [cpuRuns, wallRuns, snapAt] = [process.cpuUsage(), Date.now(), await servedSnapshotAt(contrail.base)];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const c of CASES) {
      // alternate who goes first, so neither side always runs right after the other's load
      for (const s of round % 2 ? servers : [...servers].reverse()) {
        if (!measured(s, c)) continue;
        const proc = s === 'contrail' ? contrail : procs.find((p) => p.name === 'readsb' || p.name === 'peer');
        const cpuBefore = proc?.cpuS();
        const result = await wrk(url(s, c), c, asks(s));
        runs.push({ caseId: c.id, server: s, round, result, ...(proc && cpuBefore !== undefined && { cpuS: proc.cpuS() - cpuBefore }) });
        loads.push(loadavg()[0]!);
        const waited = await settle(procs.filter((p) => p.name === 'Contrail' || p.name === 'readsb' || p.name === 'peer'));
        console.error(
          `round ${round} ${c.id} ${s}: ${Math.round(result.rps)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${result.non2xx + result.errors} bad, load ${loadavg()[0]!.toFixed(2)}; quiet again after ${waited.toFixed(1)} s`,
        );
      }
    }
  }
  const rss = procs.filter((p) => p.name === 'Contrail' || p.name === 'readsb' || p.name === 'peer').map((p) => `${p.name} ${p.rssMb().toFixed(0)} MB`);
  const cpu = process.cpuUsage(cpu0);
  const cpuDuring = process.cpuUsage(cpuRuns);
  const wallS = (Date.now() - wallRuns) / 1000;
  const snapMoved = (await servedSnapshotAt(contrail.base)) - snapAt;
  console.log(`${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}`);
  console.log(`npx tsx bench/live.ts ${process.argv.slice(2).join(' ')}`);
  console.log(
    `wrk -t${THREADS} -c${CONNECTIONS} -d${DURATION}s, median of ${ROUNDS} rounds (req/s: min-max); feed: ${feedNote}; ${positionedCount} positioned aircraft; ${POINTS} varied points (seed ${SEED})`,
  );
  console.log(
    `1-min load average after each run: median ${median(loads).toFixed(2)} (${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)}); RSS at the end: ${rss.join(', ')}`,
  );
  console.log(`the snapshot Contrail serves moved on ${snapMoved.toFixed(0)} s over the ${wallS.toFixed(0)} s of measured runs`);
  console.log(
    `this bench's own CPU: ${((cpuDuring.user + cpuDuring.system) / 1e6).toFixed(1)} s during the runs, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s in all over ${((Date.now() - started) / 1000).toFixed(0)} s wall\n`,
  );
  for (const line of table(CASES, runs, PEER_NAME)) console.log(line);
  if (!feeding()) {
    console.log(
      `\nREADSB OR ITS BEAST FEED STOPPED during the runs; do not use these figures. readsb's log ends:\n${readFileSync(join(dir, 'readsb.log'), 'utf8').slice(-1500)}`,
    );
  }
} finally {
  await cleanup();
}
