import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, writeFile, copyFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, gunzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { refresh, type RefreshConfig } from '../../../build/reference/refresh.ts';

const SMALL = ['sources.json', 'alliances.json', 'vrs-standing-data/code-blocks.csv', 'vrs-standing-data/airlines.csv'];

// a small snapshot (the big files are absent: refresh keeps what --from does not bring)
async function snapshot(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'refdata-to-'));
  await mkdir(join(dir, 'vrs-standing-data'));
  for (const f of SMALL) await copyFile(join('data/ref', f), join(dir, f));
  return dir;
}

async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) {
      const p = join(e.parentPath ?? (e as any).path, e.name);
      out[p.slice(dir.length)] = (await readFile(p)).toString('base64');
    }
  }
  return out;
}

const cfg = (from: string, to: string, over: Partial<RefreshConfig> = {}): RefreshConfig => ({
  from,
  to,
  date: '',
  dryRun: false,
  allowShrink: false,
  maxSkipped: 0.01,
  ...over,
});
const quiet = () => {};

test('a good download is copied, gzipped where the snapshot keeps .gz, and its sources dated', async () => {
  const to = await snapshot();
  const from = await mkdtemp(join(tmpdir(), 'refdata-from-'));
  await mkdir(join(from, 'vrs-standing-data'));
  const blocks = (await readFile('data/ref/vrs-standing-data/code-blocks.csv', 'utf8')) + 'F00000,F00FFF,4096,F00000,FFF000,0,XX\n';
  await writeFile(join(from, 'vrs-standing-data/code-blocks.csv'), blocks);
  // given uncompressed although the snapshot keeps it gzipped
  const aircraft =
    'ICAO,Registration,ModelICAO,Manufacturer,Model,ManufacturerAndModel,IsPrivateOperator,Operator,AirlineCode,SerialNumber,YearBuilt\nABC123,N1,C172,Cessna,172,Cessna 172,1,Private,,1,1970\n';
  await writeFile(join(from, 'vrs-standing-data/aircraft.csv'), aircraft);
  await copyFile('data/ref/alliances.json', join(from, 'alliances.json'));

  const lines: string[] = [];
  const result = await refresh(cfg(from, to), '2030-01-02', (l) => lines.push(l));
  assert.equal(result.ok, true);
  const by = Object.fromEntries(result.files.map((f) => [f.path, f]));
  assert.deepEqual(by['vrs-standing-data/code-blocks.csv'], { path: 'vrs-standing-data/code-blocks.csv', status: 'changed', before: 811, after: 812 });
  assert.equal(by['vrs-standing-data/aircraft.csv.gz']!.status, 'changed');
  assert.equal(by['alliances.json']!.status, 'unchanged');
  assert.equal(by['ourairports/airports.csv.gz']!.status, 'absent');
  assert.equal(await readFile(join(to, 'vrs-standing-data/code-blocks.csv'), 'utf8'), blocks);
  assert.equal(gunzipSync(await readFile(join(to, 'vrs-standing-data/aircraft.csv.gz'))).toString(), aircraft);
  const sources = JSON.parse(await readFile(join(to, 'sources.json'), 'utf8'));
  const dates = Object.fromEntries(sources.map((s: any) => [s.id, s.retrieved]));
  assert.equal(dates['vrs-standing-data'], '2030-01-02');
  assert.equal(dates.alliances, '2030-01-02');
  assert.notEqual(dates.ourairports, '2030-01-02');
  assert.ok(
    lines.some((l) => /changed\s+vrs-standing-data\/code-blocks.csv\s+rows 811 -> 812/.test(l)),
    'lines.some((l) => /changed\\s+vrs-standing-data\\/code-blocks.csv\\s+rows 811 -> 812/.test(l))',
  );
  await rm(to, { recursive: true });
  await rm(from, { recursive: true });
});

test('one broken file refuses the whole refresh and leaves the snapshot byte for byte as it was', async () => {
  const to = await snapshot();
  const before = await tree(to);
  const from = await mkdtemp(join(tmpdir(), 'refdata-from-'));
  await mkdir(join(from, 'vrs-standing-data'));
  // a good change alongside the broken file must not be applied either
  await writeFile(
    join(from, 'vrs-standing-data/code-blocks.csv'),
    (await readFile('data/ref/vrs-standing-data/code-blocks.csv', 'utf8')) + 'F00000,F00FFF,4096,F00000,FFF000,0,XX\n',
  );
  const broken: [string, string | Buffer][] = [
    ['vrs-standing-data/airlines.csv', 'Code,Name,ICAO\nAB,Ok,ABC\n'], // a column missing
    ['alliances.json', '{"as_of":"2025-06-30","alliances":[{"slug":"x"}]}'],
    ['vrs-standing-data/routes.csv.gz', gzipSync('Callsign,Code,Number,AirlineCode,AirportCodes\n' + 'ABC1,ABC,1,ABC,KJFK\n'.repeat(10))], // every row malformed
  ];
  for (const [path, bytes] of broken) {
    await writeFile(join(from, path), bytes);
    const lines: string[] = [];
    const result = await refresh(cfg(from, to), '2030-01-02', (l) => lines.push(l));
    assert.equal(result.ok, false, path);
    assert.equal(result.files.find((f) => f.path === path)!.status, 'refused', path);
    assert.deepEqual(await tree(to), before, path);
    assert.ok(
      lines.some((l) => l.startsWith('refused')),
      path,
    );
    await rm(join(from, path));
  }
  await rm(to, { recursive: true });
  await rm(from, { recursive: true });
});

test('a file that lost half its rows is refused unless --allow-shrink; too many malformed rows are refused', async () => {
  const to = await snapshot();
  const from = await mkdtemp(join(tmpdir(), 'refdata-from-'));
  await mkdir(join(from, 'vrs-standing-data'));
  const lines = (await readFile('data/ref/vrs-standing-data/airlines.csv', 'utf8')).split('\n');
  await writeFile(join(from, 'vrs-standing-data/airlines.csv'), lines.slice(0, 100).join('\n') + '\n');
  assert.equal((await refresh(cfg(from, to), '2030-01-02', quiet)).ok, false);
  assert.equal((await refresh(cfg(from, to, { dryRun: true, allowShrink: true }), '2030-01-02', quiet)).ok, true);
  // dry run wrote nothing
  assert.equal((await readFile(join(to, 'vrs-standing-data/airlines.csv'), 'utf8')).split('\n').length, lines.length);
  const noisy = lines
    .slice(0, 1000)
    .concat(Array.from({ length: 20 }, () => 'X,Bad,AB1,,,'))
    .join('\n');
  await writeFile(join(from, 'vrs-standing-data/airlines.csv'), noisy);
  const r = await refresh(cfg(from, to, { allowShrink: true }), '2030-01-02', quiet);
  assert.equal(r.ok, false);
  assert.match(r.files.find((f) => f.path === 'vrs-standing-data/airlines.csv')!.problem!, /20 of 1019 rows malformed/);
  await rm(to, { recursive: true });
  await rm(from, { recursive: true });
});

test('the command has --help and refuses to run without --from', () => {
  const help = spawnSync(process.execPath, ['--import', 'tsx', 'build/reference/refresh.ts', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--from <string>/);
  assert.match(help.stdout, /--allow-shrink/);
  const none = spawnSync(process.execPath, ['--import', 'tsx', 'build/reference/refresh.ts'], { encoding: 'utf8' });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /--from: is required/);
  const bad = spawnSync(process.execPath, ['--import', 'tsx', 'build/reference/refresh.ts', '--from', '/x', '--date', '2030/01/02'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--date: must be YYYY-MM-DD/);
});
