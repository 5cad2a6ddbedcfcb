// the demo's history banner prints a route URL only for a callsign whose route answers: the callsign
// that flew one route most often, else the next (docs/demo.md). a GA tail number flying many fields
// had been printed and then left out (404), so the banner showed no route at all.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LogWriter } from '../../build/log/write.ts';
import type { LegRow } from '../../build/log/legs.ts';
import { historyUrls } from '../../sim/demo-urls.ts';
import { NO_POSITIONS } from '../helpers/leg-row.ts';

process.env.TZ = 'UTC';

const DAY = '2025-06-02';
const T0 = Date.parse(`${DAY}T06:00:00Z`) / 1000;
let n = 0;
const leg = (hex: string, callsign: string, org: string, dst: string): LegRow => {
  const first = T0 + 3600 * n++;
  return {
    hex,
    callsign,
    reg: null,
    type: null,
    first_ts: first,
    last_ts: first + 1800,
    dep_ts: first + 60,
    arr_ts: first + 1700,
    org,
    dst,
    open: false,
    dep_runway: null,
    arr_runway: null,
    ...NO_POSITIONS,
  };
};

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function logOf(rows: LegRow[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-demo-urls-'));
  dirs.push(dir);
  const w = await LogWriter.open(dir, 1);
  try {
    await w.writeDay(DAY, rows);
  } finally {
    w.close();
  }
  return dir;
}

const REF = join(import.meta.dirname, '../fixtures/ref-small');
const byIdent = new Map([
  ['EGLL', { iata: 'LHR' }],
  ['KEWR', { iata: 'EWR' }],
]);
const routeOf = (urls: string[]) => urls.find((u) => u.startsWith('/v1/route/'));

describe("the demo's route URL", () => {
  // N968XJ: 6 legs over 6 different pairs (most legs in all, at most one per route); UAL15: 3 legs of
  // one route; DAL1: 4 legs of one route, whose route the server does not answer in the second case
  const rows = [
    ...['KAAA', 'KBBB', 'KCCC', 'KDDD', 'KEEE', 'KFFF'].map((f, i, all) => leg('a0a0a0', 'N968XJ', f, all[(i + 1) % all.length]!)),
    ...[1, 2, 3].map(() => leg('a1a1a1', 'UAL15', 'EGLL', 'KEWR')),
    ...[1, 2, 3, 4].map(() => leg('a2a2a2', 'DAL1', 'KATL', 'KJFK')),
  ];

  it('is the callsign that flew one route most often, not the one with most legs over many routes', async () => {
    const log = await logOf(rows);
    const asked: string[] = [];
    const urls = await historyUrls(log, REF, byIdent, null, async (p) => (asked.push(p), true));
    assert.equal(routeOf(urls), '/v1/route/DAL1');
    assert.deepEqual(asked, ['/v1/route/DAL1'], 'the first that answers is taken; no more are asked');
  });

  it('skips a callsign whose route does not answer and takes the next that does', async () => {
    const log = await logOf(rows);
    const urls = await historyUrls(log, REF, byIdent, null, async (p) => p !== '/v1/route/DAL1');
    assert.equal(routeOf(urls), '/v1/route/UAL15');
  });

  it('prints no route URL when none of the candidates answers (rather than one that 404s)', async () => {
    const log = await logOf(rows);
    const urls = await historyUrls(log, REF, byIdent, null, async () => false);
    assert.equal(routeOf(urls), undefined, urls.join(' '));
    assert.ok(urls.includes('/v1/estimated'), 'the other history URLs are still printed');
  });
});
