// every edge case of the HTTP boundary on every serving thread: the app with two serving threads,
// every connection pinned to one of them (--listen-thread), then each case on each route of the
// route table the app serves (app.routes, so a new route is covered by default): pipelined GET,
// HEAD, gzip and `Connection: close`, every route in one write, slow clients (one byte at a time),
// clients that go away before, during and between answers, large request lines and headers. on
// the worker, the live routes are its own and every other route is forwarded to the main thread.
// raw sockets only (test/helpers/wire.ts): the test sees every status line, in order.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { makeFixture, type Fixture } from '../../helpers/publish-fixture.ts';
import { answersByThread, SAMPLE, startPinned, type Pinned } from '../../helpers/pinned-app.ts';
import { pathsOf } from '../../helpers/route-paths.ts';
import { abandon, exchange, get, head, methodsOf, type Answer } from '../../helpers/wire.ts';

const positioned = SAMPLE.aircraft.find((a) => a.lat !== undefined && a.flight)!;
// values for the route table's parameters, by name (test/helpers/route-paths.ts fills the rest)
const VALUES: Record<string, string> = {
  hex: positioned.hex,
  lat: String(positioned.lat),
  lon: String(positioned.lon),
  radius: '50',
  code: 'ZRH',
  slug: 'star-alliance',
  callsign: (positioned.flight ?? 'SWR100').trim(),
  icao: 'SWR',
  org: 'ZRH',
  dst: 'JFK',
  designator: 'A320',
  ident: 'LSZH',
  squawk: '7700',
  reg: 'HB-JNA',
  uuid: '2f0c6f4e-9d3c-4f1e-8a55-0b6f2f1d7c11',
  '/docs/*|*': 'swagger-ui.css',
  '/map/*|*': 'map.js',
};

interface Case {
  pattern: string;
  path: string;
  /** the route's answer to a lone GET on a connection of its own */
  alone: Answer;
}

const ROUTER_404 = /no such operation/;
const brief = (a: Answer | undefined) => (a ? `${a.status} ${a.body.toString('latin1').slice(0, 120)}` : 'no answer');

/** the section-7 code of an error answer, or null */
const codeOf = (a: Answer): string | null => {
  if (a.status < 400) return null;
  try {
    return (JSON.parse(a.body.toString()) as { error?: string }).error ?? null;
  } catch {
    return null;
  }
};

let fx: Fixture;
before(async () => {
  fx = await makeFixture(4, 6);
});
after(() => rmSync(fx.dir, { recursive: true, force: true }));

