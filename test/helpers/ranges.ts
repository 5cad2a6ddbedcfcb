// the byte-range contract of the researchers' files, checked the same way against the live server
// and the nginx front: what a remote Parquet reader asks (HEAD, a suffix for the footer, then
// slices) comes back exactly, byte for byte, and what it must not get (a range past the end, a
// malformed one) is a 416 in the section-7 shape with the file's size.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { problems } from '../../schemas/index.ts';

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function ask(url: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h[k] = v;
        resolve({ status: res.statusCode ?? 0, headers: h, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Checks every range case on `url`, whose bytes are `file`. */
export async function checkRanges(url: string, file: Buffer): Promise<void> {
  const size = file.length;
  assert.ok(size > 64, 'a file long enough to slice');
  const head = await ask(url, {}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], String(size), 'HEAD gives the size without the body');
  assert.equal(head.body.length, 0);
  assert.equal(head.headers['accept-ranges'], 'bytes');
  const etag = head.headers.etag!;
  assert.match(etag, /^"[0-9a-f]+-[0-9a-f]+"$/);
  assert.ok(head.headers['last-modified'], "head.headers['last-modified']");

  const whole = await ask(url, { 'accept-encoding': 'gzip, br' });
  assert.equal(whole.status, 200);
  assert.deepEqual(whole.body, file, 'the whole file, as it is on disk');
  assert.equal(whole.headers['content-encoding'], undefined, "never encoded: a range must address the file's own bytes");
  assert.equal(whole.headers.etag, etag);

  const part = async (range: string, start: number, end: number, extra: Record<string, string> = {}) => {
    const r = await ask(url, { range, 'accept-encoding': 'gzip', ...extra });
    assert.equal(r.status, 206, range);
    assert.equal(r.headers['content-range'], `bytes ${start}-${end}/${size}`, range);
    assert.equal(r.headers['content-length'], String(end - start + 1), range);
    assert.deepEqual(r.body, file.subarray(start, end + 1), `${range}: exactly those bytes`);
    assert.equal(r.headers.etag, etag, `${range}: the version it came from`);
    assert.equal(r.headers['content-encoding'], undefined);
  };
  await part('bytes=0-3', 0, 3);
  assert.equal(file.subarray(0, 4).toString(), 'PAR1', 'a Parquet file');
  await part('bytes=-8', size - 8, size - 1);
  await part(`bytes=${size - 37}-${size - 5}`, size - 37, size - 5);
  await part('bytes=10-', 10, size - 1);
  await part(`bytes=${size - 3}-${size + 1000}`, size - 3, size - 1);
  await part(`bytes=-${size + 50}`, 0, size - 1);
  await part(`bytes=${size - 1}-${size - 1}`, size - 1, size - 1);
  await part('bytes=5-9', 5, 9, { 'if-range': etag });

  for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, 'bytes=-0', 'bytes=abc', 'bytes=9-5', 'bytes=-', 'bytes=1-2-3']) {
    const r = await ask(url, { range });
    assert.equal(r.status, 416, range);
    assert.equal(r.headers['content-range'], `bytes */${size}`, `${range}: the size, so the reader can ask again`);
    assert.deepEqual(problems('error', JSON.parse(r.body.toString())), [], `${range}: section-7 body`);
    assert.equal(JSON.parse(r.body.toString()).error, 'invalid_request');
    assert.match(r.headers['cache-control'] ?? '', /(^|, )no-store$/, `${range}: never cached`);
  }
  // ignored: another unit, several ranges (answered whole), a range under a stale If-Range
  const ignored: Record<string, string>[] = [
    { range: 'items=0-3' },
    { range: 'bytes=0-1,4-5' },
    { range: 'bytes=0-3', 'if-range': '"0-0"' },
    { range: 'bytes=0-3', 'if-range': 'Thu, 01 Jan 1970 00:00:00 GMT' },
  ];
  for (const headers of ignored) {
    const r = await ask(url, headers);
    assert.equal(r.status, 200, JSON.stringify(headers));
    assert.deepEqual(r.body, file, JSON.stringify(headers));
  }
  const cached = await ask(url, { 'if-none-match': etag });
  assert.equal(cached.status, 304, "the client's copy is current");
  assert.equal(cached.body.length, 0);
}

/** paths below /v1/bundles that name no file of the layout (given a day the log holds): each a section-7 404 */
export const malformedBundlePaths = (day: string): string[] => [
  '/v1/bundles/log/day=2026-13-01/legs.parquet', // not a date
  '/v1/bundles/log/day=2026-02-30/legs.parquet',
  '/v1/bundles/log/day=2026-11-19/legs.parquet', // a date the log does not hold
  `/v1/bundles/log/day=${day}/other.parquet`,
  `/v1/bundles/log/DAY=${day}/legs.parquet`,
  `/v1/bundles/log/day=${day}x/legs.parquet`,
  '/v1/bundles/log/..%2F..%2Fsecret.txt/legs.parquet',
  `/v1/bundles/log/day=${day}/..%2F..%2F..%2Fsecret.txt`,
  '/v1/bundles/log/%2E%2E/legs.parquet',
  '/v1/bundles/tables/flights.parquet',
  '/v1/bundles/tables/..%2Fsecret.txt',
  '/v1/bundles/tables/airframes.parquet.tmp',
  '/v1/bundles/secret.txt',
  '/v1/bundles/index.json',
  '/v1/bundles/readme',
  '/v1/bundles/%2E%2E',
  '/v1/bundles/daily/contrail-2026-11-21-0123456789ab.tar.gz',
  `/v1/bundles/log/day=${day}`,
];
