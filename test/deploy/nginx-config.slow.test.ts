// the shipped nginx front against the artifact contract (schemas/artifact-kinds.ts): every public
// artifact URL falls in a location that sends the Cache-Control of its bucket, and the server-only
// meta/* documents are never served. the running front is tested in nginx.slow.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ARTIFACT_KINDS } from '../../schemas/artifact-kinds.ts';
import { policyFor } from '../../schemas/policy.ts';

const CONF = readFileSync(new URL('../../deploy/nginx/contrail.conf', import.meta.url), 'utf8');

interface Location {
  match: '=' | '^~';
  path: string;
  body: string;
}

/** top-level `location = P` and `location ^~ P` blocks of the server (nested blocks stay in their parent's body) */
export function locations(conf: string): Location[] {
  const out: Location[] = [];
  const re = /location\s+(=|\^~)\s+(\S+)\s*\{/g;
  for (let m = re.exec(conf); m; m = re.exec(conf)) {
    let depth = 1;
    let i = re.lastIndex;
    for (; i < conf.length && depth > 0; i++) depth += conf[i] === '{' ? 1 : conf[i] === '}' ? -1 : 0;
    out.push({ match: m[1] as Location['match'], path: m[2]!, body: conf.slice(re.lastIndex, i - 1) });
    re.lastIndex = i;
  }
  return out;
}

/** the location nginx picks for a URL: an exact match, else the longest ^~ prefix; a `rewrite ... last` is followed */
function pick(locs: Location[], url: string, hops = 0): Location | undefined {
  const exact = locs.find((l) => l.match === '=' && l.path === url);
  const l = exact ?? locs.filter((x) => x.match === '^~' && url.startsWith(x.path)).sort((a, b) => b.path.length - a.path.length)[0];
  const rw = l && /rewrite\s+(\S+)\s+(\S+)\s+last;/.exec(l.body);
  if (!rw || hops > 3) return l;
  const re = new RegExp(rw[1]!);
  return re.test(url) ? pick(locs, url.replace(re, rw[2]!.replace(/\$(\d)/g, '$$$1')), hops + 1) : l;
}

const sample = (template: string) => template.replace(/\{[a-z]+\}/g, 'X1');
const cacheOf = (l: Location) => /add_header\s+Cache-Control\s+"([^"]+)"/.exec(l.body)?.[1];

test("every public artifact URL of the contract is in a front location with its bucket's Cache-Control", () => {
  const locs = locations(CONF);
  for (const [name, kind] of Object.entries(ARTIFACT_KINDS)) {
    for (const url of [kind.url, ...(kind.aliases ?? [])]) {
      if (!url || !kind.bucket) continue;
      const l = pick(locs, sample(url));
      assert.ok(l, `${name}: no location of deploy/nginx/contrail.conf serves ${url}`);
      assert.equal(cacheOf(l), policyFor(kind.bucket).cache, `${name}: ${url} is served by location ${l.path}`);
    }
  }
});

test('the server-only meta/* documents have no public URL on the front', () => {
  const locs = locations(CONF);
  for (const [name, kind] of Object.entries(ARTIFACT_KINDS)) {
    if (kind.url) continue;
    const l = pick(locs, `/${kind.key}`);
    assert.ok(l && /return\s+404/.test(l.body), `${name}: /${kind.key} must answer 404 on the front`);
  }
});

test('the location reader finds nested blocks inside their parent and picks the longest prefix', () => {
  const conf = `server { location ^~ /a/ { add_header Cache-Control "x"; location ~ y { z; } } location ^~ /a/b/ { return 404; } location = /a/c { q; } location ^~ /d/ { rewrite ^/d/(.*)$ /a/b/$1 last; } }`;
  const locs = locations(conf);
  assert.deepEqual(
    locs.map((l) => l.path),
    ['/a/', '/a/b/', '/a/c', '/d/'],
  );
  assert.equal(pick(locs, '/d/1')?.path, '/a/b/', 'a rewrite is followed');
  assert.equal(pick(locs, '/a/b/1')?.path, '/a/b/');
  assert.equal(pick(locs, '/a/c')?.path, '/a/c');
  assert.equal(pick(locs, '/a/zz')?.path, '/a/');
  assert.equal(cacheOf(locs[0]!), 'x');
});
