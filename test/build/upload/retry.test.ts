// the upload's pure parts: which failures are retried and how long it waits, the in-flight bound,
// how a large file is split and the ETag S3 gives it, and the progress line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { backoffMs, describe, RequestFailed, retryable, withRetry } from '../../../build/upload/retry.ts';
import { limiter } from '../../../build/upload/limit.ts';
import { MAX_PARTS, multipartEtag, partsOf } from '../../../build/upload/multipart.ts';
import { progressLine } from '../../../build/upload/progress.ts';
import { mulberry32 } from '../../../lib/random.ts';

const s3Error = (status: number, name: string) => Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status } });
const netError = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

test('throttling, 5xx, timeouts and dropped connections are retried; client errors are not', () => {
  for (const e of [
    s3Error(503, 'SlowDown'),
    s3Error(429, 'TooManyRequests'),
    s3Error(500, 'InternalError'),
    s3Error(502, 'Unknown'),
    netError('ECONNRESET'),
    netError('EPIPE'),
    new Error('socket hang up'),
    Object.assign(new Error('t'), { name: 'TimeoutError' }),
  ]) {
    assert.equal(retryable(e), true, describe(e));
  }
  for (const e of [
    s3Error(403, 'AccessDenied'),
    s3Error(404, 'NoSuchBucket'),
    s3Error(400, 'InvalidArgument'),
    new Error('ENOENT: no such file'),
    null,
    'text',
  ])
    assert.equal(retryable(e), false, String(e));
  assert.equal(describe(s3Error(503, 'SlowDown')), '503 SlowDown');
  assert.equal(describe(netError('ECONNRESET')), 'ECONNRESET');
  assert.equal(describe(new Error('socket hang up')), 'socket hang up');
});

test('the back-off doubles from the base up to the cap, with full jitter', () => {
  const p = { baseMs: 100, capMs: 20_000 };
  assert.deepEqual(
    [1, 2, 3, 8, 9, 20].map((a) => backoffMs(a, p, () => 0.999999)),
    [99, 199, 399, 12799, 19999, 19999],
  );
  assert.deepEqual(
    [1, 5, 20].map((a) => backoffMs(a, p, () => 0)),
    [0, 0, 0],
  );
  const rand = mulberry32(3);
  const waits = Array.from({ length: 1000 }, () => backoffMs(4, p, rand));
  assert.ok(Math.min(...waits) < 80 && Math.max(...waits) > 720 && Math.max(...waits) < 800, 'spread over [0, 800)');
});

test('withRetry stops at the bound with an error naming the request, the attempts and the cause', async () => {
  const waits: number[] = [];
  const r = { policy: { retries: 3, baseMs: 100, capMs: 1000 }, rand: () => 0.5, sleep: async (ms: number) => void waits.push(ms) };
  let calls = 0;
  await assert.rejects(
    withRetry(
      'put a/b',
      async () => {
        calls++;
        throw s3Error(503, 'SlowDown');
      },
      r,
    ),
    (e: unknown) => e instanceof RequestFailed && e.message === 'put a/b: gave up after 4 attempts, last: 503 SlowDown' && e.attempts === 4,
  );
  assert.deepEqual([calls, waits], [4, [50, 100, 200]]);
  calls = 0;
  assert.equal(await withRetry('get m', async () => (++calls < 3 ? Promise.reject(netError('ECONNRESET')) : 'ok'), r), 'ok');
  assert.equal(calls, 3);
  await assert.rejects(
    withRetry('put x', async () => Promise.reject(s3Error(403, 'AccessDenied')), r),
    /^RequestFailed: put x: 403 AccessDenied \(not retried\)$/m,
  );
});

test('the limiter never lets more than n run at once and runs them all', async () => {
  const limit = limiter(3);
  let running = 0;
  let most = 0;
  const done: number[] = [];
  const rand = mulberry32(9);
  await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      limit(async () => {
        most = Math.max(most, ++running);
        for (let k = Math.floor(rand() * 5); k >= 0; k--) await Promise.resolve();
        running--;
        done.push(i);
        if (i === 7) throw new Error('a failure frees its slot');
      }).catch(() => {}),
    ),
  );
  assert.equal(most, 3);
  assert.equal(done.length, 40);
  assert.equal(running, 0);
});

test('a large file is split into parts of the part size, grown when 10,000 would not hold it', () => {
  assert.deepEqual(partsOf(20, 8), [
    { number: 1, offset: 0, length: 8 },
    { number: 2, offset: 8, length: 8 },
    { number: 3, offset: 16, length: 4 },
  ]);
  assert.deepEqual(
    partsOf(16, 8).map((p) => p.length),
    [8, 8],
  );
  const huge = partsOf(MAX_PARTS * 8 + 1, 8);
  assert.ok(huge.length <= MAX_PARTS, 'huge.length <= MAX_PARTS');
  assert.equal(
    huge.reduce((s, p) => s + p.length, 0),
    MAX_PARTS * 8 + 1,
  );
  assert.equal(huge[0]!.length, 9);
  // S3's multipart ETag: md5 of the concatenated binary md5s of the parts, then the part count
  const md5s = ['a', 'b'].map((x) => createHash('md5').update(x).digest());
  assert.equal(multipartEtag(md5s), `${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-2`);
  assert.match(multipartEtag(md5s), /^[0-9a-f]{32}-2$/);
});

test('the progress line gives objects done/total, MB and rates', () => {
  const t = { done: 1200, total: 5000, sent: 1150, skipped: 50, bytes: 3_100_000, totalBytes: 12_000_000, retries: 3 };
  assert.equal(progressLine(t, 2000), 'upload: 1200/5000 objects (24 %), 3.1/12.0 MB, 600 objects/s, 1.6 MB/s; 1150 sent, 50 already there, 3 retries');
  assert.match(progressLine({ ...t, done: 0, total: 0 }, 0), /^upload: 0\/0 objects \(100 %\)/);
});
