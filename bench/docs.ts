// documents per second through the artifact writer (build/publish/writer.ts), old path against new
// in one run: seeded documents shaped like the two hot kinds (a catalog route of ~300 bytes; an
// airframe whose legs arrive from DuckDB as JSON text, 1-200 legs), first the cost of each phase on
// one thread (validate, stringify, sha256, gzip, write), then whole runs:
//   old       every document validated, airframe legs parsed and rebuilt, gzip + write in put
//   new/0     validation sampled (validate-sample.ts), legs written as DuckDB made them, no workers
//   new/1, 2  the same with 1 or 2 write workers (write-pool.ts)
//   no change the new path again over the previous version (hash, compare, link): the night with
//             nothing new; the hard-link copy of the previous version (cp -al) is timed apart
// configurations alternate within each round (the machine is shared: compare rows of one run).
// usage: npx tsx bench/docs.ts [--docs 40000] [--shape route|airframe] [--runs 3] [--workers 0,1,2] [--dir /tmp]
import './help.ts';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ArtifactWriter, type PreviousVersion, type WriterOptions } from '../build/publish/writer.ts';
import { gzipDoc } from '../build/publish/gzip-file.ts';
import { airframeDoc, airframeJson, type AirframeIdentity, type AirframeLeg } from '../artifacts/airframe-doc.ts';
import type { RouteDoc } from '../artifacts/routes-table.ts';
import { fileOf, keys } from '../artifacts/keys.ts';
import { assertValid } from '../schemas/index.ts';
import type { TableManifest } from '../artifacts/manifest-file.ts';
import { rng } from '../lib/random.ts';
import { flag, numberFlag } from './flags.ts';
import { removeLater } from './remove-later.ts';

const DOCS = numberFlag('docs', 40_000);
const SHAPE = flag('shape', 'route');
const RUNS = numberFlag('runs', 3);
const WORKERS = flag('workers', '0,1,2').split(',').map(Number);
const DIR = flag('dir', tmpdir());

interface Input {
  key: string;
  /** what the builder has in hand: the route's fields, or the airframe's identity and its legs as DuckDB's text */
  route?: RouteDoc;
  id?: AirframeIdentity;
  legs?: string;
}

const AIRPORTS = ['ZRH', 'LHR', 'JFK', 'FRA', 'CDG', 'AMS', 'DXB', 'SIN', 'HND', 'LAX', 'ORD', 'ATL', 'BFL', 'PHX'];
const AIRLINES = [
  ['AAL', 'AA', 'American Airlines'],
  ['SWR', 'LX', 'Swiss'],
  ['DLH', 'LH', 'Lufthansa'],
  ['BAW', 'BA', 'British Airways'],
] as const;

function inputs(n: number, shape: string): Input[] {
  const r = rng('bench/docs', shape, n);
  const out: Input[] = [];
  for (let i = 0; i < n; i++) {
    const [icao, iata, name] = r.pick(AIRLINES);
    if (shape === 'route') {
      const cs = `${icao}${1 + (i % 9999)}${'ABCDEFGHJK'[Math.floor(i / 9999) % 10]}`;
      const [org, dst] = [r.pick(AIRPORTS), r.pick(AIRPORTS)];
      out.push({
        key: keys.route(cs),
        route: {
          callsign: cs,
          org,
          dst,
          route_source: 'catalog',
          flight: `${iata}${1 + (i % 9999)}`,
          airline: { icao, iata, name },
          observed: r.chance(0.1) ? { legs: r.int(50) + 1, days: r.int(30) + 1, last_seen: 1_732_000_000 + r.int(1e6) } : null,
          catalog: { stops: [org, dst], review: 'auto', reviewer: null, reviewed_on: null },
          coverage: 'observed',
        },
      });
    } else {
      const hex = (0x300000 + i).toString(16);
      const t0 = 1_732_000_000 - r.int(3e7);
      const legs: AirframeLeg[] = Array.from({ length: 1 + r.int(200) }, (_, j) => {
        const first = t0 - j * 20_000;
        return {
          date: new Date(first * 1000).toISOString().slice(0, 10),
          org: r.pick(AIRPORTS),
          dst: r.pick(AIRPORTS),
          org_ident: 'LSZH',
          dst_ident: 'EGLL',
          callsign: `${icao}${r.int(9000) + 1}`,
          dep: first + 300,
          arr: first + 7000,
          first_seen: first,
          last_seen: first + 7500,
          route_source: 'observed',
          table_source: null,
          flights_date: new Date(first * 1000).toISOString().slice(0, 10),
        };
      });
      out.push({
        key: keys.airframe(hex),
        id: {
          hex,
          reg: `HB-J${i % 100}`,
          type: 'A320',
          type_name: 'Airbus A320',
          category: 'jet',
          operator: name,
          operator_icao: icao,
          year: 2010,
          country: 'CH',
          source: 'vrs-standing-data:aircraft.csv',
          airline: { icao, iata, name, country: 'SWITZERLAND', source: 'observed' },
          serial: '1234',
        },
        legs: JSON.stringify(legs),
      });
    }
  }
  return out;
}

/** the document as the old builder made it (legs parsed and rebuilt) */
const oldDoc = (x: Input): unknown => x.route ?? airframeDoc(x.id!, JSON.parse(x.legs!) as AirframeLeg[]);

function putNew(w: ArtifactWriter, x: Input): void {
  if (x.route) w.put(x.key, x.route);
  else w.putJson(x.key, airframeJson(x.id!, x.legs!));
}

