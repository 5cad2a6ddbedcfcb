// the live bench's adapters: the two servers under test as processes. Contrail's real server on a
// feed file; readsb (a binary built by hand, never part of this project) decoding Beast frames from
// a traffic generator given by path, writing the aircraft.json Contrail reads. every process runs in
// its own process group so that stopping it ends what it started, and only that.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** status and body of one GET, or status 0 when nothing answers */
function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.end();
  });
}

/** the unix seconds of the snapshot Contrail serves (/v1/now generated_at), NaN when unreadable */
export async function servedSnapshotAt(base: string): Promise<number> {
  try {
    const at = (JSON.parse((await httpGet(`${base}/v1/now`)).body) as { generated_at?: unknown }).generated_at;
    return typeof at === 'number' ? at : typeof at === 'string' ? Date.parse(at) / 1000 : NaN;
  } catch {
    return NaN;
  }
}

export interface Proc {
  name: string;
  child: ChildProcess;
  /** the resident memory of its whole process group, MB (Linux /proc) */
  rssMb(): number;
  /** CPU seconds (user + system) its whole process group has used so far, every thread counted (Linux /proc) */
  cpuS(): number;
  stop(): Promise<void>;
}

const running = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
const started: ChildProcess[] = [];

/** SIGTERM at once to the group of every process started here that still runs: for process 'exit' */
export function killAll(): void {
  for (const child of started) {
    try {
      if (running(child) && child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

/** one process in a new group, its output into `log` */
function start(name: string, cmd: string, args: string[], log: string, cwd?: string): Proc {
  const out = openSync(log, 'w');
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', out, out], detached: true });
  closeSync(out); // the child holds its own copy
  started.push(child);
  return {
    name,
    child,
    rssMb: () => groupRssKb(child.pid!) / 1024,
    cpuS: () => groupStats(child.pid!).reduce((t, { fields }) => t + Number(fields[11]) + Number(fields[12]), 0) / CLOCK_TICKS,
    async stop() {
      if (!running(child) || !child.pid) return;
      const gone = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return; // already gone
      }
      if (await Promise.race([gone.then(() => true), sleep(5000, false)])) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone in between
      }
    },
  };
}

/** each process of group `pgid`: its /proc/PID/stat fields after the command name */
function groupStats(pgid: number): { pid: string; fields: string[] }[] {
  const out: { pid: string; fields: string[] }[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // [0] state, [2] pgrp, [11] utime, [12] stime
      if (Number(fields[2]) === pgid) out.push({ pid, fields });
    } catch {
      // ended while reading
    }
  }
  return out;
}

/** /proc's clock ticks per second (USER_HZ: 100 on every Linux this runs on) */
const CLOCK_TICKS = 100;

/** VmRSS summed over the processes of group `pgid` */
function groupRssKb(pgid: number): number {
  let kb = 0;
  for (const { pid } of groupStats(pgid)) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended while reading
    }
  }
  return kb;
}

/** CPU seconds (user + system) used so far by the processes of group `pgid` (100 ticks a second) */
function groupCpuS(pgid: number): number {
  return groupStats(pgid).reduce((s, { fields }) => s + Number(fields[11]) + Number(fields[12]), 0) / 100;
}

/**
 * wait until every process in `procs` is quiet (under `share` of one core over half a second), at
 * most `maxS` seconds: a run should not start while a server still sends the last run's big answers.
 * resolves to the seconds waited.
 */
export async function settle(procs: readonly Proc[], share = 0.3, maxS = 15): Promise<number> {
  const pgids = procs.map((p) => p.child.pid!).filter(Boolean);
  const t0 = Date.now();
  while (Date.now() - t0 < maxS * 1000) {
    const before = pgids.map(groupCpuS);
    await sleep(500);
    if (pgids.every((g, i) => groupCpuS(g) - before[i]! < share * 0.5)) break;
  }
  return (Date.now() - t0) / 1000;
}

/** poll `ready` every `everyMs` until it holds; throws `what` (with the log's tail) on timeout or exit */
async function waitFor(p: Proc, log: string, what: string, timeoutS: number, ready: () => Promise<boolean> | boolean, everyMs = 500): Promise<void> {
  const tail = () => readFileSync(log, 'utf8').split('\n').slice(-15).join('\n');
  for (const end = Date.now() + timeoutS * 1000; Date.now() < end; await sleep(everyMs)) {
    if (!running(p.child)) throw new Error(`${p.name} exited (${p.child.exitCode ?? p.child.signalCode}) before ${what}; its log ends:\n${tail()}`);
    if (await ready()) return;
  }
  throw new Error(`${p.name}: no ${what} within ${timeoutS} s; its log ends:\n${tail()}`);
}

