// the server command: --help lists every setting, bad flags exit 2 with the fix, and it refuses
// to run on uWebSockets.js's slow JavaScript fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.ts';
import { serverOptions, loadServerConfig } from '../../server/config.ts';
import { ConfigError } from '../../lib/cli.ts';

const run = (args: string[], nodeFlags: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', join(ROOT, 'server/main.ts'), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });

test('--help lists every flag with its environment variable, and exits 0', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0, r.stderr);
  for (const spec of Object.values(serverOptions)) {
    assert.ok(r.stdout.includes(`--${spec.flag}`), `--help mentions --${spec.flag}`);
    assert.ok(r.stdout.includes(spec.env), `--help mentions ${spec.env}`);
  }
});

test('malformed flags and environment values exit 2 with a message that names the setting', () => {
  for (const [args, env, pattern] of [
    [['--port', 'eighty'], {}, /--port: expected an integer/],
    [['--port', '70000'], {}, /--port: must be 0..65535/],
    [['--max-age', '-1'], {}, /--max-age: must be greater than 0/],
    [['--bogus'], {}, /unknown flag --bogus/],
    [['--feed'], {}, /--feed needs a value/],
    [[], { CONTRAIL_PORT: '12ab' }, /CONTRAIL_PORT: expected an integer/],
    [[], { CONTRAIL_RATE_LIMITS: 'maybe' }, /CONTRAIL_RATE_LIMITS: expected true or false/],
    // a bool flag takes no separate value: `maybe` would otherwise be ignored and the server start
    [['--rate-limits', 'maybe'], {}, /unexpected argument "maybe" \(see --help\)/],
    [['serve'], {}, /unexpected argument "serve"/],
    [['--stations-format', 'clients'], {}, /--stations-format: must be one of auto, contrail, readsb/],
    [['--rate-limit-redis', 'localhost:6379'], {}, /--rate-limit-redis: must be a redis:\/\/ or rediss:\/\/ URL, or empty/],
    [[], { CONTRAIL_RATE_LIMIT_REDIS: 'http://10.0.0.5' }, /--rate-limit-redis: must be a redis:\/\/ or rediss:\/\/ URL/],
  ] as [string[], Record<string, string>, RegExp][]) {
    const r = run(args, [], env);
    assert.equal(r.status, 2, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
  }
});

test('refuses to start when the native uWebSockets.js binary cannot load (no silent JavaScript fallback)', () => {
  // --no-addons makes every native addon fail to load, as a wrong platform or ABI would
  const r = run(['--port', '0'], ['--no-addons'], { UWS_USE_FALLBACK: '' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /native uWebSockets\.js binary did not load/);
  assert.match(r.stderr, /refuses to run on the JavaScript fallback/);
});

test('config: flags override environment, which overrides defaults; lists split on commas', () => {
  const { config } = loadServerConfig(['--port', '9000', '--trust-proxy', '10.0.0.0/8, 127.0.0.1'], { CONTRAIL_PORT: '7000', CONTRAIL_HOST: '0.0.0.0' });
  assert.equal(config.port, 9000);
  assert.equal(config.host, '0.0.0.0');
  assert.deepEqual(config.trustProxy, ['10.0.0.0/8', '127.0.0.1']);
  assert.equal(config.maxAgeS, 60);
  assert.equal(loadServerConfig(['--no-rate-limits'], {}).config.rateLimits, false);
  assert.throws(() => loadServerConfig(['--trace-minutes=abc'], {}), ConfigError);
  assert.equal(config.gzipOffLoop, 32 * 1024);
  assert.equal(loadServerConfig(['--gzip-off-loop', '0'], {}).config.gzipOffLoop, 0);
  assert.equal(loadServerConfig([], { CONTRAIL_GZIP_OFF_LOOP: '65536' }).config.gzipOffLoop, 65536);
  for (const bad of ['-1', '1.5', 'big', '']) assert.throws(() => loadServerConfig(['--gzip-off-loop', bad], {}), ConfigError, bad);
});
