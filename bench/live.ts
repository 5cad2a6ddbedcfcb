// live benchmark, run by hand: the REAL server over loopback, driven by wrk (apt-get install wrk).
//   npx tsx bench/live.ts [--duration 10s] [--refresh-s 1] [--entry other-main.ts] [--snapshot aircraft.json]
// serves the real 12k readsb snapshot, re-written with a fresh `now` every --refresh-s seconds
// (by rename, as readsb does once a second), so ingest runs during the measurement as in production.
// prints a markdown table: req/s, p50, p99 and body size per case, beside readsb's own figures.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { flag, numberFlag } from './flags.ts';

const DURATION = flag('duration', '10s');
const REFRESH_S = numberFlag('refresh-s', 1);
// another entry point taking the same flags (default: the real server, `npm run serve`)
const ENTRY = flag('entry', '');
// another aircraft.json (gzip or plain), e.g. the simulator's: npx tsx sim/cli.ts snapshot --aircraft 15000 --out f
const SNAPSHOT = flag('snapshot', '');

interface Case {
  name: string;
  path: string;
  gzip?: boolean;
  /** readsb's C API on the same machine and snapshot (shared/data/README.md), req/s */
  readsb?: number;
  target?: number;
}

const CASES: Case[] = [
  { name: 'point 25 nm', path: '/v2/point/50.0/8.5/25', readsb: 26000, target: 39000 },
  { name: 'point 250 nm', path: '/v2/point/50.0/8.5/250', readsb: 1500, target: 3000 },
  { name: 'bbox central Europe', path: '/v1/aircraft?bbox=5,45,15,55', readsb: 4350 },
  { name: 'whole network', path: '/v1/aircraft', readsb: 359 },
  { name: 'whole network, gzip', path: '/v1/aircraft', gzip: true, readsb: 359, target: 3590 },
];

const input = readFileSync(SNAPSHOT || new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url));
const raw = JSON.parse((input[0] === 0x1f && input[1] === 0x8b ? gunzipSync(input) : input).toString('utf8'));
const dir = mkdtempSync(join(tmpdir(), 'contrail-bench-'));
const feed = join(dir, 'aircraft.json');
const writeFeed = () => {
  raw.now = Date.now() / 1000;
  writeFileSync(`${feed}.tmp`, JSON.stringify(raw));
  renameSync(`${feed}.tmp`, feed);
};

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function get(url: string, gzip: boolean): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: gzip ? { 'accept-encoding': 'gzip' } : {} }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitLive(base: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await get(`${base}/v1/now`, false)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not serve a live snapshot within 30 s');
}

function wrk(url: string, gzip: boolean) {
  const args = ['-t2', '-c64', `-d${DURATION}`, '--latency', ...(gzip ? ['-H', 'Accept-Encoding: gzip'] : []), url];
  const out = execFileSync('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const pct = (p: string) => /(\d+(?:\.\d+)?)(us|ms|s)\b/.exec(new RegExp(`\\s${p}%\\s+(\\S+)`).exec(out)?.[1] ?? '');
  const ms = (m: RegExpExecArray | null) => (m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p50: ms(pct('50')), p99: ms(pct('99')), non2xx };
}

const fmtBytes = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : `${(n / 1e3).toFixed(1)} KB`);

writeFeed();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const flags = ['--feed', feed, '--port', String(port), '--no-rate-limits'];
const [cmd, cmdArgs] = ENTRY ? ['npx', ['tsx', ENTRY, ...flags]] : ['npm', ['run', '--silent', 'serve', '--', ...flags]];
const child = spawn(cmd, cmdArgs as string[], {
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
const refresher = setInterval(writeFeed, Math.max(1, REFRESH_S) * 1000);
try {
  await waitLive(base, child);
  console.log(`node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}; wrk -t2 -c64 -d${DURATION} --latency; feed rewritten every ${REFRESH_S} s\n`);
  console.log('| case | path | body | req/s | p50 ms | p99 ms | non-2xx | readsb req/s | target |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const c of CASES) {
    const url = base + c.path;
    const size = await get(url, !!c.gzip);
    const r = wrk(url, !!c.gzip);
    console.log(
      `| ${c.name} | \`${c.path}\`${c.gzip ? ' (gzip)' : ''} | ${fmtBytes(size.bytes)} | ${Math.round(r.rps)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.non2xx} | ${c.readsb ?? ''} | ${c.target ?? ''} |`,
    );
  }
} finally {
  clearInterval(refresher);
  // the server runs under npm and tsx: end the process group this script started
  if (child.pid) process.kill(-child.pid, 'SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
