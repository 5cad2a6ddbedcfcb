// the reference nginx front (deploy/nginx/contrail.conf) over a tree whose flights and movements
// live in segments (artifacts/segments.ts): a day the version serves from a segment is sent from
// there through the version's link, gzipped as stored with the flights bucket's cache; a segment
// has no URL of its own. the live server is not started: a miss here would be a 502, not a 200.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpGet } from '../helpers/http.ts';
import { startFront, type Front } from '../helpers/nginx.ts';
import { freePort } from '../helpers/ports.ts';
import { policyFor } from '../../schemas/policy.ts';
import { DAYS, night } from '../helpers/segment-nights.ts';

let front: Front | null = null;

before(async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-front-seg-'));
  night(root, 'b1', DAYS.slice(0, 3));
  night(root, 'b2', DAYS);
  const bundles = join(root, 'bundles');
  mkdirSync(bundles);
  // when the test runs as root, nginx workers drop to nobody: the temp dirs (mode 0700) must be readable
  spawnSync('chmod', ['-R', 'a+rX', root]);
  // an upstream nobody listens on: only the tree answers
  front = await startFront({ live: [`127.0.0.1:${await freePort()}`], artifacts: root, bundles });
});

after(() => front?.stop());

const get = (path: string, gzip = true) => httpGet(`${front!.base}${path}`, { headers: gzip ? { 'accept-encoding': 'gzip' } : {} });

test("a closed day and tonight's day of flights are served from their segments, gzipped, with the flights cache", async () => {
  for (const [day, dst] of [
    ['2026-11-18', 'LCY'],
    ['2026-11-21', 'LHR'],
  ] as const) {
    const r = await get(`/v1/flights/4b1814/${day}`);
    assert.equal(r.status, 200, day);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.equal(r.headers['cache-control'], policyFor('flights').cache);
    const doc = JSON.parse(r.text) as { date: string; flights: { dst: string }[] };
    assert.deepEqual([doc.date, doc.flights[0]?.dst], [day, dst], 'the segment the version names: a closed day as it closed');
  }
  const plain = await get('/v1/flights/4b1814/2026-11-19', false);
  assert.equal(plain.status, 200);
  assert.equal((JSON.parse(plain.text) as { date: string }).date, '2026-11-19', 'decompressed for a client without gzip');
});

test('movements are served from their segment under both spellings', async () => {
  for (const code of ['ZRH', 'LSZH']) {
    const r = await get(`/v1/airports/${code}/movements/2026-11-20`);
    assert.equal(r.status, 200, code);
    assert.equal(r.headers['cache-control'], policyFor('flights').cache);
    assert.equal((JSON.parse(r.text) as { date: string }).date, '2026-11-20');
  }
});

test('a segment has no URL: its path answers a section-7 404 with no-store', async () => {
  for (const path of ['/segments/flights/2026-11-18/b1/4b1814', '/segments/flights/2026-11-18/4b1814']) {
    const r = await get(path, false);
    assert.equal(r.status, 404, path);
    assert.equal(r.headers['cache-control'], 'no-store', path);
    assert.equal((JSON.parse(r.text) as { error: string }).error, 'not_found', path);
  }
});
