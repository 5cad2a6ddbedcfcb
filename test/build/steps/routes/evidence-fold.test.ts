// the routes evidence folded from the previous build's state (build/steps/routes/evidence-fold.ts) must
// equal the evidence of the window's legs, as the one query the routes step ran before computed it
// (written out here as the oracle). the log is made by hand so each hard case is there for sure:
// a group whose latest leg crossed midnight out of the day that leaves the window while the group
// keeps an earlier-ending leg of the next day (its maximum must be read again), a group whose latest
// leg left but an added leg is later, callsigns heard only in the dropped or only in the added day,
// two spellings of one callsign, a type heard only in the dropped day, circuits, unkeyable callsigns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { openLog } from '../../../../build/log/read.ts';
import { dayDir, dayFile } from '../../../../build/log/write.ts';
import { allRows } from '../../../../build/steps/duck.ts';
import { EVIDENCE_SQL, prepareEvidence, saveEvidence } from '../../../../build/steps/routes/evidence-fold.ts';
import type { LogDays } from '../../../../build/steps/context.ts';
import { ORACLE } from '../../../helpers/evidence-oracle.ts';
import { ROUTES_STEP } from '../../../../build/steps/routes/step.ts';

process.env.TZ = 'UTC';

type Leg = [callsign: string | null, type: string | null, org: string | null, dst: string | null, last: string];
const ts = (iso: string) => Date.parse(`${iso}Z`) / 1000;

interface Ev {
  callsign: string;
  legs: number;
  days: number;
  last_ts: number;
  types: string[];
  groups: { org: string | null; dst: string | null; legs: number; last_ts: number }[];
}

/** evidence rows in one order (the groups' order is the engine's) */
async function evidenceOf(db: Parameters<typeof allRows>[0], sql: string): Promise<Ev[]> {
  const rows = await allRows<Ev>(db, sql);
  const key = (g: Ev['groups'][number]) => `${g.org}|${g.dst}`;
  for (const r of rows) r.groups.sort((a, b) => (key(a) < key(b) ? -1 : 1));
  return rows.sort((a, b) => (a.callsign < b.callsign ? -1 : 1));
}

async function writeDay(log: string, day: string, legs: Leg[]): Promise<void> {
  mkdirSync(dayDir(log, day), { recursive: true });
  const inst = await DuckDBInstance.create(':memory:');
  const db = await inst.connect();
  const v = (s: string | null) => (s === null ? 'NULL' : `'${s}'`);
  const rows = legs.map(
    ([cs, type, org, dst, last], i) =>
      `('${(i + 1).toString(16).padStart(6, 'a')}', ${v(cs)}, NULL, ${v(type)}, ${ts(last) - 3600}, ${ts(last)}, NULL, NULL, ${v(org)}, ${v(dst)}, false)`,
  );
  await db.run(`COPY (SELECT hex, callsign, reg::VARCHAR AS reg, type, first_ts::BIGINT AS first_ts, last_ts::BIGINT AS last_ts,
    dep_ts::BIGINT AS dep_ts, arr_ts::BIGINT AS arr_ts, org, dst, open FROM (VALUES ${rows.join(', ')})
    AS t(hex, callsign, reg, type, first_ts, last_ts, dep_ts, arr_ts, org, dst, open)) TO '${dayFile(log, day)}' (FORMAT parquet)`);
  db.closeSync();
  inst.closeSync();
}

