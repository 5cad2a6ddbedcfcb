// figures (by hand, not a test): what a catalog route's object costs to write, gzip against file
// creation. CPU and bytes per document for zlib settings (level, windowBits, memLevel) on real
// route documents (build/steps/routes/build.ts routeDoc shape, ~300 bytes of JSON), the
// writer's own (build/publish/gzip-file.ts gzipDoc) among them; then the cost of creating one small
// file, all in one folder (as the artifact tree has them) and spread over 256 folders.
// settings alternate within each round (the machine is shared: compare rows of one run).
//   npx tsx bench/small-gzip.ts [--docs 20000] [--runs 3] [--files 50000] [--dir /tmp]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync, type ZlibOptions } from 'node:zlib';
import { gzipDoc } from '../build/publish/gzip-file.ts';
import { rng } from '../lib/random.ts';
import { flag, numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  process.stdout.write('usage: npx tsx bench/small-gzip.ts [--docs 20000] [--runs 3] [--files 50000] [--dir /tmp]\n');
  process.exit(0);
}
const DOCS = numberFlag('docs', 20_000);
const RUNS = numberFlag('runs', 3);
const FILES = numberFlag('files', 50_000);
const DIR = flag('dir', tmpdir());

const AIRPORTS = ['ZRH', 'LHR', 'JFK', 'FRA', 'CDG', 'AMS', 'DXB', 'SIN', 'HND', 'LAX'];
const r = rng('bench/small-gzip', DOCS);
const docs: string[] = [];
for (let i = 0; i < DOCS; i++) {
  const [org, dst] = [r.pick(AIRPORTS), r.pick(AIRPORTS)];
  docs.push(
    JSON.stringify({
      callsign: `AAL${1 + i}`,
      org,
      dst,
      route_source: 'catalog',
      flight: `AA${1 + i}`,
      airline: { icao: 'AAL', iata: 'AA', name: 'American Airlines' },
      observed: null,
      catalog: { stops: [org, dst], review: 'auto', reviewer: null, reviewed_on: null },
      coverage: 'catalog',
    }),
  );
}

const SETTINGS: [string, (d: string) => Buffer][] = [
  ['zlib default (6, 15, 8)', (d) => gzipSync(d)],
  ["the writer's (9, 12, 5)", (d) => gzipDoc(d)],
  ...(
    [
      [9, 10, 2],
      [9, 9, 1],
      [6, 9, 1],
      [1, 9, 1],
    ] as const
  ).map(([level, windowBits, memLevel]): [string, (d: string) => Buffer] => {
    const o: ZlibOptions = { level, windowBits, memLevel };
    return [`(${level}, ${windowBits}, ${memLevel})`, (d) => gzipSync(d, o)];
  }),
];

const cpuUs = (c: NodeJS.CpuUsage) => c.user + c.system;
const rows = new Map<string, { cpu: number[]; bytes: number }>();
for (let run = 0; run < RUNS; run++) {
  for (const [name, gz] of SETTINGS) {
    const c0 = process.cpuUsage();
    let bytes = 0;
    for (const d of docs) bytes += gz(d).length;
    const row = rows.get(name) ?? { cpu: [], bytes };
    row.cpu.push(cpuUs(process.cpuUsage(c0)) / DOCS);
    rows.set(name, row);
  }
}
const json = docs.reduce((n, d) => n + Buffer.byteLength(d), 0) / DOCS;
console.log(`${DOCS} route documents, ${json.toFixed(0)} bytes of JSON each on average; ${RUNS} rounds`);
console.log('| gzip (level, windowBits, memLevel) | CPU µs per document (median) | gzip bytes |');
console.log('|---|---|---|');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [name, row] of rows) console.log(`| ${name} | ${median(row.cpu).toFixed(1)} | ${(row.bytes / DOCS).toFixed(1)} |`);

// one small file each: open, write, close (writeFileSync, as the write workers do)
const gz = gzipDoc(docs[0]!);
console.log(`\n| ${FILES} files of ${gz.length} bytes | wall µs per file | CPU µs per file |\n|---|---|---|`);
for (const folders of [1, 256]) {
  const root = mkdtempSync(join(DIR, 'contrail-small-gzip-'));
  try {
    for (let f = 0; f < folders; f++) mkdirSync(join(root, String(f)));
    const t = performance.now();
    const c0 = process.cpuUsage();
    for (let i = 0; i < FILES; i++) writeFileSync(join(root, String(i % folders), `AAL${i}.json.gz`), gz);
    console.log(
      `| in ${folders} folder${folders > 1 ? 's' : ''} | ${(((performance.now() - t) * 1000) / FILES).toFixed(1)} | ${(cpuUs(process.cpuUsage(c0)) / FILES).toFixed(1)} |`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
