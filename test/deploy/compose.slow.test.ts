// deploy/compose.yaml, read as Compose reads it (YAML, merge keys) without a Docker engine: the
// services the deployment promises, settings that agree with one another, and only files that
// exist; the front's nginx configuration rendered by the script its container runs, checked by nginx -t.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../helpers/processes.ts';
import { freePort } from '../helpers/ports.ts';

const DEPLOY = join(ROOT, 'deploy');
const compose = parse(readFileSync(join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true });
const services = compose.services as Record<string, any>;
/** `--name=value` of a service's command */
const flag = (service: string, name: string) => (services[service].command as string[]).find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
/** ${VAR:-default} as Compose fills it with VAR unset */
const defaulted = (s: string) => s.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

test('the compose file runs the whole service: 2 live replicas, the front, Redis, the nightly and an object store', () => {
  assert.deepEqual(Object.keys(services).sort(), ['front', 'live', 'nightly', 'objects', 'objects-init', 'redis']);
  assert.equal(services.live.deploy.replicas, 2);
  // both Contrail services are the one image built from the repository's Dockerfile
  for (const s of ['live', 'nightly']) {
    assert.equal(resolve(DEPLOY, services[s].build.context), ROOT, s);
    assert.ok(existsSync(join(ROOT, services[s].build.dockerfile)), s);
    assert.equal(services[s].image, 'contrail:local');
    assert.equal(services[s].init, true, `${s}: an init reaps children and passes signals`);
  }
  assert.equal(services.live.command[0], 'serve');
  assert.deepEqual(services.nightly.command, ['daily', '00:20', 'publish']);
  // the schedule is one the entrypoint accepts
  const r = spawnSync(join(ROOT, 'deploy/docker/entrypoint.sh'), ['seconds-until', services.nightly.command[1]], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

test('the settings agree: shared limits in the Redis service, the front trusted, the feed and the tree where they are mounted', () => {
  assert.equal(flag('live', 'rate-limit-redis'), 'redis://redis:6379');
  assert.ok(services.redis.command.includes('redis-server'), "services.redis.command.includes('redis-server')");
  assert.equal(flag('live', 'trust-proxy'), compose.networks.contrail.ipam.config[0].subnet, "the front's network is trusted, or every user shares one budget");
  for (const s of ['live', 'front', 'redis', 'nightly', 'objects', 'objects-init']) assert.deepEqual(services[s].networks, ['contrail'], s);
  const mounts = (s: string) => ((services[s].volumes ?? []) as string[]).map((v) => defaulted(v).split(':'));
  const mountedAt = (s: string, path: string) => mounts(s).some(([, at]) => path === at || path.startsWith(`${at}/`));
  assert.ok(mountedAt('live', defaulted(flag('live', 'feed')!)), 'the feed file is in a mounted folder');
  for (const f of ['artifacts', 'bundles', 'state']) assert.ok(mountedAt('live', flag('live', f)!), f);
  assert.ok(mounts('live').find(([, at]) => at === flag('live', 'artifacts'))![2] === 'ro', 'the live servers only read the tree');
  const env = services.nightly.environment;
  assert.ok(mountedAt('nightly', env.CONTRAIL_HISTORY), "mountedAt('nightly', env.CONTRAIL_HISTORY)");
  assert.equal(env.CONTRAIL_S3_ENDPOINT, 'http://objects:9000');
  assert.match(services['objects-init'].entrypoint.join(' '), new RegExp(`mc mb --ignore-existing local/${env.CONTRAIL_S3_BUCKET}`));
  assert.equal(services.nightly.depends_on['objects-init'].condition, 'service_completed_successfully');
  // the front proxies to the live service on the port it listens on
  assert.equal(services.front.environment.CONTRAIL_NGINX_LIVE, `live:${flag('live', 'port')}`);
  assert.ok(mountedAt('front', services.front.environment.CONTRAIL_NGINX_ARTIFACTS), "mountedAt('front', services.front.environment.CONTRAIL_NGINX_ARTIFACTS)");
  // each named volume used is declared
  for (const s of Object.keys(services)) {
    for (const [from] of mounts(s).filter(([f]) => !f!.startsWith('/') && !f!.startsWith('.'))) assert.ok(from! in compose.volumes, `${s}: volume ${from}`);
  }
});

test('every file the compose file names from the repository exists', () => {
  let named = 0;
  for (const [name, s] of Object.entries(services)) {
    for (const v of (s.volumes ?? []) as string[]) {
      const from = v.split(':')[0]!;
      if (!from.startsWith('.')) continue;
      named++;
      assert.ok(existsSync(resolve(DEPLOY, from)), `${name}: ${from}`);
    }
  }
  assert.ok(named >= 2, 'named >= 2');
  assert.match(services.front.entrypoint.join(' '), /\/contrail\/render\.sh \/contrail\/contrail\.conf/);
});

test("the front's configuration, rendered by its container's script with its environment, passes nginx -t", async (t) => {
  const nginx = process.env.NGINX ?? '/usr/sbin/nginx';
  if (!existsSync(nginx)) throw new Error(`nginx not found at ${nginx}: apt-get install -y nginx`);
  const run = mkdtempSync(join(tmpdir(), 'contrail-compose-nginx-'));
  const env = { ...process.env, ...services.front.environment, CONTRAIL_NGINX_RUN: run };
  const out = join(run, 'nginx.conf');
  const r = spawnSync('sh', [join(DEPLOY, 'nginx/render.sh'), join(DEPLOY, 'nginx/contrail.conf'), out], { env, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const conf = readFileSync(out, 'utf8');
  assert.match(conf, /upstream contrail_live \{\n\s+server live:8080;/);
  assert.match(conf, /listen 0\.0\.0\.0:8080;/);
  // `live` resolves only on the compose network: check the rest with a loopback upstream
  const local = join(run, 'local.conf');
  const r2 = spawnSync('sh', [join(DEPLOY, 'nginx/render.sh'), join(DEPLOY, 'nginx/contrail.conf'), local], {
    env: { ...env, CONTRAIL_NGINX_LIVE: '127.0.0.1:9 127.0.0.2:9', CONTRAIL_NGINX_LISTEN: `127.0.0.1:${await freePort()}` },
    encoding: 'utf8',
  });
  assert.equal(r2.status, 0, r2.stderr);
  assert.match(readFileSync(local, 'utf8'), /server 127\.0\.0\.1:9;\n\s+server 127\.0\.0\.2:9;/, 'one server line per replica');
  const check = spawnSync(nginx, ['-t', '-p', run, '-c', local, '-e', join(run, 'error.log')], { encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr);
  t.diagnostic(check.stderr.trim().split('\n').at(-1) ?? '');
});

test('the render script refuses missing or unsafe values instead of writing a broken configuration', () => {
  const run = mkdtempSync(join(tmpdir(), 'contrail-render-'));
  const base = {
    PATH: process.env.PATH!,
    CONTRAIL_NGINX_LISTEN: '127.0.0.1:8080',
    CONTRAIL_NGINX_ARTIFACTS: '/a',
    CONTRAIL_NGINX_BUNDLES: '/b',
    CONTRAIL_NGINX_RUN: run,
    CONTRAIL_NGINX_LIVE: '127.0.0.1:8000',
  };
  const out = join(run, 'x.conf');
  for (const [env, says] of [
    [{ ...base, CONTRAIL_NGINX_LIVE: '' }, /CONTRAIL_NGINX_LIVE is not set/],
    [{ ...base, CONTRAIL_NGINX_ARTIFACTS: '/a; include /etc/passwd' }, /CONTRAIL_NGINX_ARTIFACTS may hold only/],
    [{ ...base, CONTRAIL_NGINX_BUNDLES: '/b}' }, /CONTRAIL_NGINX_BUNDLES may hold only/],
  ] as [Record<string, string>, RegExp][]) {
    const r = spawnSync('sh', [join(DEPLOY, 'nginx/render.sh'), join(DEPLOY, 'nginx/contrail.conf'), out], { env, encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, says);
    assert.ok(!existsSync(out), 'nothing written');
  }
  assert.equal(spawnSync('sh', [join(DEPLOY, 'nginx/render.sh')], { encoding: 'utf8' }).status, 2);
});