const D1: Leg[] = [
  // crosses midnight: the group's latest leg, in the day that leaves the window
  ['ABC12', 'A320', 'EGLL', 'KJFK', '2025-03-02T02:00:00'],
  ['abc12 ', 'A321', 'EGLL', 'KJFK', '2025-03-01T10:00:00'],
  // latest leg leaves, an added one is later
  ['DEF3', 'B738', 'LFPG', null, '2025-03-01T23:00:00'],
  ['GONE1', 'E190', 'EDDF', 'EGLL', '2025-03-01T12:00:00'],
  ['CIRC1', 'C172', 'EGLL', 'EGLL', '2025-03-01T12:00:00'],
  ['A', 'C172', 'EGLL', 'KJFK', '2025-03-01T12:00:00'],
  [null, 'A320', 'EGLL', 'KJFK', '2025-03-01T12:00:00'],
];
const D2: Leg[] = [
  // same group, ends before the D1 leg did: the group's latest leg once D1 has left
  ['ABC12', 'A320', 'EGLL', 'KJFK', '2025-03-02T01:00:00'],
  ['ABC12', null, null, 'KJFK', '2025-03-02T09:00:00'],
  ['DEF3', 'B738', 'LFPG', null, '2025-03-02T05:00:00'],
  ['XYZ9', 'A359', 'LEMD', 'KMIA', '2025-03-02T15:00:00'],
];
const D3: Leg[] = [
  [' xyz9', 'A359', 'KMIA', 'LEMD', '2025-03-03T08:00:00'],
  ['TOOLONGCS1', 'A320', 'EGLL', 'KJFK', '2025-03-03T08:00:00'],
];
const D4: Leg[] = [
  ['DEF3', 'B739', 'LFPG', null, '2025-03-04T06:00:00'],
  ['NEW44', 'A20N', 'EHAM', 'LEBL', '2025-03-04T07:00:00'],
  ['ABC12', 'A320', null, 'KJFK', '2025-03-04T09:00:00'],
];

/** a log of D1..D3 in a temporary folder removed after the test */
async function threeDays(t: { after: (f: () => void) => void }): Promise<{ tmp: string; log: string }> {
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-evidence-fold-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const log = join(tmp, 'log');
  await writeDay(log, '2025-03-01', D1);
  await writeDay(log, '2025-03-02', D2);
  await writeDay(log, '2025-03-03', D3);
  return { tmp, log };
}

test('the evidence folded from the previous window equals the window counted, and both equal the one query over every leg', async (t) => {
  const { tmp, log } = await threeDays(t);
  const prev = join(tmp, 'v1');
  const before = await openLog(log, { threads: 1 });
  const first = await prepareEvidence(before.connection, null, null);
  assert.deepEqual(first, { line: "counted from the window's legs: no previous build to reuse", moved: null });
  assert.deepEqual(await evidenceOf(before.connection, EVIDENCE_SQL), await evidenceOf(before.connection, ORACLE));
  await saveEvidence(before.connection, prev);
  before.close();

  await writeDay(log, '2025-03-04', D4);
  const days: LogDays = { added: ['2025-03-04'], dropped: [{ day: '2025-03-01', file: dayFile(log, '2025-03-01') }] };
  const night = await openLog(log, { threads: 1, since: '2025-03-02' });
  t.after(() => night.close());
  const db = night.connection;
  const oracle = await evidenceOf(db, ORACLE);
  const { line, moved } = await prepareEvidence(db, prev, days);
  const folded = await evidenceOf(db, EVIDENCE_SQL);
  assert.deepEqual(folded, oracle);
  // ABC12 EGLL-KJFK is the one group whose latest leg left with a dropped day while it keeps a leg
  assert.equal(line, "folded: 1 days added, 1 dropped, 4 callsigns moved, 1 groups' latest leg read again");
  // the callsigns heard in the added or the dropped day; XYZ9's evidence is the previous build's
  assert.deepEqual([...moved!].sort(), ['ABC12', 'DEF3', 'GONE1', 'NEW44']);
  const abc = folded.find((e) => e.callsign === 'ABC12')!;
  assert.deepEqual(abc.groups.find((g) => g.org === 'EGLL')!, { org: 'EGLL', dst: 'KJFK', legs: 1, last_ts: ts('2025-03-02T01:00:00') });
  assert.equal(abc.days, 2);
  assert.deepEqual(abc.types, ['A320'], 'A321 was heard only in the dropped day');
  assert.equal(folded.find((e) => e.callsign === 'DEF3')!.groups[0]!.last_ts, ts('2025-03-04T06:00:00'));
  assert.ok(
    !folded.some((e) => e.callsign === 'GONE1') && folded.some((e) => e.callsign === 'NEW44'),
    'GONE1 flew only in the dropped day, NEW44 only in the added one',
  );
  assert.equal(folded.find((e) => e.callsign === 'XYZ9')!.days, 2, 'two spellings on two days');

  // the folded tables saved again fold the next night too (saved state is what a count would save)
  const v2 = join(tmp, 'v2');
  await saveEvidence(db, v2);
  assert.equal(
    (await prepareEvidence(db, v2, { added: [], dropped: [] })).line,
    "folded: 0 days added, 0 dropped, 0 callsigns moved, 0 groups' latest leg read again",
  );
  assert.deepEqual(await evidenceOf(db, EVIDENCE_SQL), oracle);
  await saveEvidence(db, v2);
});

