// the routes step's decisions kept for the next night (build/steps/routes/decisions.ts): what is
// written is read back the same, and a file that is missing or not what this code writes is never
// half-read: the night then decides every callsign (null).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readDecisions, writeDecisions, type PastDecision } from '../../../../build/steps/routes/decisions.ts';

const ENTRY = { org: 'ZRH', dst: 'LHR', org_ident: 'LSZH', dst_ident: 'EGLL', route_source: 'observed+catalog', org_seen: true, dst_seen: false } as const;
const DECISIONS: [string, PastDecision][] = [
  ['SWR318', { heard: true, outcome: 'observed+catalog', entry: ENTRY }],
  ['SWR7', { heard: false, outcome: 'catalog_rejected', entry: null }],
  ['HBXYZ', { heard: true, outcome: 'no_catalog', entry: null }],
];

test('decisions written by a build are read back as they were', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-decisions-'));
  writeDecisions(dir, DECISIONS);
  assert.deepEqual([...readDecisions(dir)!], DECISIONS);
  assert.equal(readDecisions(null), null, 'no previous build');
  assert.equal(readDecisions(mkdtempSync(join(tmpdir(), 'contrail-decisions-'))), null, 'a build that recorded none');
});

test('a malformed decisions file is refused whole (null), never half-read', () => {
  const row = ['SWR318', 1, 'observed', 'ZRH', 'LHR', 'LSZH', 'EGLL', 1, 1];
  const cases: [string, string][] = [
    ['not JSON', '{"format":1,"rows":['],
    ['another format', JSON.stringify({ format: 2, rows: [row] })],
    ['rows not a list', JSON.stringify({ format: 1, rows: {} })],
    ['a row of the wrong length', JSON.stringify({ format: 1, rows: [row.slice(0, 5)] })],
    ['a route_source that is no source', JSON.stringify({ format: 1, rows: [['SWR318', 1, 'rumour', 'ZRH', 'LHR', 'LSZH', 'EGLL', 1, 1]] })],
    ['a source without its entry', JSON.stringify({ format: 1, rows: [['SWR318', 1, 'observed']] })],
    ['heard not 0 or 1', JSON.stringify({ format: 1, rows: [['SWR318', true, 'no_catalog']] })],
    ['an empty callsign', JSON.stringify({ format: 1, rows: [['', 1, 'no_catalog']] })],
    ['an end missing', JSON.stringify({ format: 1, rows: [['SWR318', 1, 'observed', 'ZRH', null, 'LSZH', 'EGLL', 1, 1]] })],
    [
      'a callsign twice',
      JSON.stringify({
        format: 1,
        rows: [
          ['SWR7', 0, 'no_catalog'],
          ['SWR7', 0, 'catalog_rejected'],
        ],
      }),
    ],
    ['null', 'null'],
  ];
  for (const [why, text] of cases) {
    const dir = mkdtempSync(join(tmpdir(), 'contrail-decisions-'));
    mkdirSync(join(dir, 'state'));
    writeFileSync(join(dir, 'state', 'routes-decisions.json'), text);
    assert.equal(readDecisions(dir), null, why);
  }
});
