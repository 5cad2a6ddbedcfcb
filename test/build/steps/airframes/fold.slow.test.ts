// a night makes the documents of the airframes heard in the new or the dropped day from their
// previous documents (build/steps/airframes/fold.ts, artifacts/airframe-doc-splice.ts): the new
// legs on top, the dropped ones off the end, the 200-leg cap applied, reg/type/operator folded from
// saved counts. the night's documents and saved state must be a fresh build's, byte for byte and
// row for row, in the cases that make a splice hard: a capped document, a cap whose last legs are
// the dropped day's, a reg newly heard, an operator whose majority flips, a reg said only by a leg
// that left (which the fold cannot know: aggregated instead), an airframe that leaves the window,
// one that enters it; and previous documents gone or not the state's, and saved counts missing a
// row, which are aggregated instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { ArtifactWriter } from '../../../../build/publish/writer.ts';
import type { BuildContext } from '../../../../build/steps/context.ts';
import type { Refdata } from '../../../../lib/reference/index.ts';
import { keys } from '../../../../artifacts/keys.ts';
import { Origin } from '../../../../artifacts/object-table.ts';
import type { AirframeDoc } from '../../../../artifacts/airframe-doc.ts';
import type { Progress } from '../../../../build/progress.ts';
import { makeRef } from '../../../helpers/ref-fixture.ts';
import { buildRoutesAirframes, legsDb } from '../../../helpers/airframes-build.ts';

process.env.TZ = 'UTC';
const DAY0 = Date.UTC(2024, 0, 1) / 1000; // 2024-01-01T00:00Z, pinned
const H = 3600;
const isoDay = (d: number) => new Date((DAY0 + d * 86400) * 1000).toISOString().slice(0, 10);

interface Leg {
  hex: string;
  cs: string;
  reg?: string;
  d: number;
  k: number;
}

