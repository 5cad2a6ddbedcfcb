// benchmark (by hand, not a test): the researchers' data step over a built log and tree.
//   npx tsx bench/bundles.ts [--log var/flight-log] [--artifacts var/artifacts] [--threads 2]
// the first run writes everything into a fresh folder; the second, with nothing changed, must
// write nothing. sizes of what was published are printed per file.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeBundles } from '../build/bundle/bundle.ts';
import { indexFiles } from '../build/bundle/index-file.ts';
import { installed } from '../lib/install.ts';
import { flag, numberFlag } from './flags.ts';

if (process.argv.includes('--help')) {
  console.log('npx tsx bench/bundles.ts [--log DIR] [--artifacts DIR] [--threads N]: time the bundle step, first run and a no-change run');
  process.exit(0);
}
const log = flag('log', installed('var/flight-log'));
const root = flag('artifacts', installed('var/artifacts'));
const out = mkdtempSync(join(tmpdir(), 'contrail-bench-bundles-'));
const spill = join(out, '.spill');
console.log(`node ${process.version}, ${process.platform} ${process.arch}; log ${log}, artifacts ${root}`);
try {
  for (const label of ['first run (everything written)', 'no-change run']) {
    const t0 = performance.now();
    const r = await writeBundles({
      log,
      root,
      out: join(out, 'b'),
      nowMs: Date.now(),
      threads: numberFlag('threads', 2),
      memoryLimit: '4GB',
      tempDirectory: spill,
    });
    console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${r.written.length} files written`);
    if (label.startsWith('no-change')) {
      let total = 0;
      for (const e of indexFiles(r.index)) {
        total += e.bytes;
        console.log(`  ${e.path} ${e.bytes} B${'rows' in e ? `, ${e.rows} rows` : ''}`);
      }
      console.log(`  total ${total} B`);
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
