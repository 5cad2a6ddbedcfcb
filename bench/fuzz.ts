// the long fuzz run, by hand: seeded hostile requests over every route, on both serving threads.
// `--help` for the options. its figures go in docs/performance.md ("Fuzzing both serving threads").
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { CODES, headers, method, param, path, query } from '../test/helpers/fuzz-cases.ts';
import { startPinned, type Pinned } from '../test/helpers/pinned-app.ts';
import { makeFixture } from '../test/helpers/publish-fixture.ts';
import { flag } from './flags.ts';

const HELP = `Usage: npx tsx bench/fuzz.ts [options]

Seeded fuzzing of the whole app with two serving threads (--serve-threads 2), every connection
pinned to one of them in turn (--listen-thread 0, then 1): paths from the operations table and
from the route table the app serves (every pattern, its parameters hostile), broken
percent-encodings, queries, methods (GET, HEAD, OPTIONS and others) and headers, sent over
keep-alive connections. Counted: answers by status and thread, 5xx answers, requests that got no
answer within 10 s, and answers that break the section-7 rules (an error without its shape or
no-store, a path or stack echoed, a missing security header). Exits 1 on any of those.

Options:
  --requests N     requests in all, split evenly between the threads (default 100000)
  --seed N         fast-check seed (default 20261124)
  --concurrency N  requests in flight per thread (default 16)
  --help           this text`;

if (process.argv.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}
const num = (name: string, dflt: number) => {
  const v = Number(flag(name, String(dflt)));
  if (!Number.isInteger(v) || v <= 0) {
    console.error(`--${name} must be a positive integer\n(npx tsx bench/fuzz.ts --help)`);
    process.exit(2);
  }
  return v;
};
const REQUESTS = num('requests', 100_000);
const SEED = num('seed', 20_261_124);
const CONCURRENCY = num('concurrency', 16);

const SAFE = /[A-Za-z0-9\-._~]/;
const enc = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((b) => (SAFE.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(agent: Agent, port: number, m: string, p: string, h: Record<string, string>): Promise<Got | null> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: p, method: m, headers: h, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
      res.on('error', () => resolve(null));
    });
    req.setTimeout(10_000, () => req.destroy());
    // a request node:http cannot even send (a header it refuses) is not the server's to answer
    req.on('error', (e: NodeJS.ErrnoException) =>
      resolve(e.code === 'ERR_INVALID_CHAR' || e.code === 'ERR_UNESCAPED_CHARACTERS' ? { status: -1, headers: {}, body: '' } : null),
    );
    req.end();
  });
}

/** what breaks the section-7 rules in one answer, or null */
function problem(m: string, p: string, r: Got): string | null {
  if (r.headers['x-content-type-options'] !== 'nosniff') return 'no nosniff header';
  if (r.status === 200 || r.status === 204 || r.status === 206 || r.status === 304 || r.status === 101) return null;
  if (r.headers['cache-control'] !== 'no-store') return `${r.status} without no-store`;
  if (m === 'HEAD') return null;
  try {
    const body = JSON.parse(r.body) as Record<string, unknown>;
    if (Object.keys(body).sort().join() !== 'detail,error' || !CODES.has(String(body.error)) || typeof body.detail !== 'string')
      return `not a section-7 body: ${r.body.slice(0, 120)}`;
  } catch {
    return `not JSON: ${r.body.slice(0, 120)}`;
  }
  if (/\n\s+at /.test(r.body) || r.body.includes('node_modules')) return 'a stack in the body';
  if (p.length > 24 && r.body.includes(p)) return 'the path echoed';
  return null;
}

const started = Date.now();
const fx = await makeFixture(4, 6);
const report: string[] = [];
let failed = false;
try {
  for (const thread of [0, 1]) {
    const p: Pinned = await startPinned(thread, fx);
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    try {
      // every pattern of the route table the app serves, its parameters and the rest of a `*` hostile
      const routePath = fc.tuple(fc.constantFrom(...p.app.routes.map((r) => r.pattern)), fc.array(param, { minLength: 6, maxLength: 6 })).map(([pat, vals]) => {
        let i = 0;
        return pat.replace(/:[a-z]+|\*/g, () => enc(vals[i++]!));
      });
      const one = fc.tuple(method, fc.oneof(path, routePath), query, headers);
      const cases = fc.sample(one, { numRuns: Math.ceil(REQUESTS / 2), seed: SEED + thread });
      const statuses = new Map<number, number>();
      const problems = new Map<string, number>();
      let unanswered = 0;
      let next = 0;
      let done = 0;
      const t0 = Date.now();
      const tick = setInterval(
        () => process.stderr.write(`thread ${thread}: ${done} of ${cases.length} (${Math.round(done / ((Date.now() - t0) / 1000))} req/s)\n`),
        10_000,
      );
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < cases.length) {
            const [m, pth, q, h] = cases[next++]!;
            const r = await send(agent, p.port, m, pth + q, h);
            done++;
            if (!r) {
              unanswered++;
              continue;
            }
            statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
            if (r.status < 0) continue;
            const why = r.status >= 500 ? `${r.status} ${r.body.slice(0, 120)}` : problem(m, pth, r);
            if (why) problems.set(why, (problems.get(why) ?? 0) + 1);
          }
        }),
      );
      clearInterval(tick);
      const s = (Date.now() - t0) / 1000;
      const fivexx = [...statuses].filter(([st]) => st >= 500).reduce((n, [, c]) => n + c, 0);
      const faults = p.logs.filter((l) => l.startsWith('error ')).length;
      report.push(
        `thread ${thread} (${thread ? 'the worker, the rest forwarded' : 'the main thread'}): ${cases.length} requests in ${s.toFixed(0)} s, ${fivexx} x 5xx, ${unanswered} unanswered, ${[...problems.values()].reduce((a, b) => a + b, 0)} rule breaks, ${faults} handler faults logged`,
        `  statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}${statuses.has(-1) ? ' (-1: node:http refused to send the header)' : ''}`,
        ...[...problems].slice(0, 10).map(([why, n]) => `  ${n} x ${why}`),
      );
      if (fivexx || unanswered || problems.size || faults) failed = true;
    } finally {
      agent.destroy();
      await p.stop();
    }
  }
} finally {
  rmSync(fx.dir, { recursive: true, force: true });
}
console.log(
  `${new Date().toISOString().slice(0, 10)}, node ${process.version}: npx tsx bench/fuzz.ts ${process.argv.slice(2).join(' ')} (seed ${SEED}, ${CONCURRENCY} in flight per thread, ${((Date.now() - started) / 1000).toFixed(0)} s in all)`,
);
for (const l of report) console.log(l);
process.exit(failed ? 1 : 0);
