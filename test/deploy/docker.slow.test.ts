// the container image's parts that run here without a Docker engine: the entrypoint script, run
// for real (the native uWebSockets.js check, its refusal, the commands and the daily schedule),
// and the Dockerfile against its build context (every COPY source exists and is not ignored, the
// copied code imports nothing left out, .dockerignore keeps node_modules and var/ out).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { ROOT } from '../helpers/processes.ts';

const ENTRY = join(ROOT, 'deploy/docker/entrypoint.sh');
const T = 1795435200; // 2026-11-22T12:00:00Z

function entry(args: string[], env: Record<string, string> = {}) {
  return spawnSync(ENTRY, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
}

/** an installation whose uWebSockets.js binary for this machine is `binary` (null: the package without it) */
function fakeRoot(binary: Buffer | null): string {
  const root = mkdtempSync(join(tmpdir(), 'contrail-entry-'));
  const pkg = join(root, 'node_modules/uWebSockets.js');
  mkdirSync(join(pkg, 'binaries'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'uWebSockets.js', version: '0.0.0', main: 'uws.js' }));
  const name = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  if (binary) writeFileSync(join(pkg, 'binaries', name), binary);
  return root;
}

test('the entrypoint finds the native uWebSockets.js binary of this installation loadable', () => {
  const r = entry(['check']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /the native uWebSockets\.js binary loads/);
});

test('the entrypoint refuses clearly, before starting anything, when the binary cannot load', () => {
  const name = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  for (const [what, root, says] of [
    ['a binary that is not a shared object', fakeRoot(Buffer.from('not an ELF file')), /does not load: .*binaries\/uws_.*\.node/],
    ['no binary for this platform', fakeRoot(null), new RegExp(`does not load: .*${name.replaceAll('.', '\\.')}`)],
    ['no uWebSockets.js at all', mkdtempSync(join(tmpdir(), 'contrail-entry-')), /uWebSockets\.js is not installed under/],
  ] as [string, string, RegExp][]) {
    for (const cmd of [['check'], ['serve', '--port', '0']]) {
      const r = entry(cmd, { CONTRAIL_ROOT: root });
      assert.equal(r.status, 1, `${what}, ${cmd[0]}: ${r.stderr}`);
      assert.match(r.stderr, says, what);
      assert.doesNotMatch(r.stdout + r.stderr, /listening on/, 'the server never starts');
    }
    if (what.startsWith('a binary')) assert.match(entry(['check'], { CONTRAIL_ROOT: root }).stderr, /rebuild the image for this platform/);
  }
});

test('the entrypoint runs the commands with their own --help, and refuses unknown commands and arguments with exit 2', () => {
  const serve = entry(['serve', '--help']);
  assert.equal(serve.status, 0, serve.stderr);
  assert.match(serve.stdout, /--rate-limit-redis/);
  for (const [args, says] of [
    [['bogus'], /unknown command 'bogus'/],
    [[], /unknown command ''/],
    [['publish', '--days', '1'], /publish takes no arguments/],
    [['daily', '25:00', 'publish'], /25:00 is not a time of day/],
    [['daily', '00:20'], /daily HH:MM COMMAND/],
    [['seconds-until', '7am'], /7am is not a time of day/],
  ] as [string[], RegExp][]) {
    const r = entry(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, says);
  }
  assert.match(entry(['bogus']).stderr, /entrypoint\.sh daily HH:MM CMD/, 'the usage follows');
});

test("the nightly's schedule: seconds until the next HH:MM UTC, a full day when it is that minute now", () => {
  for (const [now, at, wait] of [
    [T, '00:20', 12 * 3600 + 20 * 60],
    [T + 600, '12:10', 86400],
    [T + 601, '12:10', 86400 - 1],
    [T - 1, '12:00', 1],
    [T, '08:05', 20 * 3600 + 5 * 60],
    [T, '23:59', 11 * 3600 + 59 * 60],
  ] as [number, string, number][]) {
    const r = entry(['seconds-until', at], { CONTRAIL_CLOCK: String(now) });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(Number(r.stdout.trim()), wait, `${at} from ${new Date(now * 1000).toISOString()}`);
  }
});

/** .dockerignore lines (no negations used): a path is left out when it or a folder above it matches */
function ignored(path: string, patterns: string[]): boolean {
  const parts = path.split('/');
  return patterns.some((p) => {
    const anyDepth = p.startsWith('**/');
    const name = anyDepth ? p.slice(3) : p;
    for (let i = 1; i <= parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      if (prefix === name || (anyDepth && parts[i - 1] === name)) return true;
    }
    return false;
  });
}

const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const copies = [...dockerfile.matchAll(/^COPY (?!--from)(.+)$/gm)].map((m) => m[1]!.trim().split(/\s+/));

test('.dockerignore keeps node_modules, var/, the git folder and what the image does not run out of the build context', () => {
  for (const p of [
    'node_modules',
    'node_modules/tsx/package.json',
    'server/node_modules/x',
    'var',
    'var/artifacts/current',
    '.git/HEAD',
    'test/deploy/docker.slow.test.ts',
    'bench/live.ts',
  ]) {
    assert.ok(ignored(p, dockerignore), p);
  }
  for (const p of ['server/main.ts', 'package-lock.json', 'data/ref/sources.json', 'deploy/docker/entrypoint.sh']) assert.ok(!ignored(p, dockerignore), p);
});

test('the Dockerfile copies only files of the build context, and the copied code imports nothing left out', () => {
  assert.match(dockerfile, /^FROM node:20-bookworm-slim$/m);
  assert.match(dockerfile, /^USER node$/m, 'runs unprivileged');
  assert.match(dockerfile, /npm ci --omit=dev/);
  assert.match(dockerfile, /^RUN deploy\/docker\/entrypoint\.sh check/m, 'the build fails when the binary does not load');
  const sources = copies.flatMap((c) => c.slice(0, -1));
  assert.ok(sources.length >= 8, 'sources.length >= 8');
  for (const s of sources) {
    assert.ok(existsSync(join(ROOT, s)), `COPY ${s}: exists`);
    assert.ok(!ignored(s, dockerignore), `COPY ${s}: not left out by .dockerignore`);
  }
  const entrypoint = /^ENTRYPOINT \["\/opt\/contrail\/([^"]+)"\]$/m.exec(dockerfile)?.[1];
  assert.ok(entrypoint && sources.includes(entrypoint), 'the entrypoint is copied');
  assert.ok(statSync(join(ROOT, entrypoint)).mode & 0o111, 'and executable');

  // every relative import inside the copied folders stays inside them
  const copied = sources.filter((s) => statSync(join(ROOT, s)).isDirectory());
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  let imports = 0;
  for (const file of copied.flatMap((d) => walk(join(ROOT, d)))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = relative(ROOT, resolve(dirname(file), m[1]!));
      imports++;
      assert.ok(existsSync(join(ROOT, target)), `${relative(ROOT, file)} imports ${m[1]}: exists`);
      assert.ok(
        sources.some((s) => target === s || target.startsWith(`${s}/`)),
        `${relative(ROOT, file)} imports ${target}, which the image does not copy`,
      );
    }
  }
  assert.ok(imports > 100, `imports read: ${imports}`);
});
