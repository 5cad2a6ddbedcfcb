// the published contract against the real server: every route of the route table (server/app.ts
// routesOf) is driven into every status it can send (fresh feed and whole tree; a stale feed; no
// tree; each bucket exhausted; the stream's upgrade and its refusals; every method, encoding and
// validator) and each answer is checked against the document the server itself serves at
// /openapi.json (its status, the headers of that status, the Content-Type, the body) and against the
// strict variant of the same document (the closed schemas of schemas/). then the other way round:
// every status and error code the document lists for a route was seen, or is named unreachable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { routesOf } from '../../server/app.ts';
import type { Services } from '../../server/services.ts';
import { loadServerConfig } from '../../server/config.ts';
import { buildOpenApi } from '../../schemas/openapi.ts';
import { policyFor } from '../../schemas/policy.ts';
import { rateKeyOf } from '../../server/http/client-ip.ts';
import { makeContractTree, type ContractTree } from '../helpers/contract-tree.ts';
import { closeClients, SAMPLE, send, startContractApp, STATION_UUID, upgrade, type ContractApp, type Sent } from '../helpers/contract-app.ts';
import { contractCases, UNDOCUMENTED, UNREACHABLE, type Case, type RouteCases } from '../helpers/contract-cases.ts';
import { OpenApiCheck, type Answer } from '../helpers/openapi-check.ts';

process.env.TZ = 'UTC';

let tree: ContractTree;
let fresh: ContractApp;
let bare: ContractApp;
let nowMs = 0;

before(async () => {
  tree = await makeContractTree();
  nowMs = tree.nowMs;
  fresh = await startContractApp(tree, () => nowMs);
  const bareNow = tree.nowMs;
  bare = await startContractApp(null, () => bareNow);
});

after(async () => {
  closeClients();
  await fresh?.stop();
  await bare?.stop();
  if (tree) rmSync(tree.dir, { recursive: true, force: true });
});

/** `/v1/trace/:hex` -> `/v1/trace/{hex}` */
const templateOf = (pattern: string) => pattern.replace(/:(\w+)/g, '{$1}');

interface Seen {
  route: string;
  where: string;
  sent: Sent;
  answer: Answer;
  code: string | null;
  /** a request that only spends a bucket */
  filler: boolean;
}

