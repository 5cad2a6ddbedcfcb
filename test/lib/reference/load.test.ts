import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { loadRefdata } from '../../../lib/reference/index.ts';
import { DATA_FILES } from '../../../lib/reference/files.ts';
import { parseSources } from '../../../lib/reference/sources.ts';
import { RefdataError } from '../../../lib/reference/csv.ts';

const ref = await loadRefdata('data/ref');

test('loadRefdata builds every table from the shipped snapshot and reports per-file counts', () => {
  assert.equal(ref.airports.lookup('DEN')?.ident, 'KDEN');
  assert.equal(ref.locator.locate(44.8806, -93.2177)?.iata, 'MSP');
  assert.equal(ref.airlines.flightNumberFromCallsign('DAL1234'), 'DL1234');
  assert.equal(ref.types.category('A320'), 'narrow');
  assert.equal(ref.registry.get('00800a')?.reg, 'ZS-ZEN');
  assert.equal(ref.codeBlocks.countryOfHex('a0b1c2'), 'US');
  assert.deepEqual(ref.catalog.route('AAC710'), ['KONT', 'KGSO']);
  assert.equal(ref.alliances.alliances.length, 3);
  const files = ref.counts.map((c) => c.file);
  assert.ok(files.includes('vrs-standing-data/routes.csv.gz'), "files.includes('vrs-standing-data/routes.csv.gz')");
  for (const c of ref.counts) assert.ok(c.rows > 0 && c.skipped <= c.rows / 100, c.file);
});

test('sources.json lists every shipped file, each with a license and credit, and every listed file exists', async () => {
  const listed = new Set(ref.sources.flatMap((s) => s.files));
  for (const df of DATA_FILES) assert.ok(listed.has(df.path), df.path);
  for (const p of listed) await access(join('data/ref', p));
  for (const s of ref.sources) {
    assert.ok(s.license && s.credit && s.upstream, 's.license && s.credit && s.upstream');
    // each source keeps its license text beside its data, except the compiled alliance facts
    if (s.id !== 'alliances')
      assert.ok(
        s.files.some((f) => /LICENSE/.test(f)),
        s.id,
      );
  }
  assert.equal(ref.sources.find((s) => s.id === 'flightgazer')?.credit, 'FlightGazer Airlines/Operator Database, ODbL 1.0');
});

test('a malformed sources.json is refused with the field named', () => {
  assert.throws(() => parseSources('{}'), RefdataError);
  assert.throws(() => parseSources('[{"id":"x"}]'), /\[0\]\.name must be a non-empty string/);
  assert.throws(
    () => parseSources('[{"id":"x","name":"n","license":"l","credit":"c","upstream":"u","files":[],"retrieved":"soon"}]'),
    /retrieved must be a date/,
  );
});
