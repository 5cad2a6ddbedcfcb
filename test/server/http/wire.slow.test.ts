// HTTP/1.1 on the wire, with raw sockets against the real uWebSockets.js server: keep-alive after
// HEAD, pipelined requests over fast and slow (asynchronous) routes, methods in any case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { pbkdf2 } from 'node:crypto';
import { serve } from '../../helpers/http.ts';
import { reply, type Route } from '../../../server/http/types.ts';

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);
const BIG = { list: Array.from({ length: 4000 }, (_, i) => ({ hex: i.toString(16).padStart(6, '0'), alt_baro: 30000 + i })) };
const routes: Route[] = [
  { pattern: '/v1/now', bucket: 'now', handler: () => reply({ fast: true }) },
  { pattern: '/v1/aircraft', bucket: 'aircraft', handler: () => reply(BIG) },
  // a slow answer (a cold history read): 40 ms, during which the pipelined requests are in the socket
  {
    pattern: '/v1/airports/:code',
    bucket: 'airport',
    handler: (req) => {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 40);
      return reply({ slow: req.params.code });
    },
  },
];

/** writes `request` on one connection and collects responses until `count` have arrived or 3 s pass */
function exchange(port: number, request: string | string[], count: number): Promise<{ statuses: number[]; bodies: string[]; closed: boolean }> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let buf = '';
    let closed = false;
    const parsed: { status: number; body: string }[] = [];
    const parse = () => {
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        const len = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        const isHead = parsed.length < heads.length && heads[parsed.length];
        const bodyLen = isHead ? 0 : len;
        if (buf.length < end + 4 + bodyLen) return;
        parsed.push({ status, body: buf.slice(end + 4, end + 4 + bodyLen) });
        buf = buf.slice(end + 4 + bodyLen);
      }
    };
    const reqs = Array.isArray(request) ? request : [request];
    // one flag per request line, also inside a pipelined burst: a HEAD answer has no body
    const heads = [...reqs.join('').matchAll(/^([A-Za-z]+) \S+ HTTP\/1\.[01]\r$/gm)].map((m) => m[1] === 'HEAD');
    const finish = () => {
      sock.destroy();
      resolve({ statuses: parsed.map((p) => p.status), bodies: parsed.map((p) => p.body), closed });
    };
    sock.setTimeout(3000, finish);
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      parse();
      if (parsed.length >= count) finish();
    });
    sock.on('close', () => {
      closed = true;
      finish();
    });
    sock.on('error', () => undefined);
    // requests separated in time, on the same connection, unless given as one string
    let at = 0;
    for (const r of reqs) setTimeout(() => sock.write(r), (at += 30));
  });
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;
const head = (path: string) => `HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\n`;

test('HEAD then GET on one keep-alive connection: both are answered', async () => {
  const s = await serve(routes, { clock: () => T0 });
  try {
    const r = await exchange(s.port, [head('/v1/now'), get('/v1/now')], 2);
    assert.deepEqual(r.statuses, [200, 200]);
    assert.equal(r.bodies[1], '{"fast":true}');
    const slow = await exchange(s.port, [head('/v1/airports/ZRH'), get('/v1/airports/GVA'), get('/v1/now')], 3);
    assert.deepEqual(slow.statuses, [200, 200, 200]);
  } finally {
    s.close();
  }
});

test('pipelined requests over fast and slow routes each get their answer, in order', async () => {
  const s = await serve(routes, { clock: () => T0 });
  try {
    const burst = [get('/v1/airports/AAA'), get('/v1/now'), head('/v1/now'), get('/v1/airports/BBB'), get('/v1/now')].join('');
    const r = await exchange(s.port, burst, 5);
    assert.deepEqual(r.statuses, [200, 200, 200, 200, 200]);
    assert.deepEqual([r.bodies[0], r.bodies[1], r.bodies[3], r.bodies[4]], ['{"slow":"AAA"}', '{"fast":true}', '{"slow":"BBB"}', '{"fast":true}']);
  } finally {
    s.close();
  }
});

test('standard methods other than GET and HEAD get a 405 in the section-7 shape, and the connection lives on', async () => {
  const s = await serve(routes, { clock: () => T0 });
  try {
    for (const m of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await exchange(s.port, [`${m} /v1/now HTTP/1.1\r\nHost: x\r\n\r\n`, get('/v1/now')], 2);
      assert.equal(r.statuses[0], 405, m);
      assert.equal(JSON.parse(r.bodies[0]!).error, 'invalid_request', m);
      assert.equal(r.statuses[1], 200, `${m}: the next request on the connection is answered`);
    }
  } finally {
    s.close();
  }
});

