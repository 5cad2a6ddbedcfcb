import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCsv, skip, numberCell, intCell, RefdataError } from '../../../lib/reference/csv.ts';

const map = (get: (c: string) => string) => (get('b') === 'x' ? skip('b is x') : { a: get('a'), b: get('b') });

test('rows are mapped by header name and cells trimmed', () => {
  const { rows, count } = readCsv('t.csv', '\ufeffa,b\n 1 ,2\n"3,4",5\n', ['a', 'b'], map);
  assert.deepEqual(rows, [
    { a: '1', b: '2' },
    { a: '3,4', b: '5' },
  ]);
  assert.deepEqual(count, { file: 't.csv', rows: 2, skipped: 0, reasons: {} });
});

test('a row with the wrong number of cells is skipped and counted, the rest kept', () => {
  const { rows, count } = readCsv('t.csv', 'a,b\n1,2\n3\n4,5,6\n7,8\n', ['a', 'b'], map);
  assert.deepEqual(
    rows.map((r) => r.a),
    ['1', '7'],
  );
  assert.equal(count.skipped, 2);
  assert.deepEqual(count.reasons, { 'column count': 2 });
});

test('a row the mapper rejects is counted under its reason', () => {
  const { rows, count } = readCsv('t.csv', 'a,b\n1,x\n2,y\n', ['a', 'b'], map);
  assert.equal(rows.length, 1);
  assert.deepEqual(count.reasons, { 'b is x': 1 });
});

test('a broken quote is counted as a csv syntax skip instead of throwing', () => {
  const { count } = readCsv('t.csv', 'a,b\n1,2\n3,"4"x\n', ['a', 'b'], map);
  assert.equal(count.rows, 1);
  assert.ok(count.skipped >= 1, 'count.skipped >= 1');
  assert.ok(
    Object.keys(count.reasons).every((r) => r.startsWith('csv syntax')),
    "Object.keys(count.reasons).every((r) => r.startsWith('csv syntax'))",
  );
});

test('a file missing a required column is refused with the column named', () => {
  assert.throws(
    () => readCsv('t.csv', 'a,c\n1,2\n', ['a', 'b'], map),
    (e: Error) => e instanceof RefdataError && /missing column\(s\) b/.test(e.message),
  );
});

test('an empty file is refused', () => {
  assert.throws(() => readCsv('t.csv', '', ['a'], map), RefdataError);
});

test('number cells: empty is null, junk is undefined', () => {
  assert.equal(numberCell(''), null);
  assert.equal(numberCell('-12.5'), -12.5);
  assert.equal(numberCell('12x'), undefined);
  assert.equal(numberCell('NaN'), undefined);
  assert.equal(intCell('1999'), 1999);
  assert.equal(intCell('19.5'), undefined);
  assert.equal(intCell(''), null);
});
