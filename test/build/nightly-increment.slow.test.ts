// a night that adds a day to the log (and drops the oldest from the window) builds only the
// airframes whose legs can have changed, folds the routes' log evidence, and folds the day into the schedules' saved counts (the
// dropped day subtracted, callsigns whose routes-table row changed counted again), as it does the
// airlines' counts: its published
// tree must equal, object for object, a fresh build over the same log (the closed days' flights and movements excepted: frozen,
// they are the previous version's). on a small simulated log where some airframes are heard only in the
// day that leaves the window and some only in the day that enters it, so a restriction that missed
// either kind would leave a stale document and fail the comparison.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parseConfig } from '../../lib/cli.ts';
import { runNightly } from '../../build/nightly.ts';
import { NIGHTLY_SPECS } from '../../build/nightly-config.ts';
import type { Progress } from '../../build/progress.ts';
import { currentVersion } from '../../artifacts/tree.ts';
import { openLog } from '../../build/log/read.ts';
import { dayFile } from '../../build/log/write.ts';
import { writeFastLog } from '../../sim/log.ts';
import { loadWorld } from '../../sim/world.ts';
import { ROOT } from '../helpers/processes.ts';
import { frozenTreeProblems } from '../helpers/frozen-days.ts';

process.env.TZ = 'UTC';
const REF = join(ROOT, 'test/fixtures/ref-small');

/** the hexes heard in each day of the log */
async function hexesByDay(log: string): Promise<Map<string, Set<string>>> {
  const l = await openLog(log, { threads: 1 });
  try {
    const out = new Map<string, Set<string>>();
    for (const r of await l.rows(`SELECT DISTINCT strftime(day, '%Y-%m-%d') AS day, hex FROM legs`)) {
      const day = r.day as string;
      if (!out.has(day)) out.set(day, new Set());
      out.get(day)!.add(r.hex as string);
    }
    return out;
  } finally {
    l.close();
  }
}

