// the airports step reads the published timetables (build/steps/airports/timetables.ts): one file per
// airport for its local day; a malformed one is counted and reported, and the build goes on
process.env.TZ = 'UTC';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readTimetables } from '../../../../build/steps/airports/timetables.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'timetables');
const example = () => readFileSync(join(FIXTURES, 'ZRH', '2024-05-10.json'), 'utf8');

test('readTimetables counts and reports a malformed file and keeps going; a missing dir means none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-tt-'));
  mkdirSync(join(dir, 'ZRH'));
  mkdirSync(join(dir, 'GVA'));
  writeFileSync(join(dir, 'ZRH', '2024-05-10.json'), example());
  writeFileSync(join(dir, 'GVA', '2024-05-10.json'), '{"airport": "GVA",');
  const warnings: string[] = [];
  const scan = readTimetables(
    dir,
    [
      { iata: 'ZRH', tz: 'Europe/Zurich' },
      { iata: 'GVA', tz: 'Europe/Zurich' },
      { iata: 'LHR', tz: 'Europe/London' },
    ],
    Date.parse('2024-05-10T08:00:00Z'),
    (m) => warnings.push(m),
  );
  assert.deepEqual([...scan.byIata.keys()], ['ZRH']);
  assert.equal(scan.read, 2);
  assert.equal(scan.rejected, 1);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /rejected .*GVA.*2024-05-10\.json: not JSON/);
  const none = readTimetables(join(dir, 'nope'), [{ iata: 'ZRH', tz: 'Europe/Zurich' }], 0, (m) => warnings.push(m));
  assert.equal(none.byIata.size, 0);
  assert.match(warnings[1]!, /cannot read/);
  assert.equal(readTimetables(null, [{ iata: 'ZRH', tz: 'Europe/Zurich' }], 0).byIata.size, 0);
});