test('what uWebSockets.js itself refuses (lowercase or unknown methods) is closed by it: the nginx front answers those', async () => {
  // documented in deploy/README.md; test/deploy/nginx.slow.test.ts holds the front to a section-7 answer
  const s = await serve(routes, { clock: () => T0 });
  try {
    for (const m of ['get', 'BREW']) {
      const r = await exchange(s.port, [`${m} /v1/now HTTP/1.1\r\nHost: x\r\n\r\n`], 1);
      assert.deepEqual([r.statuses, r.closed], [[], true], m);
    }
  } finally {
    s.close();
  }
});

test('the pre-built header blocks reach the wire as separate, well-formed header lines', async () => {
  const s = await serve(routes, { clock: () => T0 });
  try {
    const raw = await new Promise<string>((resolve) => {
      const sock = connect(s.port, '127.0.0.1', () => sock.write(get('/v1/now')));
      let buf = '';
      sock.on('data', (d) => {
        buf += d;
        if (buf.includes('\r\n\r\n')) {
          sock.destroy();
          resolve(buf.slice(0, buf.indexOf('\r\n\r\n')));
        }
      });
    });
    const lines = raw.split('\r\n').slice(1);
    for (const l of lines) assert.match(l, /^[A-Za-z][A-Za-z0-9-]*: [^\r\n]*$/, `a header line: ${JSON.stringify(l)}`);
    const names = lines.map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
    for (const h of ['content-type', 'cache-control', 'vary', 'access-control-allow-origin', 'access-control-expose-headers']) {
      assert.equal(names.filter((n) => n === h).length, 1, `${h} exactly once`);
    }
    assert.ok(lines.includes('Content-Type: application/json; charset=utf-8'), "lines.includes('Content-Type: application/json; charset=utf-8')");
    assert.ok(lines.includes('Vary: Accept-Encoding'), "lines.includes('Vary: Accept-Encoding')");
    assert.ok(lines.includes('Access-Control-Allow-Origin: *'), "lines.includes('Access-Control-Allow-Origin: *')");
    // uws's own mark is switched off (loadNativeUws): no header names the server's software
    assert.ok(!names.includes('uwebsockets'), `no uWebSockets header: ${names.join(', ')}`);
    for (const h of ['x-content-type-options', 'referrer-policy', 'x-frame-options']) assert.equal(names.filter((n) => n === h).length, 1, `${h} exactly once`);
  } finally {
    s.close();
  }
});

