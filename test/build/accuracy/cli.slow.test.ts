// the accuracy replay may follow only a traffic flow and traffic paths learned before the day it
// replays: what has seen the day would know where its aircraft went and flatter the figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../build/accuracy/cli.ts';
import { commit, stage } from '../../../build/publish/publish.ts';
import { readTrace, listDay } from '../../../build/history/scan.ts';
import { emptyFlow, encodeFlow, learnFlow } from '../../../lib/estimate/flow.ts';
import { encodePaths, learnPaths } from '../../../lib/estimate/paths.ts';
import { SAMPLE_TREE } from '../../helpers/history.ts';

process.env.TZ = 'UTC';
const DAY = '2023-08-30';

/** a published tree holding only a traffic flow (or traffic paths) learned from the sample day itself, dated `through` */
async function treeWithFlow(through: string, kind: 'flow' | 'paths' = 'flow'): Promise<string> {
  const field = emptyFlow();
  const tracks = [];
  for (const f of (await listDay(SAMPLE_TREE, DAY)).files) tracks.push((await readTrace(f.path)).points);
  const root = mkdtempSync(join(tmpdir(), 'contrail-acc-flow-'));
  const staged = stage(root, 'b1');
  if (kind === 'flow') {
    learnFlow(field, tracks);
    staged.writer.put('meta/flow', encodeFlow(field, through));
  } else
    staged.writer.put(
      'meta/paths',
      encodePaths(
        learnPaths(
          DAY,
          tracks.map((points) => ({ points })),
          () => null,
        ),
        through,
      ),
    );
  staged.writer.writeManifest({ build_id: 'b1', built_at: '2026-11-25T00:00:00Z', archive_through: null, window_days: 0, counts: {} });
  commit(root, staged);
  return root;
}

async function replay(root: string): Promise<{ lines: string[]; doc: { by_gap_min: Record<string, { median_km: number }> } }> {
  const out = join(mkdtempSync(join(tmpdir(), 'contrail-acc-out-')), 'acc.json');
  const lines: string[] = [];
  const code = await main(['--history', SAMPLE_TREE, '--day', DAY, '--artifacts', root, '--out', out], (l) => lines.push(l));
  assert.equal(code, 0, lines.join('\n'));
  return { lines, doc: JSON.parse(readFileSync(out, 'utf8')) };
}

test('a published flow that has learned the replayed day is not followed, and the log says so', async () => {
  const r = await replay(await treeWithFlow(DAY));
  assert.ok(
    r.lines.some((l) => l.includes(`has learned ${DAY}`) && l.includes('replaying without it')),
    r.lines.join('\n'),
  );
});

test('a flow learned before the day is followed (the same field, dated the day before, changes the figures)', async () => {
  const withFlow = await replay(await treeWithFlow('2023-08-29'));
  const without = await replay(await treeWithFlow(DAY));
  assert.ok(!withFlow.lines.some((l) => l.includes('replaying without it')), "!withFlow.lines.some((l) => l.includes('replaying without it'))");
  // the field was (dishonestly, for this test) learned from the very traces replayed: it must move the long-gap estimates
  assert.notDeepEqual(withFlow.doc.by_gap_min, without.doc.by_gap_min);
});

test('traffic paths that have learned the replayed day are not followed; learned before it, they are', async () => {
  const seen = await replay(await treeWithFlow(DAY, 'paths'));
  assert.ok(
    seen.lines.some((l) => l.includes(`traffic paths have learned ${DAY}`) && l.includes('replaying without it')),
    seen.lines.join('\n'),
  );
  const before = await replay(await treeWithFlow('2023-08-29', 'paths'));
  assert.ok(!before.lines.some((l) => l.includes('replaying without it')), "!before.lines.some((l) => l.includes('replaying without it'))");
  // the paths were (dishonestly, for this test) learned from the very traces replayed: they must move the long-gap estimates
  assert.notDeepEqual(before.doc.by_gap_min, seen.doc.by_gap_min);
});
