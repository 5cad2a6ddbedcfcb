// the fuzzer's inputs, seeded by its caller (fast-check): paths built from the operations table with
// hostile parameters, broken percent-encodings, queries, methods and headers. used by the
// reliability suite's fuzz test (test/reliability/fuzz.slow.test.ts) and the long run over both serving
// threads (bench/fuzz.ts).
import fc from 'fast-check';
import { OPERATIONS } from '../../schemas/operations.ts';

export const CODES = new Set([
  'not_found',
  'not_observed',
  'invalid_request',
  'rate_limited',
  'stale_snapshot',
  'artifact_unavailable',
  'upstream_unavailable',
  'internal_error',
]);

// a parameter value: plausible ones, hostile ones, and arbitrary unicode, percent-encoded as a client would send it
export const param = fc.oneof(
  fc.constantFrom(
    '4b1814',
    '4B1814',
    'ZRH',
    'LSZH',
    'SWR100',
    'EZY012',
    'star-alliance',
    'A320',
    'SWR',
    'daily',
    'x.tar.gz',
    '47.5',
    '8.5',
    '250',
    '-90',
    '1e308',
    'NaN',
  ),
  fc.constantFrom('..', '.', '%2e%2e', '%00', '%zz', '%', '%%', '%C0%AF', '%ff', '%2F', '\u0000', 'a'.repeat(5000), '~abc12', '-0', 'Infinity', '0x1f', ' '),
  fc.string({ unit: 'binary', maxLength: 40 }),
);
// a hostile encoding (starting with %) goes as it is; anything else byte by byte, as a client would encode it
const SAFE = /[A-Za-z0-9\-._~]/;
const enc = (s: string) =>
  s.startsWith('%') && s.length <= 6
    ? s
    : [...Buffer.from(s, 'utf8')]
        .map((b) => (SAFE.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
        .join('');
export const path = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.tuple(fc.constantFrom(...OPERATIONS.map((o) => o.path)), fc.array(param, { minLength: 4, maxLength: 4 })).map(([p, vals]) => {
      let i = 0;
      return p.replace(/\{[a-z]+\}/g, () => enc(vals[i++]!));
    }),
  },
  { weight: 1, arbitrary: fc.array(param, { minLength: 1, maxLength: 6 }).map((segs) => `/${segs.map(enc).join('/')}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('/', '//', '/v1', '/v1/', '/v2/point', '/v1/stations/', '/openapi.json/', '/docs/../../etc/passwd', '/v1/airframes/4b1814.gz'),
  },
);
export const query = fc.oneof(
  fc.constant(''),
  fc.tuple(fc.constantFrom('bbox', 'callsigns', 'x', ''), param).map(([k, v]) => `?${k}=${enc(v)}`),
  fc.constantFrom(
    '?bbox=1,2,3',
    '?bbox=5,45,15,55',
    '?bbox=190,0,200,1',
    '?callsigns=' + 'A1,'.repeat(100),
    '?bbox=1,2,3,4&bbox=1,2,3,4',
    '?%zz',
    '?&&&',
    '?callsigns=SWR100,EZY012',
  ),
);
export const method = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH');
export const headers = fc.record({
  'accept-encoding': fc.constantFrom('gzip', 'gzip, deflate, br', 'identity', 'gzip;q=0', '*', 'br', ''),
  'x-forwarded-for': fc.constantFrom('1.2.3.4', 'garbage', '::1', '', '1.2.3.4, 999.1.1.1'),
  'x-filler': fc.string({ maxLength: 2000 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x')),
});
