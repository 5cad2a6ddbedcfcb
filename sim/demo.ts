// `make demo`: a few weeks of SIMULATED history through the real nightly pipeline, the simulated
// live feed and feeder list, and the real server; then a banner with URLs that answered 200.
// children run in their own process groups and are killed as groups on Ctrl-C or on failure.
//
// the server starts beside the nightly build, reading the live feed over loopback HTTP: the feed
// first catches up through the last 2 hours (sim/live.ts, one snapshot per read), so by the banner
// the server holds what it would after running for 2 hours: traces, and estimates for the
// aircraft that went quiet over oceans and coverage gaps.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runAsMain, runCommand, type Command, type Specs } from '../lib/cli.ts';
import { openLog } from '../build/log/read.ts';
import { parseAlliances } from '../lib/reference/alliances.ts';
import { readFileSync } from 'node:fs';
import { FLEET_PER_AIRBORNE, createSky } from './sky.ts';
import { writeHistory } from './history.ts';
import { startLive, type Live } from './live.ts';
import { installed } from '../lib/install.ts';

interface DemoConfig { dir: string; port: number; days: number; aircraft: number; seed: number; ref: string }
const specs: Specs<DemoConfig> = {
  dir: { flag: 'dir', env: 'CONTRAIL_DEMO_DIR', kind: 'string', default: installed('var/demo'), help: 'working folder (history, log, artifacts, feed, state); its history and log are rewritten' },
  port: { flag: 'port', env: 'CONTRAIL_DEMO_PORT', kind: 'int', default: 8080, help: 'port of the server', check: (v) => (v > 0 && v < 65536 ? undefined : 'must be 1..65535') },
  days: { flag: 'days', env: 'CONTRAIL_DEMO_DAYS', kind: 'int', default: 14, help: 'days of simulated history, ending yesterday (UTC)', check: (v) => (v >= 1 && v <= 60 ? undefined : 'must be 1..60') },
  aircraft: { flag: 'aircraft', env: 'CONTRAIL_DEMO_AIRCRAFT', kind: 'int', default: 120, help: 'about this many aircraft airborne at a busy hour', check: (v) => (v >= 10 ? undefined : 'must be at least 10') },
  seed: { flag: 'seed', env: 'CONTRAIL_SIM_SEED', kind: 'int', default: 1, help: 'simulator seed' },
  ref: { flag: 'ref', env: 'CONTRAIL_REF', kind: 'string', default: installed('data/ref'), help: 'reference data snapshot' },
};

/** simulated seconds of live feed the server reads before the present: the estimator's 2-hour cap, so
 * every aircraft it would list had it been running is listed (25-45 reads, one a second, during the nightly build) */
export const DEMO_CATCH_UP_S = 7200;

const children = new Set<ChildProcess>();
let live: Live | null = null;
const log = (s: string) => process.stderr.write(`demo: ${s}\n`);

/** runs `npm run --silent <script> -- args` in its own process group */
function npm(script: string, args: string[], quiet = false): ChildProcess {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], { detached: true, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
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
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

async function get(url: string): Promise<{ status: number; body: string }> {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return { status: r.status, body: await r.text() };
  } catch {
    return { status: 0, body: '' };
  }
}

const demo: Command<DemoConfig> = {
  name: 'demo',
  usage: 'usage: npx tsx sim/demo.ts [options]   (make demo)\n\nRuns Contrail on SIMULATED traffic: history -> nightly build -> live feed + server.',
  specs,
  run: (c) => runDemo(c),
};