test('anything unsure counts the window: no evidence saved, days not known, more legs dropped than saved', async (t) => {
  const { tmp, log } = await threeDays(t);
  // a state saved from D2..D3 only: the night claims D1 was in it and drops it
  const prev = join(tmp, 'v1');
  const partial = await openLog(log, { threads: 1, since: '2025-03-02' });
  await prepareEvidence(partial.connection, null, null);
  await saveEvidence(partial.connection, prev);
  partial.close();

  const night = await openLog(log, { threads: 1, since: '2025-03-02' });
  t.after(() => night.close());
  const db = night.connection;
  const oracle = await evidenceOf(db, ORACLE);
  const dropD1: LogDays = { added: [], dropped: [{ day: '2025-03-01', file: dayFile(log, '2025-03-01') }] };
  const cases: [string | null, LogDays | null, string][] = [
    [join(tmp, 'nothing-saved'), dropD1, 'the previous build saved no evidence'],
    [prev, null, 'the log days since the previous build are not known'],
    [prev, dropD1, 'more legs dropped than the saved evidence held'],
  ];
  for (const [dir, days, why] of cases) {
    assert.deepEqual(await prepareEvidence(db, dir, days), { line: `counted from the window's legs: ${why}`, moved: null });
    assert.deepEqual(await evidenceOf(db, EVIDENCE_SQL), oracle, why);
    await saveEvidence(db, join(tmp, 'out'));
  }
});

test('the callsigns the fold moves are those of the changes the routes step declares: without dropped-days, one heard only then does not move', async (t) => {
  const { tmp, log } = await threeDays(t);
  const prev = join(tmp, 'v1');
  const before = await openLog(log, { threads: 1 });
  await prepareEvidence(before.connection, null, null);
  await saveEvidence(before.connection, prev);
  before.close();
  await writeDay(log, '2025-03-04', D4);
  const days: LogDays = { added: ['2025-03-04'], dropped: [{ day: '2025-03-01', file: dayFile(log, '2025-03-01') }] };
  const night = await openLog(log, { threads: 1, since: '2025-03-02' });
  t.after(() => night.close());
  const rule = ROUTES_STEP.reuse.evidence;
  const declared = await prepareEvidence(night.connection, prev, days, rule);
  assert.deepEqual([...declared.moved!].sort(), ['ABC12', 'DEF3', 'GONE1', 'NEW44']);
  await saveEvidence(night.connection, join(tmp, 'out'));
  const undeclared = await prepareEvidence(night.connection, prev, days, { ...rule, rebuild: rule.rebuild.filter((c) => c !== 'dropped-days') });
  assert.equal(undeclared.line, "folded: 1 days added, 0 dropped, 3 callsigns moved, 0 groups' latest leg read again");
  assert.deepEqual([...undeclared.moved!].sort(), ['ABC12', 'DEF3', 'NEW44'], 'GONE1 flew only in the dropped day');
  await saveEvidence(night.connection, join(tmp, 'out2'));
  // and a rule that reads a file the previous build did not save counts the window, saying which
  const missing = await prepareEvidence(night.connection, prev, days, { ...rule, state: [...rule.state, 'state/ev_missing.parquet'] });
  assert.deepEqual(missing, { line: "counted from the window's legs: the previous build saved no evidence", moved: null });
});