const ms = () => performance.now();
/** CPU ms of the whole process (every thread) and of the main thread alone (/proc: Node 20 has no threadCpuUsage) */
const cpuAll = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const cpuMain = () => {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const fresh = () => {
  const d = mkdtempSync(join(DIR, 'contrail-bench-docs-'));
  removeLater(d);
  return d;
};
const meta = { build_id: 'b', built_at: '2026-11-25T00:00:00.000Z', archive_through: null, window_days: 0, counts: {} };

/** µs per document of each phase, on this thread */
function phases(xs: Input[]): Record<string, number> {
  const out: Record<string, number> = {};
  const time = (name: string, f: () => void) => {
    const t = ms();
    f();
    out[name] = ((ms() - t) * 1000) / xs.length;
  };
  let docs: unknown[] = [];
  let texts: string[] = [];
  let gz: Buffer[] = [];
  time('build (old: parse legs, rebuild)', () => void (docs = xs.map(oldDoc)));
  time('validate', () => docs.forEach((d, i) => assertValid(xs[i]!.route ? 'route' : 'airframe', d, xs[i]!.key)));
  time('stringify', () => void (texts = docs.map((d) => JSON.stringify(d))));
  if (!xs[0]!.route) time('build (new: legs as text)', () => void (texts = xs.map((x) => airframeJson(x.id!, x.legs!))));
  let sink = 0;
  time('sha256', () => texts.forEach((t) => (sink += createHash('sha256').update(t).digest('hex').length)));
  time('gzip', () => void (gz = texts.map((t) => gzipDoc(t))));
  const dir = fresh();
  const made = new Set<string>();
  time('write (new files)', () =>
    xs.forEach((x, i) => {
      const f = join(dir, fileOf(x.key));
      if (!made.has(dirname(f))) mkdirSync(dirname(f), { recursive: true }), made.add(dirname(f));
      writeFileSync(f, gz[i]!);
    }),
  );
  if (sink === 0) throw new Error('no hash');
  return out;
}

interface Run {
  rate: number;
  /** CPU µs per document, all threads and the main thread */
  cpu: number;
  main: number;
  linkMs: number;
  out: string;
  manifest: TableManifest;
}

/** one whole run: docs/s from the first put to the last file on disk */
async function run(xs: Input[], name: string, opts: WriterOptions, previous: PreviousVersion | null): Promise<Run> {
  const out = join(fresh(), 'v');
  const t0 = ms();
  const w = new ArtifactWriter(out, previous, opts);
  const t1 = ms();
  // the workers start (and load their code) before the first document counts: in a build the
  // writer is made at the start, long before the document-writing steps
  w.putBytes(keys.route('ZZZ1'), '{}');
  await w.flush();
  const [t1b, c1, m1] = [ms(), cpuAll(), cpuMain()];
  if (name === 'old') for (const x of xs) w.put(x.key, oldDoc(x));
  else
    for (let i = 0; i < xs.length; i++) {
      putNew(w, xs[i]!);
      if (i % 4096 === 4095) await w.drain();
    }
  await w.flush();
  const [t2, c2, m2] = [ms(), cpuAll(), cpuMain()];
  await w.close();
  const manifest = w.writeManifest(meta);
  const per = (x: number) => (x * 1000) / xs.length;
  return { rate: xs.length / ((t2 - t1b) / 1000), cpu: per(c2 - c1), main: per(m2 - m1), linkMs: t1 - t0, out, manifest };
}

const xs = inputs(DOCS, SHAPE);
console.log(`bench/docs.ts: ${DOCS} ${SHAPE} documents, ${RUNS} rounds, Node ${process.version}, ${new Date().toISOString()}`);
phases(xs.slice(0, 2000)); // warm-up
const ph = phases(xs);
console.log('one thread, µs per document:');
for (const [k, v] of Object.entries(ph)) console.log(`  ${k.padEnd(34)} ${v.toFixed(1)}`);

const configs: [string, WriterOptions][] = [
  ['old', { workers: 0, validate: 'all' }],
  ...WORKERS.map((n): [string, WriterOptions] => [`new/${n}`, { workers: n, validate: 'sample', seed: 1 }]),
];
const runs = new Map<string, Run[]>();
const add = (k: string, v: Run) => runs.set(k, [...(runs.get(k) ?? []), v]);
for (let round = 0; round < RUNS; round++) {
  let last: Run | null = null;
  for (const [name, opts] of configs) {
    last = await run(xs, name, opts, null);
    add(name, last);
  }
  const again = await run(xs, 'no change', configs[configs.length - 1]![1], { dir: last!.out, objects: last!.manifest.objects });
  add('no change', again);
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const old = median(runs.get('old')!.map((r) => r.rate));
console.log('whole runs (median of rounds): documents/s, against old; CPU µs per document (all threads, main thread);');
console.log('and what two free cores would do: min(1 / main, 2 / all) documents/s');
for (const [k, rs] of runs) {
  const [rate, cpu, main] = [median(rs.map((r) => r.rate)), median(rs.map((r) => r.cpu)), median(rs.map((r) => r.main))];
  const cap = Math.min(1e6 / main, 2e6 / cpu);
  console.log(
    `  ${k.padEnd(10)} ${Math.round(rate).toString().padStart(7)}/s  x${(rate / old).toFixed(2)}  cpu ${cpu.toFixed(0).padStart(4)} µs, main ${main.toFixed(0).padStart(4)} µs  -> ${Math.round(cap)}/s  [${rs.map((r) => Math.round(r.rate)).join(', ')}]`,
  );
}
console.log(`  cp -al of the previous version: ${Math.round(median(runs.get('no change')!.map((r) => r.linkMs)))} ms for ${DOCS} objects`);
