// the gate every step's reuse goes through (build/steps/reuse.ts): a rule of a step's declaration
// may read the previous build when tonight has what it needs: the build itself, the log days when
// the rule needs them, and every file of its state. each rule of the pipeline, file by file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LogDays } from '../../../build/steps/context.ts';
import { daysOf, previousFor, rebuilds } from '../../../build/steps/reuse.ts';
import { PIPELINE } from '../../../build/steps/pipeline.ts';
import { AIRPORTS_STEP } from '../../../build/steps/airports/step.ts';

const DAYS: LogDays = { added: ['2025-06-07'], dropped: [{ day: '2025-06-02', file: '/log/day=2025-06-02/legs.parquet' }] };

test('a rule reads the previous build only with every file it declares, and the log days when it needs them', (t) => {
  const rules = PIPELINE.flatMap((s) => Object.entries(s.reuse).map(([name, rule]) => ({ name: `${s.name} ${name}`, rule })));
  assert.equal(rules.length, 11);
  for (const { name, rule } of rules) {
    const dir = mkdtempSync(join(tmpdir(), 'contrail-reuse-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    for (const f of rule.state) {
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), '');
    }
    assert.deepEqual(previousFor({ reuse: dir, logDays: DAYS }, rule), { dir, days: DAYS }, name);
    assert.deepEqual(previousFor({ reuse: null, logDays: DAYS }, rule), { why: 'no previous build to reuse' }, name);
    assert.deepEqual(
      previousFor({ reuse: dir, logDays: null }, rule),
      rule.logDays ? { why: 'the log days since the previous build are not known' } : { dir, days: null },
      name,
    );
    for (const f of rule.state) {
      rmSync(join(dir, f));
      assert.deepEqual(previousFor({ reuse: dir, logDays: DAYS }, rule), { why: `the previous build saved no ${rule.holds}` }, `${name} without ${f}`);
      writeFileSync(join(dir, f), '');
    }
  }
});

test('a rule takes in the days of the changes it declares', () => {
  const rule = AIRPORTS_STEP.reuse.documents;
  const totals = AIRPORTS_STEP.reuse.totals;
  assert.ok(rebuilds(rule, 'board-days') && !rebuilds(totals, 'changed-routes'), 'airports rebuild on board days; the totals are not routed');
  assert.deepEqual(daysOf(rule, DAYS), DAYS);
  assert.deepEqual(daysOf({ ...rule, rebuild: ['added-days'] }, DAYS), { added: DAYS.added, dropped: [] });
  assert.deepEqual(daysOf({ ...rule, rebuild: ['dropped-days', 'changed-routes'] }, DAYS), { added: [], dropped: DAYS.dropped });
});
