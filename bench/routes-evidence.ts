// benchmark (run by hand, never a test): the routes step's log evidence (build/steps/routes/evidence-fold.ts)
// over a real flight log, its queries alone (no documents). For the first window (every day of --log):
// the one query the step ran before (test/helpers/evidence-oracle.ts), the window counted the new
// way (prepareEvidence without a previous build) and read out (EVIDENCE_SQL), and the state saved.
// With --new-day <folder holding legs.parquet, named day=YYYY-MM-DD>: the night that adds that day
// and drops the oldest, folded from the saved state, then the one query over the night's window;
// the folded evidence is compared with it row for row (differences must be 0). Nothing is written
// into --log. DuckDB as the nightly opens it: 2 threads, memory_limit 4GB.
// usage: npx tsx bench/routes-evidence.ts --log <dir> [--new-day <dir>/day=YYYY-MM-DD] [--runs 1] [--dir /tmp]
import './help.ts';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { countRows, sqlString } from '../build/steps/duck.ts';
import { EVIDENCE_SQL, prepareEvidence, saveEvidence } from '../build/steps/routes/evidence-fold.ts';
import { ORACLE } from '../test/helpers/evidence-oracle.ts';
import { flag, numberFlag } from './flags.ts';

const LOG = flag('log', '');
const NEW_DAY = flag('new-day', '');
const RUNS = numberFlag('runs', 1);
const DIR = flag('dir', '/tmp');
if (!LOG) throw new Error('--log <flight log root> is required');

const days = readdirSync(LOG)
  .filter((n) => /^day=\d{4}-\d{2}-\d{2}$/.test(n))
  .map((n) => n.slice(4))
  .sort();
const file = (day: string) => join(LOG, `day=${day}`, 'legs.parquet');
const db = await (await DuckDBInstance.create(':memory:', { threads: '2', preserve_insertion_order: 'false', memory_limit: '4GB' })).connect();
const view = async (files: string[]) =>
  db.run(
    `CREATE OR REPLACE VIEW legs AS SELECT * FROM read_parquet([${files.map(sqlString).join(', ')}], hive_partitioning = true, hive_types = {'day': DATE})`,
  );

async function timed<T>(label: string, f: () => Promise<T>): Promise<T> {
  const t = performance.now();
  const out = await f();
  console.log(`${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return out;
}
/** the evidence rows with each callsign's groups in one order */
const sorted = (sql: string) => `SELECT callsign, legs, days, last_ts, types, list_sort(groups) AS groups FROM (${sql})`;
const readOut = (db: DuckDBConnection) => db.run(`CREATE OR REPLACE TEMP TABLE ev_out AS ${sorted(EVIDENCE_SQL)}`);
/** ev_out (the new way) against ev_one (the one query), then both dropped */
async function compare(): Promise<string> {
  const one = sorted('SELECT * FROM ev_one');
  const differ = await countRows(db, `(SELECT * FROM ev_out EXCEPT ALL ${one}) UNION ALL (${one} EXCEPT ALL SELECT * FROM ev_out)`);
  const n = await countRows(db, 'SELECT 1 FROM ev_one');
  await db.run('DROP TABLE ev_one');
  await db.run('DROP TABLE ev_out');
  return `against the one query: ${n} callsigns, ${differ} rows differ`;
}

console.log(`${days.length} days ${days[0]}..${days[days.length - 1]}${NEW_DAY ? `, then ${basename(NEW_DAY)} added and ${days[0]} dropped` : ''}`);
for (let run = 1; run <= RUNS; run++) {
  const tmp = mkdtempSync(join(DIR, 'contrail-bench-evidence-'));
  try {
    await view(days.map(file));
    console.log(`run ${run}: first window, ${await countRows(db, 'SELECT 1 FROM legs')} legs`);
    await timed('  before: the one query', () => db.run(`CREATE OR REPLACE TEMP TABLE ev_one AS ${ORACLE}`));
    const { line } = await timed('  counted (prepareEvidence)', () => prepareEvidence(db, null, null));
    await timed('  read out (EVIDENCE_SQL into a table)', () => readOut(db));
    await timed('  saved (state/)', () => saveEvidence(db, tmp));
    console.log(`  ${line}; ${await compare()}`);
    if (!NEW_DAY) continue;
    const newDay = basename(NEW_DAY).slice(4);
    await view([...days.slice(1).map(file), join(NEW_DAY, 'legs.parquet')]);
    const folded = await timed('  night: folded (prepareEvidence)', () =>
      prepareEvidence(db, tmp, { added: [newDay], dropped: [{ day: days[0]!, file: file(days[0]!) }] }),
    );
    console.log(`  ${folded.line}`);
    await timed('  night: read out', () => readOut(db));
    await timed('  night: saved', () => saveEvidence(db, join(tmp, 'night')));
    await timed('  night before: the one query', () => db.run(`CREATE OR REPLACE TEMP TABLE ev_one AS ${ORACLE}`));
    console.log(`  folded: ${await compare()}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
