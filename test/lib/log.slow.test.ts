// the log every command writes: JSON lines with time, level and msg for a machine, one readable
// line per event for a terminal, the level filter, and the flags that choose them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger, logOptions, type LogConfig } from '../../lib/log.ts';
import { prettyLine } from '../../lib/log-pretty.ts';
import { parseConfig, ConfigError } from '../../lib/cli.ts';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const T = Date.parse('2026-03-01T12:34:56.789Z');

function sink(isTTY?: boolean) {
  const lines: string[] = [];
  let partial = '';
  return {
    lines,
    out: {
      ...(isTTY === undefined ? {} : { isTTY }),
      write(s: string) {
        partial += s;
        const parts = partial.split('\n');
        partial = parts.pop()!;
        lines.push(...parts);
      },
    },
  };
}

const config = (over: Partial<LogConfig> = {}): LogConfig => ({ logFormat: 'json', logLevel: 'info', ...over });

test("json: one object per line with time (ISO, UTC), level by name and msg; a component's level is kept", () => {
  const s = sink();
  const l = createLogger(config(), s.out, () => T);
  l.log('feed: first snapshot with 3 aircraft');
  l.log('feed: invalid_json: Unexpected end (logged once until the feed recovers)', 'warn');
  l.log('error GET /v1/now: Error: boom\n    at x (y.ts:1:1)', 'error');
  l.event('request', { method: 'GET', route: '/v1/now', status: 200 });
  assert.equal(s.lines.length, 4);
  const o = s.lines.map((x) => JSON.parse(x) as Record<string, unknown>);
  assert.deepEqual(o[0], { level: 'info', time: '2026-03-01T12:34:56.789Z', msg: 'feed: first snapshot with 3 aircraft' });
  assert.equal(o[1]!.level, 'warn');
  assert.equal(o[2]!.level, 'error');
  // a stack stays inside its one line
  assert.equal(o[2]!.msg, 'error GET /v1/now: Error: boom\n    at x (y.ts:1:1)');
  assert.deepEqual(o[3], { level: 'info', time: '2026-03-01T12:34:56.789Z', method: 'GET', route: '/v1/now', status: 200, msg: 'request' });
});

test('--log-level drops what is below it, but never an event (the access log, the listening line)', () => {
  const s = sink();
  const l = createLogger(config({ logLevel: 'warn' }), s.out, () => T);
  l.log('routine');
  l.log('debug detail', 'debug');
  l.log('the feed is down', 'warn');
  l.event('request', { status: 200 });
  assert.deepEqual(
    s.lines.map((x) => (JSON.parse(x) as { msg: string }).msg),
    ['the feed is down', 'request'],
  );
  const d = sink();
  createLogger(config({ logLevel: 'debug' }), d.out, () => T).log('debug detail', 'debug');
  assert.equal((JSON.parse(d.lines[0]!) as { level: string }).level, 'debug');
});

test('pretty: one readable line per event, no JSON; auto is pretty on a terminal and json elsewhere', () => {
  const s = sink();
  const l = createLogger(config({ logFormat: 'pretty' }), s.out, () => T);
  l.log('live: fresh snapshot again (3 s old); live routes answer 200');
  l.log('rate limits: Redis at redis://127.0.0.1:6390 does not answer', 'warn');
  l.event('request', { method: 'GET', route: '/v1/trace/:hex', path: '/v1/trace/a b', status: 422, ms: 0.31 });
  assert.deepEqual(s.lines, [
    '12:34:56.789Z INFO  live: fresh snapshot again (3 s old); live routes answer 200',
    '12:34:56.789Z WARN  rate limits: Redis at redis://127.0.0.1:6390 does not answer',
    '12:34:56.789Z INFO  request method=GET route=/v1/trace/:hex path="/v1/trace/a b" status=422 ms=0.31',
  ]);
  for (const line of s.lines) assert.throws(() => JSON.parse(line), SyntaxError);

  const tty = sink(true);
  createLogger(config({ logFormat: 'auto' }), tty.out, () => T).log('hello');
  assert.equal(tty.lines[0], '12:34:56.789Z INFO  hello');
  const pipe = sink(false);
  createLogger(config({ logFormat: 'auto' }), pipe.out, () => T).log('hello');
  assert.equal((JSON.parse(pipe.lines[0]!) as { msg: string }).msg, 'hello');
  // json stays json on a terminal when asked
  const forced = sink(true);
  createLogger(config({ logFormat: 'json' }), forced.out, () => T).log('hello');
  assert.equal((JSON.parse(forced.lines[0]!) as { msg: string }).msg, 'hello');
});

test('pretty: control characters in a message or a field cannot forge a line or drive the terminal', () => {
  const line = prettyLine(JSON.stringify({ level: 'warn', time: '2026-03-01T12:34:56.789Z', msg: 'feed: \u001b[31mred\r fake', path: '/x\ny' }));
  assert.equal(line, '12:34:56.789Z WARN  feed: \\x1b[31mred\\x0d fake path="/x\\ny"');
  // a line that is not JSON (never written by pino) is shown escaped, not dropped
  assert.equal(prettyLine('not json\u0007\n'), 'not json\\x07');
});

test('the flags: --log-format and --log-level take only their listed values', () => {
  assert.deepEqual(parseConfig(logOptions, [], {}).config, { logFormat: 'auto', logLevel: 'info' });
  assert.deepEqual(parseConfig(logOptions, ['--log-format', 'pretty', '--log-level=debug'], {}).config, { logFormat: 'pretty', logLevel: 'debug' });
  assert.equal(parseConfig(logOptions, [], { CONTRAIL_LOG_FORMAT: 'json' }).config.logFormat, 'json');
  for (const [argv, env, says] of [
    [['--log-format', 'xml'], {}, /--log-format: must be one of auto, json, pretty/],
    [['--log-format', 'JSON'], {}, /--log-format: must be one of/],
    [[], { CONTRAIL_LOG_FORMAT: '' }, /--log-format: must be one of/],
    [['--log-level', 'verbose'], {}, /--log-level: must be one of debug, info, warn, error/],
    [[], { CONTRAIL_LOG_LEVEL: 'trace' }, /--log-level: must be one of/],
    [['--log-level'], {}, /--log-level needs a value/],
  ] as [string[], Record<string, string>, RegExp][]) {
    assert.throws(
      () => parseConfig(logOptions, argv, env),
      (e: unknown) => e instanceof ConfigError && says.test(e.message),
      `${argv.join(' ')} ${JSON.stringify(env)}`,
    );
  }
});

test('pretty to a file descriptor: written at once; a descriptor that fails loses the line, never throws', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'contrail-log-')), 'out');
  const fd = openSync(file, 'w');
  const l = createLogger(config({ logFormat: 'pretty' }), fd, () => T);
  l.log('stations: feeder list stale', 'warn');
  assert.equal(readFileSync(file, 'utf8'), '12:34:56.789Z WARN  stations: feeder list stale\n');
  closeSync(fd);
  assert.doesNotThrow(() => l.log('after the close'));
});
