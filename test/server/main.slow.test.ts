// the server command: --help lists every setting, bad flags exit 2 with the fix, and it refuses
// to run on uWebSockets.js's slow JavaScript fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { ROOT, startServerProcess } from '../helpers/processes.ts';
import { httpGet } from '../helpers/http.ts';
import { serverOptions, loadServerConfig } from '../../server/config.ts';
import { ConfigError } from '../../lib/cli.ts';

const run = (args: string[], nodeFlags: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [...nodeFlags, '--import', 'tsx', join(ROOT, 'server/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 60_000,
  });

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
    [['--feed-interval', '0'], {}, /--feed-interval: must be 0.05..60/],
    [[], { CONTRAIL_FEED_INTERVAL: 'often' }, /CONTRAIL_FEED_INTERVAL: expected a number/],
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
    [['--log-format', 'xml'], {}, /--log-format: must be one of auto, json, pretty/],
    [[], { CONTRAIL_LOG_FORMAT: 'text' }, /--log-format: must be one of auto, json, pretty/],
    [['--log-level', 'verbose'], {}, /--log-level: must be one of debug, info, warn, error/],
    [[], { CONTRAIL_LOG_LEVEL: '30' }, /--log-level: must be one of debug, info, warn, error/],
    [['--access-log', 'yes'], {}, /unexpected argument "yes" \(see --help\)/],
    [[], { CONTRAIL_ACCESS_LOG: 'sometimes' }, /CONTRAIL_ACCESS_LOG: expected true or false/],
    [[], { CONTRAIL_LOG_IPS: 'perhaps' }, /CONTRAIL_LOG_IPS: expected true or false/],
    [['--serve-threads', '0'], {}, /--serve-threads: must be 1..16/],
    [['--serve-threads', 'two'], {}, /--serve-threads: expected an integer/],
    [['--serve-threads', '1.5'], {}, /--serve-threads: expected an integer/],
    [[], { CONTRAIL_SERVE_THREADS: '17' }, /--serve-threads: must be 1..16/],
    [['--heap-growth-percent', '-5'], {}, /--heap-growth-percent: must be 0..400/],
    [['--heap-growth-percent', 'lots'], {}, /--heap-growth-percent: expected an integer/],
    [[], { CONTRAIL_HEAP_GROWTH_PERCENT: '1000' }, /--heap-growth-percent: must be 0..400/],
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
  // off by default: an answer made later loses a pipelining client (docs/perf-log/serving-threads.md)
  assert.equal(config.gzipOffLoop, 0);
  assert.equal(loadServerConfig(['--gzip-off-loop', '32768'], {}).config.gzipOffLoop, 32 * 1024);
  assert.equal(loadServerConfig(['--gzip-off-loop', '0'], {}).config.gzipOffLoop, 0);
  assert.equal(loadServerConfig([], { CONTRAIL_GZIP_OFF_LOOP: '65536' }).config.gzipOffLoop, 65536);
  for (const bad of ['-1', '1.5', 'big', '']) assert.throws(() => loadServerConfig(['--gzip-off-loop', bad], {}), ConfigError, bad);
  assert.equal(config.shedCompressionAt, 90);
  assert.equal(loadServerConfig(['--shed-compression-at', '0'], {}).config.shedCompressionAt, 0);
  assert.equal(loadServerConfig([], { CONTRAIL_SHED_COMPRESSION_AT: '75' }).config.shedCompressionAt, 75);
  for (const bad of ['-1', '101', '0.9', 'high', '']) assert.throws(() => loadServerConfig(['--shed-compression-at', bad], {}), ConfigError, bad);
  // the test hook that pins connections to one thread, and the worker's wait for the main thread
  assert.equal(config.listenThread, -1);
  assert.equal(loadServerConfig(['--listen-thread', '1'], {}).config.listenThread, 1);
  assert.equal(loadServerConfig([], { CONTRAIL_LISTEN_THREAD: '0' }).config.listenThread, 0);
  for (const bad of ['-2', '16', 'main', '']) assert.throws(() => loadServerConfig(['--listen-thread', bad], {}), ConfigError, bad);
  assert.equal(config.forwardTimeoutMs, 2000);
  assert.equal(loadServerConfig(['--forward-timeout-ms', '50'], {}).config.forwardTimeoutMs, 50);
  for (const bad of ['0', '-5', '60001', '1.5', 'soon']) assert.throws(() => loadServerConfig(['--forward-timeout-ms', bad], {}), ConfigError, bad);
});

test('the process logs JSON lines on stdout (not a terminal: auto is json), the access log with --access-log', async () => {
  const s = await startServerProcess(['--access-log', '--no-rate-limits']);
  let out = '';
  s.child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  try {
    assert.equal((await httpGet(`${s.base}/healthz?probe=1`)).status, 200);
  } finally {
    await s.stop();
  }
  // the exit can come before the last bytes are read from the pipe
  if (!s.child.stdout!.closed) await once(s.child.stdout!, 'close');
  const lines = s
    .output()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const l of lines) assert.deepEqual([typeof l.time, typeof l.level, typeof l.msg], ['string', 'string', 'string'], JSON.stringify(l));
  assert.ok(
    lines.some((l) => l.msg === 'request' && l.route === '/healthz' && l.path === '/healthz' && l.status === 200 && !('ip' in l)),
    s.output(),
  );
  assert.ok(
    lines.some((l) => /^contrail: listening on http:\/\/127\.0\.0\.1:\d+/.test(String(l.msg)) && l.port === s.port),
    'lines.some((l) => /^contrail: listening on http:\\/\\/127\\.0\\.0\\.1:\\d+/.test(String(l.msg)) && l.port === s.port)',
  );
  assert.ok(
    lines.some((l) => l.msg === 'contrail: stopping (SIGTERM)'),
    'written before the exit',
  );
  assert.ok(out.includes('"msg":"request"'), 'on stdout');
});

test('--log-format pretty: one readable line per event, no JSON; no access log unless asked', async () => {
  const s = await startServerProcess(['--log-format', 'pretty', '--no-rate-limits']);
  try {
    assert.equal((await httpGet(`${s.base}/healthz`)).status, 200);
  } finally {
    await s.stop();
  }
  // the exit can come before the last bytes are read from the pipe
  if (!s.child.stdout!.closed) await once(s.child.stdout!, 'close');
  const lines = s.output().split('\n').filter(Boolean);
  assert.match(lines[0]!, /^\d\d:\d\d:\d\d\.\d{3}Z INFO  contrail: listening on http:\/\/127\.0\.0\.1:\d+ .* port=\d+ threads=2$/);
  for (const l of lines) assert.throws(() => JSON.parse(l), SyntaxError, l);
  assert.ok(!lines.some((l) => l.includes(' request ')), s.output());
});

test('a log reader that goes away (EPIPE on stdout) does not take the server down', async () => {
  const s = await startServerProcess(['--access-log', '--no-rate-limits']);
  try {
    s.child.stdout!.destroy();
    for (let i = 0; i < 50; i++) assert.equal((await httpGet(`${s.base}/healthz`)).status, 200, `request ${i}`);
    assert.equal(s.child.exitCode, null, s.output());
  } finally {
    await s.stop();
  }
});