async function runDemo(c: DemoConfig): Promise<number> {
  const t0 = Date.now();
  const stop = (sig: string) => {
    log(`${sig}: stopping the server and the simulator`);
    killAll();
    setTimeout(() => process.exit(130), 300);
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));

  const p = (name: string) => join(c.dir, name);
  const secs = () => `${((Date.now() - t0) / 1000).toFixed(0)} s`;
  log(`simulating ${c.days} days of history (SIMULATED traffic, seed ${c.seed})...`);
  const sky = createSky({ ref: c.ref, seed: c.seed, fleet: Math.ceil(c.aircraft * FLEET_PER_AIRBORNE), routeRows: 0 });
  rmSync(p('globe_history'), { recursive: true, force: true });
  rmSync(p('log'), { recursive: true, force: true });
  const first = new Date((Math.floor(Date.now() / 86400000) - c.days) * 86400000).toISOString().slice(0, 10);
  const h = writeHistory(sky, p('globe_history'), first, c.days);
  log(`history: ${h.files} trace files, ${h.truth.length} flights (${secs()})`);

  // the live feed and the server start beside the nightly build: the feed's catch-up runs meanwhile
  live = startLive(sky, { out: p('aircraft.json'), feeders: p('feeders.json'), http: 'any', intervalMs: 1000, offsetMs: 0, catchUpS: DEMO_CATCH_UP_S });
  const feedPort = await live.port;
  const server = npm('serve', [
    '--feed', `http://127.0.0.1:${feedPort}/aircraft.json`, '--artifacts', p('artifacts'), '--stations', p('feeders.json'), '--state', p('state'),
    '--port', String(c.port), '--network-name', 'Contrail demo (SIMULATED traffic)',
    // its log is on stdout: the listening line and what would need an operator, not the routine
    '--log-level', 'warn',
  ]);
  log(`running the real nightly pipeline on it, while the server reads the last ${DEMO_CATCH_UP_S / 60} minutes of the live feed...`);
  const nightly = await exitCode(npm('nightly', ['--history', p('globe_history'), '--log', p('log'), '--artifacts', p('artifacts'), '--bundles', ''], true));
  if (nightly !== 0) {
    log(`the nightly build failed (exit ${nightly}); see its output above`);
    killAll();
    return 1;
  }
  log(`nightly build published (${secs()})`);

  const base = `http://127.0.0.1:${c.port}`;
  let up = false;
  // the server answers /v1/now once the feed has caught up to the present (until then its snapshots
  // are old), and names the archive once it has picked up the build just published (it looks for a
  // new one every few seconds): only then do the history URLs answer
  const ready = async () => {
    const r = await get(`${base}/v1/now`);
    return r.status === 200 && (JSON.parse(r.body) as { archive_through: string | null }).archive_through !== null;
  };
  for (let i = 0; i < 240 && !up && server.exitCode === null; i++) {
    up = live.caughtUp && (await ready());
    if (!up) await new Promise((r) => setTimeout(r, 500));
  }
  if (!up) {
    log(`the server did not answer ${base}/v1/now within 120 s (port ${c.port} taken? try --port)`);
    killAll();
    return 1;
  }
  const urls = await pickUrls(c, p('log'), p('aircraft.json'), sky.world.byIdent, base);
  const ok: string[] = [];
  for (const u of urls) {
    const r = await get(base + u);
    if (r.status === 200) ok.push(u);
    else log(`(left out ${u}: it answered ${r.status})`);
  }
  const est = await get(`${base}/v1/estimated`);
  const estimated = est.status === 200 ? (JSON.parse(est.body) as { aircraft: unknown[] }).aircraft.length : 0;
  log(`live feed caught up: ${estimated} aircraft estimated after going quiet over oceans and coverage gaps (${secs()})`);
  const banner = [
    '',
    '='.repeat(78),
    ` Contrail demo: ready in ${secs()} at ${base}`,
    ' ALL DATA HERE IS SIMULATED (sim/): generated flights on real airports, routes and',
    ' airframes; not observations of real aircraft.',
    '='.repeat(78),
    ...ok.map((u) => `  ${base}${u}`),
    '',
    ' Ctrl-C stops the server and the simulator.',
    '',
  ];
  process.stdout.write(`${banner.join('\n')}\n`);
  await exitCode(server);
  killAll();
  return 0;
}

/** one URL per kind of resource, from what the build and the feed actually hold */
async function pickUrls(c: DemoConfig, logDir: string, feed: string, byIdent: Map<string, { iata: string | null; lat: number; lon: number }>, _base: string): Promise<string[]> {
  const l = await openLog(logDir, { threads: 1 });
  let hex = '';
  let callsign = '';
  let airport = { iata: '', lat: 50, lon: 8.5 };
  try {
    const [af] = await l.rows('SELECT hex, count(*) AS n FROM legs WHERE org IS NOT NULL AND dst IS NOT NULL GROUP BY hex ORDER BY n DESC, hex LIMIT 1');
    hex = String(af?.hex ?? '');
    const [cs] = await l.rows('SELECT callsign, count(*) AS n FROM legs WHERE callsign IS NOT NULL AND org IS NOT NULL AND dst IS NOT NULL AND org <> dst GROUP BY callsign ORDER BY n DESC, callsign LIMIT 1');
    callsign = String(cs?.callsign ?? '');
    const busiest = await l.rows('SELECT org, count(*) AS n FROM legs WHERE org IS NOT NULL AND org <> dst GROUP BY org ORDER BY n DESC, org LIMIT 20');
    for (const b of busiest) {
      const a = byIdent.get(String(b.org));
      if (a?.iata) {
        airport = { iata: a.iata, lat: a.lat, lon: a.lon };
        break;
      }
    }
  } finally {
    l.close();
  }
  const doc = JSON.parse(readFileSync(feed, 'utf8')) as { aircraft: { hex: string; alt_baro?: unknown; lat?: number }[] };
  const aloft = doc.aircraft.find((a) => typeof a.alt_baro === 'number' && a.lat !== undefined);
  const alliance = parseAlliances(readFileSync(join(c.ref, 'alliances.json'))).alliances[0]?.slug ?? 'star-alliance';
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const bbox = [r1(airport.lon - 3), r1(airport.lat - 2), r1(airport.lon + 3), r1(airport.lat + 2)].join(',');
  return [
    '/v1/now',
    `/v1/aircraft?bbox=${bbox}`,
    `/v2/point/${r1(airport.lat)}/${r1(airport.lon)}/100`,
    ...(aloft ? [`/v1/trace/${aloft.hex}`] : []),
    '/v1/estimated',
    ...(hex ? [`/v1/airframes/${hex}`] : []),
    ...(airport.iata ? [`/v1/airports/${airport.iata}`] : []),
    ...(callsign ? [`/v1/route/${callsign}`] : []),
    `/v1/alliances/${alliance}`,
    '/v1/stations',
    '/docs',
    // the first-party map (tier map)
    `/#7/${r1(airport.lat)}/${r1(airport.lon)}`,
  ];
}

runAsMain(import.meta.url, async () => {
  const code = await runCommand(demo, process.argv.slice(2));
  killAll();
  return code;
});