test('an increment builds only the airframes of the new and dropped days, folds the schedules, and publishes the tree a fresh build makes', {
  timeout: 240_000,
}, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'contrail-nightly-increment-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const log = join(tmp, 'log');
  const world = loadWorld({ ref: REF, routeRows: 0 });
  // more airframes than legs a day: many fly on one day of the four only
  const sim = { out: log, seed: 7, legsPerDay: 400, airframes: 3000, threads: 1 };
  await writeFastLog(world, { ...sim, start: '2025-06-01', days: 6 });
  const steps: string[] = [];
  const summaries: string[] = [];
  const said: string[] = [];
  const recording: Progress = { start: (name) => void steps.push(name), tick: () => {}, done: (s) => void summaries.push(s) };
  // one older version kept: the third night takes over the first one's folder (recycle.ts)
  const run = (artifacts: string, nowMs: number) => {
    const c = parseConfig(
      NIGHTLY_SPECS,
      ['--ref', REF, '--log', log, '--artifacts', artifacts, '--bundles', '', '--no-accuracy', '--skip-log', '--window-days', '5', '--keep', '1'],
      {},
    ).config;
    return runNightly(c, recording, (line) => void said.push(line), nowMs);
  };
  const nights = join(tmp, 'nights');
  const first = await run(nights, Date.UTC(2026, 10, 25, 3));
  const before = currentVersion(nights)!;
  assert.equal(first.archiveThrough, '2025-06-06');
  // the next day: 2025-06-07 enters the window, 2025-06-02 leaves it
  await writeFastLog(world, { ...sim, start: '2025-06-07', days: 1 });
  const nowMs = Date.UTC(2026, 10, 26, 3);
  steps.length = 0;
  summaries.length = 0;
  await run(nights, nowMs);
  const night = currentVersion(nights)!;
  // the routes' log evidence folded from the previous build's (build/steps/routes/evidence-fold.ts), not read from the window
  const evidence = summaries.find((s) => / callsigns heard \(/.test(s)) ?? '';
  assert.match(evidence, /^\d+ callsigns heard \(folded: 1 days added, 1 dropped, [1-9]\d* callsigns moved, \d+ groups' latest leg read again\)$/);
  // and the heard routes whose evidence the night did not move are kept unbuilt (the tree comparison below checks them)
  const keptHeard = /; \d+ unheard and unchanged, (\d+) heard with unmoved evidence, kept unbuilt\)/.exec(
    summaries.find((s) => s.includes('heard with unmoved evidence')) ?? '',
  );
  assert.ok(keptHeard && Number(keptHeard[1]) > 0, `heard routes kept: ${keptHeard?.[0]}`);
  // those routes' decisions were taken from the previous build (build/steps/routes/decisions.ts), their evidence not read
  const decide = summaries.find((s) => / decisions taken from the previous build\)$/.test(s)) ?? '';
  assert.match(decide, /; [1-9]\d* decisions taken from the previous build\)$/, `decisions reused: ${decide}`);
  const step = steps.find((s) => s.startsWith('airframes')) ?? '';
  const restricted = /^airframes \((\d+) with legs in the 1 new and 1 dropped days or a changed route\)$/.exec(step);
  assert.ok(restricted, `the increment took the restricted path: ${step}`);
  // and made most of those from their previous documents (build/steps/airframes/fold.ts): the comparison below checks them
  const afDone = summaries.find((s) => s.includes(' made from their previous documents)')) ?? summaries.join(' | ');
  const made = /; (\d+) made from their previous documents\)$/.exec(afDone);
  assert.ok(made && Number(made[1]) * 2 > Number(restricted[1]), `spliced: ${afDone} of ${restricted[1]}`);
  // the schedules fold the new day in, the dropped day out, and count the changed callsigns again
  const schedStep = steps.find((s) => s.startsWith('refdata: schedules (')) ?? '';
  const folded = /^refdata: schedules \(an increment: 1 days added, 1 dropped, (\d+) callsigns' routes changed; (\d+) routes touched\)$/.exec(schedStep);
  assert.ok(folded, `the schedules took the increment path: ${schedStep}`);
  assert.ok(Number(folded[1]) > 0, 'some routes-table rows changed, so their callsigns were counted again');
  const airlinesStep = steps.find((s) => s.startsWith('refdata: airlines (')) ?? '';
  assert.match(
    airlinesStep,
    /^refdata: airlines \(an increment: 1 days added, 1 dropped, [1-9]\d* callsigns' routes changed; \d+ callsign prefixes touched\)$/,
  );
  const fresh = join(tmp, 'fresh');
  await run(fresh, nowMs);
  const full = currentVersion(fresh)!;

  // the cases that make this test able to fail: airframes heard only in the dropped day, only in the new one
  const byDay = await hexesByDay(log);
  const only = (day: string, others: string[]) => [...byDay.get(day)!].filter((h) => others.every((o) => !byDay.get(o)!.has(h)));
  const between = ['2025-06-03', '2025-06-04', '2025-06-05', '2025-06-06'];
  const onlyDropped = only('2025-06-02', [...between, '2025-06-07']);
  const onlyNew = only('2025-06-07', ['2025-06-02', ...between]);
  assert.ok(onlyDropped.length >= 5 && onlyNew.length >= 5, `heard only in the dropped day: ${onlyDropped.length}, only in the new day: ${onlyNew.length}`);
  const doc = (v: typeof night, hex: string) => v.manifest.objects[`v1/airframes/${hex}`]?.sha256;
  for (const hex of [...onlyDropped, ...onlyNew]) assert.notEqual(doc(night, hex), doc(before, hex), `airframe ${hex} changed`);

  // object for object, the increment's tree is the fresh build's, but for the closed days' flights
  // and movements, which are the previous version's, not rewritten (frozen: docs/api.md)
  const frozen = frozenTreeProblems(before, night, full, ['2025-06-06', '2025-06-07']);
  assert.deepEqual(frozen.problems, []);
  assert.ok(frozen.counts.closed > 0 && frozen.counts.open > 0, `closed-day and open-day objects checked: ${JSON.stringify(frozen.counts)}`);
  console.log(`frozen days: ${JSON.stringify(frozen.counts)}`);
  // and the counts it saved for the next night are the fresh build's, row for row: a fold that
  // published the right documents but saved other counts would go wrong a night later
  const cmp = await (await DuckDBInstance.create(':memory:')).connect();
  const tables = readdirSync(join(full.dir, 'state'))
    .filter((f) => f.endsWith('.parquet'))
    .sort();
  assert.deepEqual(
    readdirSync(join(night.dir, 'state'))
      .filter((f) => f.endsWith('.parquet'))
      .sort(),
    tables,
  );
  for (const f of ['sc_keys.parquet', 'sc_routes.parquet', 'al_routes.parquet', 'ap_ends.parquet']) assert.ok(tables.includes(f), `state/${f} saved`);
  for (const f of tables) {
    const [a, b] = [night, full].map((v) => `read_parquet('${join(v.dir, 'state', f)}')`);
    const rows = await cmp.runAndReadAll(`SELECT (SELECT count(*) FROM ${a}) AS n,
      (SELECT count(*) FROM ((SELECT * FROM ${a} EXCEPT ALL SELECT * FROM ${b}) UNION ALL (SELECT * FROM ${b} EXCEPT ALL SELECT * FROM ${a}))) AS differ`);
    const [n, differing] = rows.getRows()[0]!.map(Number);
    assert.equal(differing, 0, `state/${f}: ${differing} of ${n} rows differ between the night's and a fresh build's`);
  }
  cmp.closeSync();
  // the comparison covers schedules of every kind: changed by the night, gone with the dropped day, new, untouched
  const sched = (v: typeof night) => Object.keys(v.manifest.objects).filter((k) => k.includes('/schedule/'));
  const was = new Set(sched(before));
  const changed = sched(night).filter((k) => was.has(k) && before.manifest.objects[k]!.sha256 !== night.manifest.objects[k]!.sha256);
  const gone = sched(before).filter((k) => !night.manifest.objects[k]);
  const added = sched(night).filter((k) => !was.has(k));
  const same = sched(night).length - changed.length - added.length;
  assert.ok(
    changed.length >= 50 && gone.length >= 5 && added.length >= 5 && same >= 50,
    `schedules changed ${changed.length}, gone ${gone.length}, new ${added.length}, unchanged ${same}`,
  );
  // and airlines whose counts the night moved, beside ones it did not
  const airlines = Object.keys(night.manifest.objects).filter((k) => /^v1\/refdata\/airlines\/[A-Z0-9]+$/.test(k));
  const movedAirlines = airlines.filter((k) => before.manifest.objects[k]?.sha256 !== night.manifest.objects[k]!.sha256);
  assert.ok(movedAirlines.length >= 10 && airlines.length - movedAirlines.length >= 10, `airlines changed ${movedAirlines.length} of ${airlines.length}`);
  console.log(
    `airlines changed ${movedAirlines.length} of ${airlines.length}; schedules changed ${changed.length}, gone ${gone.length}, new ${added.length}, unchanged ${same}`,
  );
  // and the restriction did something: fewer airframes aggregated than the window heard
  const heard = new Set([...byDay].filter(([d]) => d >= '2025-06-02').flatMap(([, h]) => [...h]));
  assert.ok(Number(restricted[1]) < heard.size, `${restricted[1]} aggregated of ${heard.size} heard`);

  // a day rewritten in place (late traces): its earlier legs are gone, so every airframe is aggregated
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const file = dayFile(log, '2025-06-05');
  await db.run(`COPY (SELECT * FROM read_parquet('${file}') OFFSET 1) TO '${file}.new' (FORMAT parquet)`);
  db.closeSync();
  renameSync(`${file}.new`, file);
  steps.length = 0;
  summaries.length = 0;
  await run(nights, Date.UTC(2026, 10, 27, 3));
  assert.ok(steps.includes('airframes'), `the full path: ${steps.find((s) => s.startsWith('airframes'))}`);
  assert.match(
    summaries.find((s) => / callsigns heard \(/.test(s)) ?? '',
    /callsigns heard \(counted from the window's legs: the log days since the previous build are not known\)$/,
  );
  // that night took over the first night's folder: the objects the second night changed and the third kept were linked in
  const third = currentVersion(nights)!;
  assert.match(
    said.find((l) => l.startsWith('publish: build ')) ?? said.join('\n'),
    new RegExp(
      `^publish: build ${before.id} taken over \\(against build ${night.id}: \\d+ objects added, [1-9]\\d* changed, \\d+ removed; [1-9]\\d* of them kept tonight and linked from it; \\d+ written into files those links set aside, not new ones\\); its check \\(its names sealed, not walked\\)`,
    ),
  );
  assert.deepEqual(
    readdirSync(join(nights, 'versions'))
      .filter((n) => !n.startsWith('.trash-'))
      .sort(),
    [night.id, third.id].sort(),
  );
  // and its folder holds exactly its manifest's objects, each with the bytes the manifest names
  const files = new Set<string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(join(third.dir, rel), { withFileTypes: true })) (e.isDirectory() ? walk : (f: string) => files.add(f))(`${rel}/${e.name}`);
  };
  for (const root of ['v1', 'meta']) walk(root);
  assert.deepEqual(
    [...files].sort(),
    Object.keys(third.manifest.objects)
      .map((k) => `${k}.gz`)
      .sort(),
  );
  const wrong = Object.entries(third.manifest.objects).filter(
    ([k, e]) =>
      createHash('sha256')
        .update(gunzipSync(readFileSync(join(third.dir, `${k}.gz`))))
        .digest('hex') !== e.sha256,
  );
  assert.deepEqual(
    wrong.map(([k]) => k),
    [],
    "every object's bytes are the ones its manifest names",
  );
});
