// the nightly's replay and learning, one trace file at a time, must publish the bytes the earlier
// version made holding every track of the day: test/fixtures/accuracy-replay holds that version's
// output (main at 925240d, made by the script in test/fixtures/accuracy-replay) on the sample day with a bad file added.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replayAndLearn } from '../../../build/accuracy/night.ts';
import { listDay, readTrace } from '../../../build/history/scan.ts';
import type { Progress } from '../../../build/progress.ts';
import { decodeFlow, emptyFlow, encodeFlow, learnFlow } from '../../../lib/estimate/flow.ts';
import { decodePaths, encodePaths, learnPaths } from '../../../lib/estimate/paths.ts';
import { SAMPLE_TREE, TEST_AIRPORTS } from '../../helpers/history.ts';

process.env.TZ = 'UTC';
const DAY = '2023-08-30';
const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'accuracy-replay');
const BAD = '2023/08/30/traces/ff/trace_full_ffffff.json';

/** the sample day (22 real files) and one truncated file */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'contrail-night-'));
  cpSync(SAMPLE_TREE, root, { recursive: true });
  mkdirSync(join(root, dirname(BAD)), { recursive: true });
  writeFileSync(join(root, BAD), '{"icao": "ffffff", "trace": [[0, 1');
  return root;
}

/** a fixed destination per callsign (one of the test airports), so the replay and the paths use destinations */
const destOf = (cs: string) => {
  let h = 0;
  for (const ch of cs) h += ch.charCodeAt(0);
  const a = TEST_AIRPORTS[h % TEST_AIRPORTS.length]!;
  return { code: a[0], lat: a[1], lon: a[2] };
};

/** a flow and paths learned (as published, then read back) from the sample day, dated the day before */
async function learnedBefore() {
  const tracks = [];
  for (const f of (await listDay(SAMPLE_TREE, DAY)).files) tracks.push(await readTrace(f.path));
  const field = emptyFlow();
  learnFlow(
    field,
    tracks.map((t) => [...t.points].sort((a, b) => a.t - b.t)),
  );
  return {
    flow: decodeFlow(encodeFlow(field, '2023-08-29')),
    paths: decodePaths(encodePaths(learnPaths('2023-08-29', tracks, destOf), '2023-08-29')),
  };
}

function recorder(): Progress & { log: string[] } {
  const log: string[] = [];
  return { log, start: (s, total) => log.push(`start ${s} ${total}`), tick: (n = 1) => log.push(`tick ${n}`), done: (s) => log.push(`done ${s}`) };
}

const golden = (name: string) => readFileSync(join(GOLDEN, name), 'utf8');

for (const [name, dest, before] of [
  ['learned', destOf, learnedBefore],
  ['bare', () => null, async () => ({ flow: null, paths: null })],
] as const) {
  test(`${name}: the accuracy document, the flow and the paths are the bytes of the all-tracks version`, async () => {
    const progress = recorder();
    const r = await replayAndLearn(tree(), DAY, dest, await before(), progress);
    assert.equal(JSON.stringify(r.step.doc) + '\n', golden(`${name}.accuracy.json`));
    assert.equal(JSON.stringify(r.flow) + '\n', golden(`${name}.flow.json`));
    assert.equal(JSON.stringify(r.paths) + '\n', golden(`${name}.paths.json`));
    // what that version said of them (its run printed learned 2082, added 37, read 22, skipped 1)
    assert.deepEqual([r.flowLearned, r.pathsAdded, r.step.read, r.step.skipped.length], [2082, 37, 22, 1]);
    assert.ok(r.step.skipped[0]!.includes(BAD.split('/').pop()!), r.step.skipped.join('\n'));
    // one tick per file, the bad one too, against the day's file count
    assert.equal(progress.log[0], `start accuracy ${DAY} 23`);
    assert.equal(progress.log.filter((l) => l === 'tick 1').length, 23);
  });
}