/** Contrail's real server on `feed`, rate limits off; resolves once it serves a live snapshot */
/** `name`: the process's name in the bench's lines ('Contrail'; 'peer' for a second one) */
export async function startContrail(o: {
  entry: string;
  feed: string;
  extraArgs: string[];
  nodeArgs?: string[];
  dir: string;
  name?: string;
  timeoutS?: number;
}): Promise<Proc & { base: string }> {
  const port = await freePort();
  const name = o.name ?? 'Contrail';
  const log = join(o.dir, `${name.toLowerCase()}.log`);
  const args = [
    ...(o.nodeArgs ?? []),
    '--import',
    'tsx',
    o.entry,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--feed',
    o.feed,
    '--no-rate-limits',
    ...o.extraArgs,
  ];
  const p = start(name, process.execPath, args, log);
  const base = `http://127.0.0.1:${port}`;
  // a loaded machine takes minutes to parse the first 12k snapshot beside another server
  await waitFor(p, log, 'live snapshot (/v1/now 200)', o.timeoutS ?? 240, async () => (await httpGet(`${base}/v1/now`)).status === 200);
  return { ...p, base };
}

/** positioned aircraft in a readsb aircraft.json, 0 while it is missing or half-written */
function positioned(file: string): number {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { aircraft?: { lat?: unknown }[] };
    return (doc.aircraft ?? []).filter((a) => typeof a.lat === 'number').length;
  } catch {
    return 0;
  }
}

export interface Readsb {
  base: string;
  /** the aircraft.json readsb rewrites every second */
  aircraftJson: string;
  procs: Proc[];
  /** whether readsb and its traffic generator still run (its aircraft would age out without it) */
  feeding(): boolean;
}

/**
 * readsb (--net-only, Beast in, its API on --net-api-port, aircraft.json every second) fed by the
 * traffic generator at `beastFeed` (run with node: `--write-db`, then `--port P --duration S`);
 * resolves once readsb holds `minAircraft` positioned aircraft.
 *
 * readsb 3.14 often aborts in the first seconds while 12k aircraft arrive at once (glibc: "corrupted
 * size vs. prev_size", "free(): invalid pointer"; gdb: apiGenerateAircraftJson reads the API
 * buffer's jsonLen once to size its copy and again to copy, while the API thread swaps in a larger
 * one). then readsb and its feed start again, up to --attempts times in all.
 */
export async function startReadsb(o: {
  binary: string;
  beastFeed: string;
  dir: string;
  minAircraft: number;
  feedSeconds: number;
  extraArgs: string[];
  attempts: number;
}): Promise<Readsb> {
  const db = join(o.dir, 'db.csv.gz');
  const dbLog = join(o.dir, 'beast-db.log');
  const dbProc = start('beast feed --write-db', process.execPath, [o.beastFeed, '--write-db', db], dbLog);
  const code = await new Promise<number | null>((r) => dbProc.child.once('exit', r));
  if (code !== 0) throw new Error(`${o.beastFeed} --write-db exited with ${code}: ${readFileSync(dbLog, 'utf8').slice(-500)}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await readsbOnce(o, db);
    } catch (e) {
      // (its feed, cut off, may be seen to exit first)
      const aborted = /readsb exited \(SIGABRT\)|the beast feed exited/.test(String(e));
      if (!aborted || attempt >= o.attempts) throw e;
      console.error(
        `readsb aborted while the traffic arrived (attempt ${attempt} of ${o.attempts}; a race in readsb, see bench/live/servers.ts); starting it again`,
      );
    }
  }
}

async function readsbOnce(
  o: { binary: string; beastFeed: string; dir: string; minAircraft: number; feedSeconds: number; extraArgs: string[] },
  db: string,
): Promise<Readsb> {
  const [beastPort, apiPort] = [await freePort(), await freePort()];
  const json = join(o.dir, 'json');
  rmSync(json, { recursive: true, force: true });
  mkdirSync(json, { recursive: true });
  const rlog = join(o.dir, 'readsb.log');
  const readsb = start(
    'readsb',
    o.binary,
    [
      '--net-only',
      '--net-bind-address',
      '127.0.0.1',
      '--net-bi-port',
      String(beastPort),
      '--net-api-port',
      String(apiPort),
      '--write-json',
      json,
      '--write-json-every',
      '1',
      '--db-file',
      db,
      '--quiet',
      ...o.extraArgs,
    ],
    rlog,
  );
  const procs: Proc[] = [readsb];
  try {
    // fed once its database is loaded, as the side-by-side tool waits before feeding it
    await waitFor(readsb, rlog, 'database loaded', 30, () => readFileSync(rlog, 'utf8').includes('Database update done'));
    await sleep(1000);
    const flog = join(o.dir, 'beast-feed.log');
    const feed = start('beast feed', process.execPath, [o.beastFeed, '--port', String(beastPort), '--duration', String(o.feedSeconds), '--period', '10'], flog);
    procs.push(feed);
    const aircraftJson = join(json, 'aircraft.json');
    await waitFor(
      readsb,
      rlog,
      `${o.minAircraft} positioned aircraft in ${aircraftJson}`,
      180,
      () => {
        if (!running(feed.child) && running(readsb.child))
          throw new Error(`the beast feed exited (${feed.child.exitCode ?? feed.child.signalCode}): ${readFileSync(flog, 'utf8').slice(-500)}`);
        return positioned(aircraftJson) >= o.minAircraft;
      },
      1000,
    );
    return { base: `http://127.0.0.1:${apiPort}`, aircraftJson, procs, feeding: () => running(readsb.child) && running(feed.child) };
  } catch (e) {
    for (const p of procs) await p.stop();
    throw e;
  }
}
