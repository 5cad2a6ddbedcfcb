import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { TraceReadError, addDays, dayStart, decodeTrace, isGzip, listDay, listDays, readTrace, selectDays } from '../../../build/history/scan.ts';
import { SAMPLE_TREE, putFile, tempDir, tracePath } from '../../helpers/history.ts';
import { isDay } from '../../../lib/localtime.ts';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tmp = () => {
  const d = tempDir('contrail-scan-');
  dirs.push(d);
  return d;
};

describe('day names', () => {
  it('accepts real calendar days only', () => {
    for (const ok of ['2023-08-20', '2024-02-29', '2000-01-01']) assert.equal(isDay(ok), true, ok);
    for (const bad of ['2023-02-30', '2023-13-01', '2023-8-20', '20230820', '', '2023-08-20T00:00:00Z', ' 2023-08-20', '2023-02-29']) {
      assert.equal(isDay(bad), false, bad);
    }
  });

  it('steps days across month and year ends in UTC', () => {
    assert.equal(addDays('2024-03-01', -1), '2024-02-29');
    assert.equal(addDays('2023-12-31', 1), '2024-01-01');
    assert.equal(dayStart('2025-02-05'), 1738713600);
  });
});

describe('listDays / selectDays', () => {
  it('lists YYYY/MM/DD folders holding traces/, oldest first, and nothing else', async () => {
    const root = tmp();
    for (const d of ['2024/01/02', '2023/12/31', '2024/01/01']) mkdirSync(join(root, d, 'traces'), { recursive: true });
    mkdirSync(join(root, '2024/01/03'), { recursive: true }); // no traces/ folder
    mkdirSync(join(root, '2023/02/30/traces'), { recursive: true }); // not a date
    mkdirSync(join(root, 'tmp/01/01/traces'), { recursive: true });
    mkdirSync(join(root, '2024/1/05/traces'), { recursive: true });
    assert.deepEqual(await listDays(root), ['2023-12-31', '2024-01-01', '2024-01-02']);
    assert.deepEqual(await listDays(SAMPLE_TREE), ['2023-08-30']);
    assert.deepEqual(await listDays(join(root, 'missing')), []);
  });

  it('selects the newest N, an inclusive range, or all', () => {
    const present = ['2024-01-03', '2024-01-01', '2024-01-02'];
    assert.deepEqual(selectDays(present, { days: 2 }), ['2024-01-02', '2024-01-03']);
    assert.deepEqual(selectDays(present, { days: 9 }), ['2024-01-01', '2024-01-02', '2024-01-03']);
    assert.deepEqual(selectDays(present, { days: 0 }), []);
    assert.deepEqual(selectDays(present, { from: '2024-01-02', to: '2024-01-02' }), ['2024-01-02']);
    assert.deepEqual(selectDays(present, { from: '2023-12-01', to: '2024-01-02' }), ['2024-01-01', '2024-01-02']);
    assert.deepEqual(selectDays(present, { from: '2025-01-01', to: '2025-01-31' }), []);
    assert.deepEqual(selectDays(present, { all: true }), ['2024-01-01', '2024-01-02', '2024-01-03']);
  });
});

describe('listDay', () => {
  it('lists the sample day sorted by hex', async () => {
    const l = await listDay(SAMPLE_TREE, '2023-08-30');
    assert.equal(l.files.length, 22);
    assert.deepEqual(l.skipped, []);
    const hexes = l.files.map((f) => f.hex);
    assert.deepEqual(hexes, [...hexes].sort());
    assert.ok(hexes.includes('a3c78c'), "hexes.includes('a3c78c')");
  });

  it('reports bad names, misfiled files and non-ICAO addresses instead of listing them', async () => {
    const root = tmp();
    const day = '2024-01-01';
    putFile(tracePath(root, day, 'abcdef'), '{}');
    putFile(tracePath(root, day, 'ABCDEF').replace('/EF/', '/ef/').replace('ABCDEF', 'ABCDE0'), '{}'); // misfiled + upper case
    putFile(join(root, '2024/01/01/traces/ef/trace_full_abcdef.json.tmp'), '{}');
    putFile(join(root, '2024/01/01/traces/ef/trace_full_abcdeg.json'), '{}');
    putFile(join(root, '2024/01/01/traces/ef/trace_full_ef.json'), '{}');
    putFile(tracePath(root, day, '~0000ef'), '{}');
    putFile(tracePath(root, day, 'A000EF').replace('/EF/', '/ef/'), '{}'); // upper-case hex, right folder
    const l = await listDay(root, day);
    assert.deepEqual(
      l.files.map((f) => f.hex),
      ['a000ef', 'abcdef'],
    );
    assert.deepEqual(
      l.skipped.map((s) => [s.path.split('/').slice(-2).join('/'), s.reason]).sort(),
      [
        ['ef/trace_full_~0000ef.json', 'non_icao'],
        ['ef/trace_full_ABCDE0.json', 'bad_name'],
        ['ef/trace_full_abcdef.json.tmp', 'bad_name'],
        ['ef/trace_full_abcdeg.json', 'bad_name'],
        ['ef/trace_full_ef.json', 'bad_name'],
      ].sort(),
    );
  });
});

describe('decodeTrace / readTrace', () => {
  const file = tracePath(SAMPLE_TREE, '2023-08-30', 'a3c78c');
  const gz = readFileSync(file);

  it('reads gzip bytes under a .json name and the same document as plain JSON', () => {
    assert.equal(isGzip(gz), true);
    const a = decodeTrace(gz, file);
    const b = decodeTrace(gunzipSync(gz), file);
    assert.equal(a.hex, 'a3c78c');
    assert.equal(a.reg, 'N3423Q');
    assert.ok(a.points.length > 400, 'a.points.length > 400');
    assert.deepEqual(b, a);
  });

  const reasonOf = (bytes: Buffer | string) => {
    try {
      decodeTrace(Buffer.from(bytes), '/x/trace_full_a3c78c.json');
      return 'decoded';
    } catch (e) {
      assert.ok(e instanceof TraceReadError, 'e instanceof TraceReadError');
      assert.match(e.message, /^\/x\/trace_full_a3c78c\.json: /, 'the message names the file');
      return e.reason;
    }
  };

  it('calls truncated gzip, gzip of garbage and broken JSON corrupt', () => {
    assert.equal(reasonOf(gz.subarray(0, 100)), 'corrupt');
    assert.equal(reasonOf(Buffer.concat([gz.subarray(0, 10), Buffer.alloc(50, 7)])), 'corrupt');
    assert.equal(reasonOf(gzipSync('{"icao": "a3c78c", ')), 'corrupt');
    assert.equal(reasonOf(''), 'corrupt');
    assert.equal(reasonOf('\u0000\u0001'), 'corrupt');
  });

  it('calls valid JSON that is not a trace_full not_trace', () => {
    assert.equal(reasonOf('[]'), 'not_trace');
    assert.equal(reasonOf('null'), 'not_trace');
    assert.equal(reasonOf('{"aircraft": []}'), 'not_trace');
    assert.equal(reasonOf(gzipSync(JSON.stringify({ icao: 'a3c78c', timestamp: 'x', trace: [] }))), 'not_trace');
  });

  it('calls a missing file unreadable', async () => {
    await assert.rejects(readTrace(join(tmp(), 'nope.json')), (e: unknown) => e instanceof TraceReadError && e.reason === 'unreadable');
  });
});