test('a large answer compressed per request is gzipped off the serving thread: same bytes, and the thread answers meanwhile', async () => {
  for (const offLoop of [32 * 1024, 0]) {
    const s = await serve(routes, { clock: () => T0, gzipOffLoop: offLoop });
    try {
      const plain = await s.get('/v1/aircraft');
      assert.ok(plain.wireBytes > 32 * 1024, 'the body is over the threshold');
      // many at once, with small answers between them: every one whole and right
      const got = await Promise.all(
        Array.from({ length: 40 }, (_, i) => s.get(i % 2 ? '/v1/aircraft' : '/v1/now', { headers: { 'accept-encoding': 'gzip, deflate, br' } })),
      );
      for (const [i, r] of got.entries()) {
        assert.equal(r.status, 200);
        if (i % 2) {
          assert.equal(r.headers['content-encoding'], 'gzip', `offLoop ${offLoop}`);
          assert.equal(r.text, plain.text);
          assert.ok(r.wireBytes < plain.wireBytes / 3, 'r.wireBytes < plain.wireBytes / 3');
        } else assert.equal(r.text, '{"fast":true}');
      }
      const head = await s.get('/v1/aircraft', { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
      assert.equal(head.status, 200);
    } finally {
      s.close();
    }
  }
});

test('a large answer to a client that reads slowly goes out whole as the socket drains, and the server lives on', async () => {
  // 4 MB: more than the socket takes at once, so uws holds the rest and the answer completes later
  // (a response left without an abort hook then made uws abort the whole process)
  const body = Buffer.alloc(4 * 1024 * 1024, 0x61);
  const s = await serve([{ pattern: '/huge', bucket: 'aircraft', handler: () => ({ body: { raw: body } }) }, ...routes], { rateLimits: false });
  try {
    const received = await new Promise<number>((resolve, reject) => {
      const sock = connect(s.port, '127.0.0.1');
      let bytes = 0;
      sock.on('data', (b: Buffer) => {
        bytes += b.length;
        if (bytes >= body.length) {
          sock.destroy();
          resolve(bytes);
        }
      });
      sock.on('error', reject);
      sock.write(get('/huge'));
      // read nothing for a while: the server's send buffer fills and the rest waits in uws
      sock.pause();
      setTimeout(() => sock.resume(), 400);
    });
    assert.ok(received >= body.length, `the whole body arrived (${received} bytes)`);
    // a client that goes away mid-answer: the server must not fall over either
    await new Promise<void>((resolve) => {
      const sock = connect(s.port, '127.0.0.1', () => {
        sock.write(get('/huge'));
        sock.pause();
        setTimeout(() => {
          sock.destroy();
          resolve();
        }, 200);
      });
    });
    assert.equal((await s.get('/v1/now')).status, 200, 'the server answers on');
  } finally {
    s.close();
  }
});

test('a transient body (a scratch buffer the thread reuses) reaches the client as it was when answered, under backpressure and when gzipped off the loop', async () => {
  // the route answers from one scratch buffer, as /v2/point does, and the test overwrites it as
  // the thread's next answer would, once the answer has been handed over
  const scratch = Buffer.alloc(8 * 1024 * 1024);
  let size = scratch.length;
  // a JSON string of `size` bytes at the scratch's start
  const fill = (byte: number) => {
    scratch[0] = 0x22; // "
    scratch.fill(byte, 1, size - 1);
    scratch[size - 1] = 0x22;
  };
  const served = (byte: number, size: number) => `"${String.fromCharCode(byte).repeat(size - 2)}"`;
  // resolved by the handler: its continuation runs once the answer has been handed over (the
  // pipeline's synchronous part done), the moment the thread's next answer could overwrite the scratch
  let handed: () => void = () => {};
  const nextAnswer = () => new Promise<void>((r) => (handed = r));
  const s = await serve(
    [
      {
        pattern: '/scratch',
        bucket: 'aircraft',
        handler: () => {
          handed();
          return { body: { raw: scratch.subarray(0, size), transient: true } };
        },
      },
      ...routes,
    ],
    { rateLimits: false, gzipOffLoop: 32 * 1024 },
  );
  try {
    // 1. backpressure: 8 MB to a client that reads nothing at first; uws holds what the socket did not take
    fill(0x61);
    const answered1 = nextAnswer();
    const text = await new Promise<string>((resolve, reject) => {
      const sock = connect(s.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      let got = 0;
      sock.on('data', (b: Buffer) => {
        chunks.push(b);
        got += b.length;
        const all = Buffer.concat(chunks);
        const end = all.indexOf('\r\n\r\n');
        if (end >= 0 && all.length - end - 4 >= scratch.length) {
          sock.destroy();
          resolve(all.subarray(end + 4, end + 4 + scratch.length).toString('latin1'));
        }
      });
      sock.on('error', reject);
      sock.write(get('/scratch'));
      sock.pause();
      // the answer is handed over: the thread's next answer overwrites the scratch
      void answered1.then(() => {
        fill(0x62);
        setTimeout(() => sock.resume(), 200);
      });
    });
    const want = served(0x61, scratch.length);
    assert.ok(text === want, `the body is the one answered, not the scratch rewritten since (b at ${text.indexOf('b')})`);
    // 2. gzip on the libuv pool: the pool's four threads are kept busy first, so the gzip starts
    // only after the scratch has been overwritten
    size = 256 * 1024;
    fill(0x63);
    const busy = Array.from({ length: 4 }, () => new Promise((r) => pbkdf2('x', 'y', 200_000, 32, 'sha256', r)));
    const answered2 = nextAnswer();
    const answer = s.get('/scratch', { headers: { 'accept-encoding': 'gzip' } });
    await answered2;
    fill(0x64);
    const r = await answer;
    await Promise.all(busy);
    assert.equal(r.headers['content-encoding'], 'gzip');
    assert.ok(
      r.text === served(0x63, size),
      `the gzipped body is the one answered, not the scratch rewritten since (${r.text.slice(0, 12)}, ${r.text.length})`,
    );
  } finally {
    s.close();
  }
});