test('a night splices the airframes of the new and dropped days from their previous documents: the same documents and state as a full build', async (t) => {
  const { dir, db } = await legsDb(t, 'airframes-splice');
  const insert = (legs: Leg[]) =>
    db.run(
      `INSERT INTO legs VALUES ${legs
        .map(({ hex, cs, reg, d, k }) => {
          const t0 = DAY0 + d * 86400 + (6 + 2 * k) * H;
          return `('${hex}', '${cs}', ${reg ? `'${reg}'` : 'NULL'}, 'A320', ${t0}, ${t0 + H}, ${t0}, ${t0 + H}, 'LSZH', 'EGLL', DATE '${isoDay(d)}')`;
        })
        .join(', ')}`,
    );
  const days = (from: number, to: number, perDay: number, leg: (d: number, k: number) => Omit<Leg, 'd' | 'k'>) =>
    Array.from({ length: (to - from + 1) * perDay }, (_, i) => ({
      ...leg(from + Math.floor(i / perDay), i % perDay),
      d: from + Math.floor(i / perDay),
      k: i % perDay,
    }));
  // the window: days 0-79. the night: day 80 enters, day 0 leaves
  await insert([
    // a0ca01: 3 legs a day, 240 in the window: capped at 200, the dropped day's far below the cap
    ...days(0, 79, 3, () => ({ hex: 'a0ca01', cs: 'SWR100' })),
    // a0ca02: 201 legs, 3 of them on day 0: the document's last 2 legs are the dropped day's
    ...days(0, 0, 3, () => ({ hex: 'a0ca02', cs: 'SWR200' })),
    ...days(1, 66, 3, () => ({ hex: 'a0ca02', cs: 'SWR200' })),
    // a0fe01: a few legs, one on day 0: the document loses its last leg and gains the new day's
    ...days(0, 0, 1, () => ({ hex: 'a0fe01', cs: 'EZS11' })),
    ...days(30, 31, 2, () => ({ hex: 'a0fe01', cs: 'EZS11' })),
    // a0e901: no reg heard before; the new day says one
    ...days(10, 12, 1, () => ({ hex: 'a0e901', cs: 'DLH1' })),
    // a0b001: SWR 5 legs (2 on day 0) against DLH 4: the majority flips to DLH with the new day's
    ...days(0, 0, 2, () => ({ hex: 'a0b001', cs: 'SWR300' })),
    ...days(40, 42, 1, () => ({ hex: 'a0b001', cs: 'SWR300' })),
    ...days(50, 53, 1, () => ({ hex: 'a0b001', cs: 'DLH300' })),
    // a0e902: its reg said only on day 0, which leaves: not known from the counts, aggregated
    ...days(0, 0, 1, () => ({ hex: 'a0e902', cs: 'BAW1', reg: 'G-OLD' })),
    ...days(5, 6, 1, () => ({ hex: 'a0e902', cs: 'BAW1' })),
    // a0d0e0: heard on day 0 only: it leaves the window and, not in the registry, has no document
    ...days(0, 0, 2, () => ({ hex: 'a0d0e0', cs: 'SWR900' })),
    // a05a3e: heard on days 20-21 only: untouched, kept
    ...days(20, 21, 1, () => ({ hex: 'a05a3e', cs: 'SWR500' })),
    // a TIS-B address (not an ICAO one): never a document, by either path
    ...days(0, 1, 1, () => ({ hex: '~a0f00f', cs: 'SWR600' })),
  ]);
  const ref = makeRef({});
  const base = {
    db,
    refdata: {} as Refdata,
    ref,
    windowStart: isoDay(0),
    windowDays: 81,
    windowLimit: 81,
    timetablesDir: null,
    nowMs: (DAY0 + 82 * 86400) * 1000,
  };
  const said: string[] = [];
  const progress: Progress = { start: () => {}, tick: () => {}, done: (s) => void said.push(s) };
  const build = (name: string, archiveThrough: string, previous: ArtifactWriter | null, extra: Partial<BuildContext> = {}) =>
    buildRoutesAirframes(dir, { ...base, archiveThrough, progress }, name, previous, extra, 50);
  const first = await build('v1', isoDay(79), null);
  // day 0 leaves: its rows go to its own file, as the log keeps it; day 80 enters
  const dropped = join(dir, 'log', `day=${isoDay(0)}`);
  mkdirSync(dropped, { recursive: true });
  await db.run(`COPY (SELECT * EXCLUDE (day) FROM legs WHERE day = DATE '${isoDay(0)}') TO '${join(dropped, 'legs.parquet')}' (FORMAT parquet)`);
  await db.run(`DELETE FROM legs WHERE day = DATE '${isoDay(0)}'`);
  await insert([
    ...days(80, 80, 3, () => ({ hex: 'a0ca01', cs: 'SWR100' })),
    ...days(80, 80, 2, () => ({ hex: 'a0ca02', cs: 'SWR200' })),
    ...days(80, 80, 1, () => ({ hex: 'a0fe01', cs: 'EZS11' })),
    ...days(80, 80, 1, () => ({ hex: 'a0e901', cs: 'DLH1', reg: 'D-ANEW' })),
    ...days(80, 80, 1, () => ({ hex: 'a0b001', cs: 'DLH300' })),
    ...days(80, 80, 1, () => ({ hex: 'a0e902', cs: 'BAW1' })),
    ...days(80, 80, 2, () => ({ hex: 'a0ee01', cs: 'SWR700' })),
    ...days(80, 80, 1, () => ({ hex: '~a0f00f', cs: 'SWR600' })),
  ]);
  // two previous documents are not what the state says: one is gone, one is another document. the
  // night must not splice them (nor fail): it aggregates them from their legs
  rmSync(join(first.dir, `${keys.airframe('a0fe01')}.gz`));
  writeFileSync(join(first.dir, `${keys.airframe('a0e901')}.gz`), gzipSync('{"hex":"a0e901","legs":[]}'));
  // and the saved operator counts have lost a0ca01's row (as many SWR legs come as go tonight, so
  // only the missing row can tell): its operator is not known from them, so it is aggregated too
  const ops = join(first.dir, 'state', 'airframe-operators.parquet');
  await db.run(`COPY (SELECT * FROM read_parquet('${ops}') WHERE hex <> 'a0ca01') TO '${ops}.cut' (FORMAT parquet)`);
  renameSync(`${ops}.cut`, ops);
  said.length = 0;
  const night = await build('v2', isoDay(80), first, {
    reuse: first.dir,
    logDays: { added: [isoDay(80)], dropped: [{ day: isoDay(0), file: join(dropped, 'legs.parquet') }] },
  });
  const summary = said.find((s) => s.includes(' airframes (')) ?? said.join(' | ');
  const full = await build('v3', isoDay(80), null);

  // what the cases are: the fixture does what the comments say
  const doc = (w: ArtifactWriter, hex: string) => w.read(keys.airframe(hex)) as AirframeDoc | null;
  assert.equal(doc(full, 'a0ca01')!.legs!.length, 200, 'a0ca01 is capped');
  assert.equal(doc(first, 'a0ca02')!.legs!.filter((l) => l.date === isoDay(0)).length, 2, "a0ca02's document held 2 legs of the dropped day");
  assert.equal(doc(full, 'a0e901')!.reg, 'D-ANEW');
  assert.equal(doc(first, 'a0b001')!.operator_icao, 'SWR');
  assert.equal(doc(full, 'a0b001')!.operator_icao, 'DLH');
  assert.equal(doc(first, 'a0e902')!.reg, 'G-OLD');
  assert.equal(doc(full, 'a0e902')!.reg, null);
  assert.ok(doc(first, 'a0d0e0') && !night.objects.get(keys.airframe('a0d0e0')), "a0d0e0's document is gone");
  assert.equal(night.objects.originOf(keys.airframe('a05a3e')), Origin.KEPT, 'a05a3e kept unbuilt');
  assert.deepEqual(night.objects.get(keys.airframe('a05a3e')), first.objects.get(keys.airframe('a05a3e')), 'a05a3e kept as it was');
  for (const w of [first, night, full])
    assert.deepEqual(
      [...w.objects.keys()].filter((k) => k.includes('~')),
      [],
      'no document for a TIS-B address',
    );
  // three airframes spliced (a0ca02, a0b001, a0ee01); a0e902 aggregated (its reg), a0fe01 and a0e901
  // too (their previous documents), a0ca01 (its counts); a05a3e kept
  assert.match(summary, /\(\d+ unchanged since the previous build, kept unbuilt; 3 made from their previous documents\)$/, summary);

  // the night's airframe documents are the full build's, byte for byte
  const kinds = (w: ArtifactWriter) => [...w.objects.keys()].filter((k) => k.startsWith('v1/airframes/') || k.startsWith('v1/refdata/aircraft/')).sort();
  assert.deepEqual(kinds(night), kinds(full));
  for (const k of kinds(full)) assert.equal(night.objects.get(k)!.sha256, full.objects.get(k)!.sha256, k);
  // and so is the state it saved for the next night
  const state = readdirSync(join(full.dir, 'state'))
    .filter((f) => f.startsWith('airframe'))
    .sort();
  assert.deepEqual(state, ['airframe-operators.parquet', 'airframe-routes.parquet', 'airframes.parquet']);
  for (const f of state) {
    const [a, b] = [night, full].map((w) => `read_parquet('${join(w.dir, 'state', f)}')`);
    const rows = await db.runAndReadAll(
      `SELECT (SELECT count(*) FROM ${a}), (SELECT count(*) FROM ((SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b}) UNION ALL (SELECT * FROM ${b} EXCEPT ALL SELECT * FROM ${a})))`,
    );
    const [n, differ] = rows.getRows()[0]!.map(Number);
    assert.ok(n! > 0, `state/${f} has rows`);
    assert.equal(differ, 0, `state/${f}: ${differ} of ${n} rows differ`);
  }
});
