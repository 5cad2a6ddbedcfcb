// the write workers (build/publish/write-pool.ts) against the writer's own thread: the same objects,
// the same bytes on disk, the same manifest; a failed write fails the build with its key named;
// nothing is read or published before every write is on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ArtifactWriter, type PreviousVersion, type WriterOptions } from '../../../build/publish/writer.ts';
import { NAMES_SEAL } from '../../../build/publish/names-seal.ts';
import { rng } from '../../../lib/random.ts';

const meta = { build_id: 'b', built_at: '2026-11-25T03:00:00.000Z', archive_through: '2026-11-24', window_days: 1, counts: {} };

/** seeded documents of any schema-valid kind: small ones, and big ones that take the other gzip setting */
function docs(seed: number, n: number): [string, unknown][] {
  const r = rng('write-pool', seed);
  return Array.from({ length: n }, (_, i) => {
    const detail = 'x'.repeat(i % 10 === 0 ? 5000 + r.int(3000) : r.int(200));
    return [`v1/x/${i % 7}/${i}`, { error: 'not_found', detail: `${i} ${r.int(3)} ${detail}` }];
  });
}

/** every file of a version folder and its bytes, but the seal on its names (state/names-seal.json: inodes and times, a folder's own) */
function tree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (relative(dir, p) !== NAMES_SEAL) out.set(relative(dir, p), readFileSync(p).toString('base64'));
    }
  };
  walk(dir);
  return out;
}

async function build(dir: string, items: [string, unknown][], opts: WriterOptions, previous: PreviousVersion | null = null) {
  const w = new ArtifactWriter(dir, previous, opts);
  // what the builders do: put in long synchronous runs, drain now and then
  for (let i = 0; i < items.length; i++) {
    w.putBytes(items[i]![0], JSON.stringify(items[i]![1]));
    if (i % 100 === 99) await w.drain();
  }
  await w.flush();
  const manifest = w.writeManifest(meta);
  await w.close();
  return { w, manifest };
}

test('the workers write the same files and the same manifest as the writer thread, first build and next night', async () => {
  const root = mkdtempSync(join(tmpdir(), 'contrail-pool-'));
  const night1 = docs(1, 1500);
  // night 2: a third of the documents change, some are gone, some are new
  const night2: [string, unknown][] = [
    ...night1.filter((_, i) => i % 5 !== 0).map(([k, d], i): [string, unknown] => [k, i % 3 === 0 ? { ...(d as object), detail: `changed ${i}` } : d]),
    ...docs(2, 200).map(([k, d]): [string, unknown] => [`new/${k}`.replace('new/v1/x', 'v1/y'), d]),
  ];
  const results: Record<string, ReturnType<typeof tree>[]> = {};
  const stats: Record<string, unknown[]> = {};
  for (const workers of [0, 1, 2]) {
    const a = await build(join(root, `w${workers}`, 'a'), night1, { workers });
    const b = await build(join(root, `w${workers}`, 'b'), night2, { workers }, { dir: join(root, `w${workers}`, 'a'), objects: a.manifest.objects });
    results[workers] = [tree(join(root, `w${workers}`, 'a')), tree(join(root, `w${workers}`, 'b'))];
    stats[workers] = [a.w.stats, b.w.stats, a.manifest.objects.toRecord(), b.manifest.objects.toRecord(), a.w.sealed, b.w.sealed];
  }
  const [a0, b0] = results[0]!;
  assert.equal(a0!.size, 1500 + 2, 'every object plus manifest.json and version.json');
  assert.deepEqual(stats[0]!.slice(4), [true, true], "both versions' names sealed");
  const s0 = stats[0]![1] as { written: number; linked: number; removed: number };
  assert.ok(s0.written > 300 && s0.linked > 500 && s0.removed === 300, JSON.stringify(s0));
  for (const workers of [1, 2]) {
    assert.deepEqual(stats[workers], stats[0], `stats and manifests with ${workers} workers`);
    assert.deepEqual(results[workers]![0], a0, `first build's bytes with ${workers} workers`);
    assert.deepEqual(results[workers]![1], b0, `next night's bytes with ${workers} workers`);
  }
  // the next night left the first version's files as they were (written aside, renamed over the link)
  assert.deepEqual(tree(join(root, 'w2', 'a')), a0);
});

test('a write that fails fails the build with its key named, and nothing more is accepted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-pool-'));
  mkdirSync(join(dir, 'v1', 'x', '3.gz'), { recursive: true }); // a folder where the new file must go: its name exists (EEXIST)
  const w = new ArtifactWriter(dir, null, { workers: 2 });
  for (let i = 0; i < 10; i++) w.putBytes(`v1/x/${i}`, JSON.stringify({ error: 'not_found', detail: String(i) }));
  await assert.rejects(w.flush(), /cannot write artifact v1\/x\/3: EEXIST/);
  assert.throws(() => w.putBytes('v1/x/99', '{}'), /cannot write artifact v1\/x\/3/);
  await assert.rejects(w.drain(), /cannot write artifact v1\/x\/3/);
  await w.close();
});

test('nothing is read or published before every write is on disk; after flush the manifest is complete', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-pool-'));
  const w = new ArtifactWriter(dir, null, { workers: 1 });
  const items = docs(3, 300);
  for (const [k, d] of items) w.putBytes(k, JSON.stringify(d));
  assert.throws(() => w.writeManifest(meta), /objects are still being written: await writer\.flush\(\) before writeManifest/);
  assert.throws(() => w.read('v1/x/0/0'), /await writer\.flush\(\) before read/);
  await w.flush();
  const m = w.writeManifest(meta);
  await w.close();
  const entries = Object.values(m.objects.toRecord());
  assert.equal(entries.length, 300);
  assert.ok(
    entries.every((e) => e.gzip_bytes > 0),
    'every gzip size is filled in',
  );
  assert.equal(
    w.stats.bytes,
    entries.reduce((n, e) => n + e.gzip_bytes, 0),
  );
  const k = 'v1/x/5/5';
  assert.equal(m.objects.get(k)!.gzip_bytes, statSync(join(dir, `${k}.gz`)).size);
  assert.deepEqual(w.read(k), items[5]![1]);
  assert.throws(() => w.putBytes('v1/x/1', '{}'), /the write workers are stopped/);
});
