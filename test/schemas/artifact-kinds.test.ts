import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACT_KINDS, fillTemplate, kindOfKey, routePattern, templateParams } from '../../schemas/artifact-kinds.ts';
import { OPERATIONS } from '../../schemas/operations.ts';
import { POLICIES } from '../../schemas/policy.ts';
import { SCHEMA_DIR } from '../../schemas/index.ts';
import { keys } from '../../artifacts/keys.ts';

test('every kind names a schema that exists and a bucket of spec 8 (or none, for meta/*)', () => {
  for (const [name, k] of Object.entries(ARTIFACT_KINDS)) {
    assert.ok(existsSync(join(SCHEMA_DIR, `${k.schema}.schema.json`)), `${name}: schemas/${k.schema}.schema.json`);
    if (k.url) assert.ok(k.bucket && POLICIES[k.bucket], `${name}: bucket ${k.bucket}`);
    else assert.equal(k.bucket, null, `${name}: a meta document has no bucket`);
  }
});

test("a public kind's key is its URL without the slash; every URL is an OpenAPI operation with the same schema and bucket", () => {
  for (const [name, k] of Object.entries(ARTIFACT_KINDS)) {
    if (!k.url) {
      assert.match(k.key, /^meta\//, name);
      continue;
    }
    assert.equal(k.key, k.url.slice(1), name);
    for (const url of [k.url, ...(k.aliases ?? [])]) {
      const op = OPERATIONS.find((o) => o.path === url);
      assert.ok(op, `${name}: ${url} is missing from schemas/operations.ts`);
      assert.deepEqual([op.bucket, op.response], [k.bucket, { schema: k.schema }], url);
    }
  }
});

test('keys round-trip: a filled key is recognised as its own kind, and nothing else is', () => {
  const samples: [string, string][] = [
    [keys.airframe('4b1814'), 'airframe'],
    [keys.alliance('star-alliance'), 'alliance'],
    [keys.allianceRoutes('star-alliance'), 'allianceRoutes'],
    [keys.refAirlines(), 'refAirlines'],
    [keys.refAirline('SWR'), 'refAirline'],
    [keys.refSchedule('SWR', 'ZRH', 'JFK'), 'refSchedule'],
    [keys.routesTable(), 'routesTable'],
    [keys.accuracy(), 'accuracy'],
  ];
  for (const [key, name] of samples) assert.equal(kindOfKey(key)?.name, name, key);
  for (const bad of ['v1/airframes', 'v1/airframes/4b1814/x', 'meta/other', 'v9/x', '', 'v1/alliances/a/b/routes']) assert.equal(kindOfKey(bad), null, bad);
});

test("templates: parameters in order, filled exactly, in the router's syntax", () => {
  assert.deepEqual(templateParams('/v1/refdata/airlines/{icao}/schedule/{org}/{dst}'), ['icao', 'org', 'dst']);
  assert.equal(fillTemplate('/a/{x}/b/{y}', ['1', '2']), '/a/1/b/2');
  assert.throws(() => fillTemplate('/a/{x}/b/{y}', ['1']), /too few values/);
  assert.throws(() => fillTemplate('/a/{x}', ['1', '2']), /2 values for 1 parameters/);
  assert.equal(routePattern('/v1/airframes/{hex}'), '/v1/airframes/:hex');
});

test('spec 1 rule 2: every history document a URL answers carries coverage = "observed"', () => {
  for (const [name, k] of Object.entries(ARTIFACT_KINDS)) {
    if (!k.url) continue;
    const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, `${k.schema}.schema.json`), 'utf8'));
    assert.ok(schema.required?.includes('coverage'), `${name}: schemas/${k.schema} must require coverage`);
    assert.equal(schema.properties?.coverage?.const, 'observed', `${name}: coverage is always "observed"`);
  }
});