for (const thread of [0, 1]) {
  describe(`every edge case on thread ${thread} (${thread ? 'the worker: its own live routes, the rest forwarded' : 'the main thread'})`, {
    timeout: 600_000,
  }, () => {
    let p: Pinned;
    let cases: Case[];
    before(async () => {
      p = await startPinned(thread, fx);
      cases = [];
      for (const { pattern, path } of pathsOf(p.app.routes, VALUES)) {
        const r = await exchange(p.port, get(path), 1, ['GET']);
        cases.push({ pattern, path, alone: r.answers[0]! });
      }
    });
    after(async () => {
      await p?.stop();
    });

    test("every route of the table is reached (never the router's 404) and none answers 5xx", () => {
      assert.ok(cases.length >= 30, `the whole table: ${cases.length} routes`);
      for (const c of cases) {
        assert.ok(c.alone, `${c.pattern}: answered`);
        assert.ok(c.alone.status >= 200 && c.alone.status < 500, `${c.pattern} (${c.path}): ${brief(c.alone)}`);
        assert.ok(!(c.alone.status === 404 && ROUTER_404.test(c.alone.body.toString())), `${c.pattern} (${c.path}) reached no route`);
      }
      // the worker's own routes and forwarded ones both answer 200 here
      for (const pattern of ['/v1/aircraft', '/v2/point/:lat/:lon/:radius', '/v1/now', '/v1/trace/:hex', '/v1/airports/:code', '/v1/stations']) {
        assert.equal(cases.find((c) => c.pattern === pattern)?.alone.status, 200, pattern);
      }
    });

    test('each route: GET, HEAD, GET with gzip and a GET with Connection: close pipelined in one write get four answers, in order, once each; then the connection closes', async () => {
      for (const c of cases) {
        const burst = get(c.path) + head(c.path) + get(c.path, 'Accept-Encoding: gzip\r\n') + get(c.path, 'Connection: close\r\n');
        const r = await exchange(p.port, burst, 4, methodsOf(burst));
        assert.deepEqual(
          r.answers.map((a) => a.status),
          [c.alone.status, c.alone.status, c.alone.status, c.alone.status],
          `${c.pattern}: ${r.answers.map(brief).join(' | ')}`,
        );
        assert.equal(r.rest, 0, `${c.pattern}: nothing after the fourth answer`);
        assert.ok(r.closed, `${c.pattern}: closed after the Connection: close request`);
        const [g, h] = r.answers;
        assert.equal(h!.body.length, 0, `${c.pattern}: HEAD has no body`);
        assert.ok(h!.headers['content-length'], `${c.pattern}: HEAD says its Content-Length`);
        // a body that differs per request (a search's ptime) may differ in length too
        if (g!.body.equals(c.alone.body))
          assert.equal(h!.headers['content-length'], g!.headers['content-length'], `${c.pattern}: HEAD's Content-Length is GET's`);
        assert.equal(codeOf(g!), codeOf(c.alone), `${c.pattern}: the same answer pipelined as alone`);
      }
    });

    test('every route in one write, twice over, then one more after a Connection: close: each answered once, in order, and nothing after the close', async () => {
      const burst = [...cases, ...cases].map((c) => get(c.path)).join('') + get('/v1/now', 'Connection: close\r\n') + get('/v1/now');
      const r = await exchange(p.port, burst, 2 * cases.length + 1, methodsOf(burst), { timeoutMs: 20_000 });
      const want = [...cases, ...cases].map((c) => c.alone.status);
      assert.deepEqual(
        r.answers.map((a) => a.status),
        [...want, 200],
        r.answers.map(brief).slice(-3).join(' | '),
      );
      assert.deepEqual(
        r.answers.slice(0, -1).map(codeOf),
        [...cases, ...cases].map((c) => codeOf(c.alone)),
      );
      assert.ok(r.closed && r.rest === 0, 'the request after the close is not answered');
    });

    test('a slow client, one byte at a time, on every route: both of its requests answered', async () => {
      const got = await Promise.all(
        cases.map((c) => exchange(p.port, get(c.path) + get(c.path, 'Connection: close\r\n'), 2, ['GET', 'GET'], { byteDelayMs: 1, timeoutMs: 60_000 })),
      );
      for (const [i, r] of got.entries()) {
        assert.deepEqual(
          r.answers.map((a) => a.status),
          [cases[i]!.alone.status, cases[i]!.alone.status],
          `${cases[i]!.pattern}: ${r.answers.map(brief).join(' | ')}`,
        );
      }
    });

    test('clients that go away before the answer, after its first byte and between pipelined requests: the thread answers every next client', async () => {
      for (const c of cases) {
        await abandon(p.port, get(c.path), 0);
        await abandon(p.port, get(c.path) + get(c.path) + get(c.path), 1);
        // half a request, then gone
        await abandon(p.port, get(c.path).slice(0, 12), 0);
      }
      const burst = get('/v1/now') + get('/v1/aircraft') + get('/v1/stations', 'Connection: close\r\n');
      const r = await exchange(p.port, burst, 3, methodsOf(burst));
      assert.deepEqual(
        r.answers.map((a) => a.status),
        [200, 200, 200],
      );
      assert.deepEqual(
        p.logs.filter((l) => l.startsWith('error ')),
        [],
        'no handler fault logged',
      );
    });

    test('large request lines and headers that the parser takes: each route answers as it does a plain request', async () => {
      const filler = `X-Filler: ${'a'.repeat(3000)}\r\n`;
      const many = Array.from({ length: 40 }, (_, i) => `X-H${i}: v${i}\r\n`).join('');
      for (const c of cases) {
        const burst = get(c.path, filler) + get(c.path, many) + get(`${c.path}?${'q'.repeat(3000)}=1`, 'Connection: close\r\n');
        const r = await exchange(p.port, burst, 3, methodsOf(burst));
        assert.equal(r.answers.length, 3, `${c.pattern}: ${r.answers.map(brief).join(' | ')}`);
        assert.deepEqual(
          r.answers.slice(0, 2).map((a) => a.status),
          [c.alone.status, c.alone.status],
          c.pattern,
        );
        // an unknown query parameter may be refused (422), never a fault
        assert.ok(r.answers[2]!.status < 500, `${c.pattern}?q...: ${brief(r.answers[2])}`);
      }
    });

    test("past the parser's limits (a 200 KB request line, 120 headers) the thread stays up and answers the next client", async () => {
      const lines = [get(`/v1/now?${'q'.repeat(200_000)}`), get('/v1/now', Array.from({ length: 120 }, (_, i) => `X-H${i}: v\r\n`).join(''))];
      for (const request of lines) {
        // what such a request gets is the boundary's concern (docs/operating.md); here: nothing falls over
        await exchange(p.port, request, 1, ['GET'], { timeoutMs: 2000 });
        const next = await exchange(p.port, get('/v1/now') + get('/v1/trace/' + positioned.hex, 'Connection: close\r\n'), 2, ['GET', 'GET']);
        assert.deepEqual(
          next.answers.map((a) => a.status),
          [200, 200],
        );
      }
    });

    test('every connection of this suite landed on this thread', async () => {
      let by: Record<string, number> = {};
      for (let i = 0; i < 50 && !(by[String(thread)]! > 0); i++) {
        await new Promise((r) => setTimeout(r, 120));
        by = await answersByThread(p);
      }
      assert.ok(by[String(thread)]! > cases.length, `thread ${thread} answered them: ${JSON.stringify(by)}`);
      // forwarded requests count as the main thread's answers; with the main thread pinned the worker answers none
      if (thread === 0) assert.ok(!by['1'], `the worker answered nothing: ${JSON.stringify(by)}`);
    });
  });
}
