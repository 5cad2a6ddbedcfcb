import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cacheText, routesTable } from '../../../docs/gen/route-table.ts';
import { OPERATIONS } from '../../../schemas/operations.ts';

test("Cache-Control is said in lifetimes: the browser's, then the edge's where it differs; never for no-store", () => {
  assert.equal(cacheText('public, max-age=5, s-maxage=10'), '5 s, edge 10 s');
  assert.equal(cacheText('public, max-age=3600, s-maxage=3600'), '1 h');
  assert.equal(cacheText('public, max-age=300, s-maxage=300'), '5 min');
  assert.equal(cacheText('no-store'), 'never');
  assert.equal(cacheText('private, no-store'), 'never (private)');
  assert.throws(() => cacheText('public'), /expected max-age and s-maxage/);
});

test("the routes table has a row for every operation, with its bucket's limit", () => {
  const rows = routesTable().split('\n').slice(2);
  assert.equal(rows.length, OPERATIONS.length);
  assert.ok(rows.includes('| `/v1/now` | Counts of the live snapshot | `now` | 600 | 5 s, edge 10 s | stable |'), 'the /v1/now row');
  assert.ok(
    rows.some((r) => r.startsWith('| `/healthz` |') && r.includes('| unlimited | never |')),
    'the /healthz row: unlimited, never cached',
  );
});
