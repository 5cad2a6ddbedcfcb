// benchmark (run by hand, never a test): what gzip level the writer should use for large documents
// (build/publish/gzip-file.ts: 4 KB and up, most of them airframes with up to 200 legs). reads real
// documents out of a built tree (gunzips every Nth file of one folder), then gzips them at each
// level, levels alternating within each round (the machine is shared: compare rows of one run):
// CPU µs per document and the gzip bytes as a share of the JSON, the writer's own gzipDoc among them.
// usage: npx tsx bench/big-gzip.ts --dir <version>/v1/airframes [--docs 3000] [--runs 2]
import './help.ts';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { gzipDoc } from '../build/publish/gzip-file.ts';
import { flag, numberFlag } from './flags.ts';

const DIR = flag('dir', '');
const DOCS = numberFlag('docs', 3000);
const RUNS = numberFlag('runs', 2);
if (!DIR) throw new Error('--dir <a folder of .gz documents in a built tree> is required');

const names = readdirSync(DIR).filter((n) => n.endsWith('.gz'));
const step = Math.max(1, Math.floor(names.length / (DOCS * 2)));
const docs: Buffer[] = [];
for (let i = 0; i < names.length && docs.length < DOCS; i += step) {
  const d = gunzipSync(readFileSync(join(DIR, names[i]!)));
  if (d.length >= 4096) docs.push(d);
}
const raw = docs.reduce((n, d) => n + d.length, 0);
console.log(`${docs.length} documents of ${DIR}, mean ${Math.round(raw / docs.length)} bytes of JSON`);
const ways: [string, (d: Buffer) => Buffer][] = [
  ...[6, 4, 3, 2, 1].map((level) => [`level ${level}`, (d: Buffer) => gzipSync(d, { level })] as [string, (d: Buffer) => Buffer]),
  ["the writer's gzipDoc", (d) => gzipDoc(d)],
];
for (let run = 1; run <= RUNS; run++) {
  for (const [name, gz] of ways) {
    const c0 = process.cpuUsage();
    let out = 0;
    for (const d of docs) out += gz(d).length;
    const c = process.cpuUsage(c0);
    console.log(`round ${run}, ${name}: ${((c.user + c.system) / docs.length).toFixed(0)} µs/document, gzip ${((out / raw) * 100).toFixed(2)} % of the JSON`);
  }
}