const TITLE = 'every route answers each of its statuses as the published document says, and the document lists nothing the server does not send';
test(TITLE, { timeout: 600_000 }, async () => {
  const routes = routesOf({ stations: {} } as unknown as Services, loadServerConfig([], {}).config);
  const json = async (path: string, xff: string) => JSON.parse((await send(fresh.base, { path, headers: { 'x-forwarded-for': xff } })).body.toString('utf8'));
  const served = (await json('/openapi.json', '10.254.0.1')) as { paths: Record<string, Record<string, any>> } & Record<string, any>;
  assert.deepEqual(served, buildOpenApi(), 'the server serves the published document');
  const published = new OpenApiCheck(served);
  const strict = new OpenApiCheck(buildOpenApi({ variant: 'strict' }));

  const sample = SAMPLE.aircraft.find((a) => a.lat !== undefined && a.flight && a.r && a.t && a.squawk)!;
  const index = await json('/v1/bundles', '10.254.0.2');
  const paths = (list: { path: string }[]) => list.map((e) => e.path);
  const table = contractCases({
    hex: String(sample.hex),
    flight: String(sample.flight).trim(),
    reg: String(sample.r),
    type: String(sample.t),
    squawk: String(sample.squawk),
    lat: Number(sample.lat),
    lon: Number(sample.lon),
    uuid: STATION_UUID,
    logPaths: paths(index.log),
    tablePaths: paths(index.tables),
    dayTablePaths: [...paths(index.flights), ...paths(index.points)],
    docPaths: paths(index.docs),
  });

  // the route table decides what is covered: a route without cases fails here, by name
  const patterns = routes.map((r) => r.pattern);
  assert.deepEqual(
    patterns.filter((p) => !table[p]),
    [],
    'routes of the route table with no contract cases (add them to test/helpers/contract-cases.ts)',
  );
  assert.deepEqual(
    Object.keys(table).filter((p) => !patterns.includes(p)),
    [],
    'contract cases for routes the route table no longer has',
  );
  const undocumented = patterns.filter((p) => !served.paths[templateOf(p)]);
  assert.deepEqual(
    undocumented.filter((p) => !UNDOCUMENTED[p]),
    [],
    'routes the document does not describe (document them in schemas/operations.ts)',
  );
  assert.deepEqual(
    Object.keys(served.paths).filter((t) => !patterns.some((p) => templateOf(p) === t)),
    [],
    'documented paths no route serves',
  );

  const seen: Seen[] = [];
  const problems: string[] = [];
  let client = 0;
  const ask = async (route: string, where: ContractApp, s: Sent, o: { expect?: Case; filler?: boolean; xff?: string } = {}): Promise<Answer> => {
    const headers = { 'x-forwarded-for': o.xff ?? `10.1.${(client >> 8) & 255}.${client & 255}`, ...s.headers };
    const answer = await send(where.base, { ...s, headers });
    note(route, where, { ...s, headers }, answer, o);
    return answer;
  };
  const note = (route: string, where: ContractApp, s: Sent, answer: Answer, o: { expect?: Case; filler?: boolean }) => {
    const isError = answer.status >= 400 && answer.method !== 'HEAD' && answer.body.length > 0;
    const code = isError ? ((JSON.parse(answer.body.toString('utf8')) as { error?: string }).error ?? null) : null;
    const extra = ['range', 'if-none-match', 'accept-encoding']
      .filter((h) => s.headers?.[h])
      .map((h) => ` (${h}: ${s.headers![h]})`)
      .join('');
    const at = `${s.method ?? 'GET'} ${s.path}${extra} on the ${where === bare ? 'bare' : nowMs === tree.nowMs ? 'fresh' : 'stale'} server`;
    seen.push({ route, where: at, sent: s, answer, code, filler: o.filler === true });
    if (o.expect && (answer.status !== o.expect.expect || (o.expect.code && code !== o.expect.code))) {
      problems.push(`${at}: got ${answer.status} ${code ?? ''}, the case expects ${o.expect.expect} ${o.expect.code ?? ''}`);
    }
    if (UNDOCUMENTED[route]) {
      if (answer.status >= 400 && answer.headers['cache-control'] !== 'no-store') problems.push(`${at}: ${answer.status} without no-store`);
      return;
    }
    const template = templateOf(route);
    const open = published.check(template, answer);
    const found = new Set([
      ...open,
      ...strict
        .check(template, answer)
        .filter((p) => !open.includes(p))
        .map((p) => `${p} (strict)`),
    ]);
    for (const p of found) problems.push(`${at}: ${answer.status} ${p}`);
  };

  // 1. each good path in every variant, then the cases, on the fresh server; each route as its own client
  for (const [route, rc] of Object.entries(table)) {
    client++;
    await variants(route, rc);
    for (const c of rc.cases ?? []) await ask(route, fresh, c, { expect: c });
    // a broken percent-encoding where the route has a parameter: refused before routing
    const broken = brokenPath(route, rc);
    if (broken) for (const method of ['GET', 'OPTIONS']) await ask(route, fresh, { path: broken, method }, expecting(broken, 422, 'invalid_request'));
  }
  async function variants(route: string, rc: RouteCases): Promise<void> {
    const ok = rc.ok ?? 200;
    for (const path of rc.good) {
      for (const method of ['GET', 'HEAD']) {
        for (const ae of ['', 'gzip', 'br', 'gzip, deflate, br']) {
          await ask(route, fresh, { path, method, headers: ae ? { 'accept-encoding': ae } : {} }, expecting(path, ok));
        }
      }
      const first = await ask(route, fresh, { path }, expecting(path, ok));
      const etag = first.headers.etag;
      for (const method of ['GET', 'HEAD']) {
        await ask(route, fresh, { path, method, headers: { 'if-none-match': 'W/"not-this-one"' } }, expecting(path, ok));
        if (etag) {
          await ask(route, fresh, { path, method, headers: { 'if-none-match': etag } }, expecting(path, 304));
          await ask(route, fresh, { path, method, headers: { 'if-none-match': `"other", ${etag}` } }, expecting(path, 304));
        }
      }
      const preflight = { origin: 'https://example.org', 'access-control-request-method': 'GET' };
      await ask(route, fresh, { path, method: 'OPTIONS', headers: preflight }, expecting(path, 204));
      await ask(route, fresh, { path, method: 'OPTIONS', headers: { ...preflight, 'access-control-request-headers': 'if-none-match' } }, expecting(path, 204));
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) await ask(route, fresh, { path, method }, expecting(path, 405, 'invalid_request'));
    }
  }

  // 2. the stream's upgrade: 101, a malformed box refused (422), the per-address cap (429)
  const open: Socket[] = [];
  const stream = '/v1/stream';
  const up = async (path: string, xff: string, expect: Case) => {
    const { answer, socket } = await upgrade(fresh.base, path, { 'x-forwarded-for': xff });
    if (socket) open.push(socket);
    note(stream, fresh, { path, headers: { 'x-forwarded-for': xff, upgrade: 'websocket' } }, answer, { expect });
  };
  await up(`${stream}?bbox=5,45,15,55`, '10.250.0.1', { path: stream, expect: 101 });
  await up(`${stream}?bbox=1,2,3`, '10.250.0.1', { path: stream, expect: 422, code: 'invalid_request' });
  const cap = loadServerConfig([], {}).config.streamPerIp;
  for (let i = 0; i < cap; i++) await up(stream, '10.250.0.2', { path: stream, expect: 101 });
  await up(stream, '10.250.0.2', { path: stream, expect: 429, code: 'rate_limited' });
  for (const s of open) s.destroy();

  // 3. every limited bucket spent by one client: all but the last requests through the server's own
  // limiter (the bundles' bucket holds 6,000), the last over HTTP over its routes in turn, the last
  // allowed one with RateLimit-Remaining 0; then each route of the bucket answers 429
  const byBucket = new Map<string, string[]>();
  for (const r of routes) if (policyFor(r.bucket).limit > 0) byBucket.set(r.bucket, [...(byBucket.get(r.bucket) ?? []), r.pattern]);
  let b = 0;
  for (const [bucket, members] of byBucket) {
    const xff = `10.251.${b++}.1`;
    const { limit } = policyFor(bucket);
    const overHttp = Math.min(limit, 2 * members.length + 4);
    for (let i = 0; i < limit - overHttp; i++) fresh.app.running.limiter.hit(bucket, rateKeyOf(xff), limit, nowMs);
    let last: Answer | null = null;
    for (let i = 0; i < overHttp; i++) {
      const route = members[i % members.length]!;
      last = await ask(route, fresh, { path: table[route]!.good[0]! }, { filler: true, xff });
    }
    const remaining = last?.headers['ratelimit-remaining'];
    if (remaining !== '0') problems.push(`${bucket}: the last allowed answer says RateLimit-Remaining ${remaining}, not 0`);
    for (const route of members) await ask(route, fresh, { path: table[route]!.good[0]! }, { xff, expect: { path: route, expect: 429, code: 'rate_limited' } });
    if (bucket === 'stream') await up(stream, xff, { path: stream, expect: 429, code: 'rate_limited' });
  }

  // 4. no tree: every good path once more, on a server with a fresh feed and nothing published
  for (const [route, rc] of Object.entries(table)) {
    client++;
    for (const path of rc.good) for (const method of ['GET', 'HEAD']) await ask(route, bare, { path, method });
  }
  // 5. the feed stops: an hour later every good path once more, on the server with the tree
  nowMs = tree.nowMs + 3600_000;
  for (const [route, rc] of Object.entries(table)) {
    client++;
    for (const path of rc.good) for (const method of ['GET', 'HEAD']) await ask(route, fresh, { path, method });
  }
  await up(stream, '10.250.0.3', { path: stream, expect: 101 });
  for (const s of open) s.destroy();

  // every answer matched the document
  assert.deepEqual(problems.slice(0, 40), [], `${problems.length} answers do not match the document`);
  // whatever the document promises was seen: each status, and each error code of a status
  const got = new Set(seen.map((s) => keyOf(templateOf(s.route), s.answer, s.code)));
  const missing: string[] = [];
  for (const [template, item] of Object.entries<any>(served.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      for (const [status, r] of Object.entries<any>(op.responses)) {
        const codes: string[] | undefined = r.content?.['application/json']?.schema?.properties?.error?.enum;
        for (const k of codes ? codes.map((c) => `${template} ${method} ${status} ${c}`) : [`${template} ${method} ${status}`]) {
          if (!got.has(k) && !unreachable(k)) missing.push(k);
        }
      }
    }
  }
  assert.deepEqual(missing, [], 'answers the document lists that no request brought about (drive them, or name them in UNREACHABLE with the reason)');
  for (const k of Object.keys(UNREACHABLE)) assert.ok(![...got].some((g) => matches(k, g)), `${k} is named unreachable but was seen`);
  // many real answers of every route, not counting those that only spent a bucket
  const counts = new Map<string, number>();
  for (const s of seen) if (!s.filler) counts.set(s.route, (counts.get(s.route) ?? 0) + 1);
  for (const p of patterns) assert.ok((counts.get(p) ?? 0) >= 40, `${p}: ${counts.get(p) ?? 0} answers checked, fewer than 40`);
  assert.ok(seen.length >= 40 * patterns.length, `${seen.length} answers`);
  assert.deepEqual(
    [...fresh.logs, ...bare.logs].filter((l) => l.startsWith('error ')),
    [],
    'no handler fault was logged',
  );
});

const expecting = (path: string, expect: number, code?: Case['code']) => ({ expect: { path, expect, ...(code ? { code } : {}) } });

/** a good path with its first parameter segment replaced by a broken percent-encoding; null without one */
function brokenPath(route: string, rc: RouteCases): string | null {
  const i = route.split('/').findIndex((s) => s.startsWith(':'));
  if (i < 0) return null;
  const segs = rc.good[0]!.split('?')[0]!.split('/');
  segs[i] = '%zz';
  return segs.join('/');
}

/** the key of an answer: path template, the operation's method (405s are listed under GET), status, code */
function keyOf(template: string, a: Answer, code: string | null): string {
  const method = a.method === 'OPTIONS' ? 'options' : 'get';
  return `${template} ${method} ${a.status}${code ? ` ${code}` : ''}`;
}

const matches = (pattern: string, key: string) => {
  const [p, m, ...rest] = pattern.split(' ');
  const [kp, km, ...krest] = key.split(' ');
  return (p === '*' || p === kp) && (m === '*' || m === km) && rest.join(' ') === krest.join(' ');
};
const unreachable = (key: string) => Object.keys(UNREACHABLE).some((p) => matches(p, key));
