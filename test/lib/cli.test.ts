// the one command runner: --help, stray arguments, configuration errors, failures and exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, RUNNING, runCommand, runSubcommand, type Command, type Io, type Specs } from '../../lib/cli.ts';

interface C {
  port: number;
  name: string;
  verbose: boolean;
}
const specs: Specs<C> = {
  port: { flag: 'port', env: 'T_PORT', kind: 'int', default: 8080, help: 'port', check: (v) => (v >= 0 && v <= 65535 ? undefined : 'must be 0..65535') },
  name: { flag: 'name', env: 'T_NAME', kind: 'string', default: '', help: 'required name' },
  verbose: { flag: 'verbose', env: 'T_VERBOSE', kind: 'bool', default: false, help: 'talk more' },
};

function harness(run: Command<C>['run'] = async () => 0, onFailure?: Command<C>['onFailure']) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const seen: C[] = [];
  const cmd: Command<C> = {
    name: 'tool',
    usage: 'usage: tool [options]',
    specs,
    check: (c) => {
      if (!c.name) throw new ConfigError('--name is required');
    },
    run: async (c) => (seen.push(c), run(c)),
    onFailure,
  };
  return { cmd, io, out, err, seen };
}

test('--help prints the usage and every option, exits 0, and runs nothing, even with a required option missing', async () => {
  const h = harness();
  assert.equal(await runCommand(h.cmd, ['--help'], {}, h.io), 0);
  assert.match(h.out.join('\n'), /^usage: tool \[options\][\s\S]*--port <int>[\s\S]*env T_PORT; default: 8080[\s\S]*--name/);
  assert.deepEqual(h.seen, []);
});

test("configuration problems exit 2 with the command's name and the fix, and run nothing", async () => {
  for (const [argv, env, pattern] of [
    [['--name', 'x', 'stray'], {}, /^tool: unexpected argument "stray" \(see --help\)$/],
    [['--name', 'x', '--verbose', 'maybe'], {}, /unexpected argument "maybe"/],
    [['--bogus'], {}, /^tool: unknown flag --bogus/],
    [['--name', 'x', '--port', 'eighty'], {}, /^tool: flag --port: expected an integer/],
    [['--name', 'x'], { T_PORT: '70000' }, /^tool: --port: must be 0\.\.65535$/],
    [[], {}, /^tool: --name is required$/],
  ] as [string[], NodeJS.ProcessEnv, RegExp][]) {
    const h = harness();
    assert.equal(await runCommand(h.cmd, argv, env, h.io), 2, argv.join(' '));
    assert.match(h.err.join('\n'), pattern);
    assert.deepEqual(h.seen, [], `${argv.join(' ')}: nothing ran`);
  }
});

test('a good configuration runs once, with flags over environment over defaults', async () => {
  const h = harness(async () => 0);
  assert.equal(await runCommand(h.cmd, ['--name', 'x', '--verbose'], { T_PORT: '9000', T_NAME: 'env' }, h.io), 0);
  assert.deepEqual(h.seen, [{ port: 9000, name: 'x', verbose: true }]);
  const server = harness(async () => RUNNING);
  assert.equal(await runCommand(server.cmd, ['--name', 'x'], {}, server.io), RUNNING, 'a server keeps running');
});

test("a failure exits 1 with the stack and the command's last word; a ConfigError thrown while running exits 2", async () => {
  const h = harness(
    async () => {
      throw new Error('disk full');
    },
    () => 'the published tree is unchanged',
  );
  assert.equal(await runCommand(h.cmd, ['--name', 'x'], {}, h.io), 1);
  assert.match(h.err[0]!, /^tool: failed: Error: disk full\n\s+at /);
  assert.equal(h.err[1], 'tool: the published tree is unchanged');
  const c = harness(async () => {
    throw new ConfigError('no day folder under --history');
  });
  assert.equal(await runCommand(c.cmd, ['--name', 'x'], {}, c.io), 2);
  assert.deepEqual(c.err, ['tool: no day folder under --history']);
});

test('subcommands: unknown or missing is exit 2 with the usage; --help is 0; a known one runs with the rest', async () => {
  const h = harness();
  const cmds = { go: h.cmd };
  assert.equal(await runSubcommand('sim', 'usage: sim <go>', cmds, ['bogus'], {}, h.io), 2);
  assert.match(h.err.join('\n'), /^sim: unknown command "bogus"\nusage: sim <go>$/);
  assert.equal(await runSubcommand('sim', 'usage: sim <go>', cmds, [], {}, h.io), 2);
  assert.match(h.err.join('\n'), /sim: a command is required/);
  assert.equal(await runSubcommand('sim', 'usage: sim <go>', cmds, ['--help'], {}, h.io), 0);
  assert.equal(await runSubcommand('sim', 'usage: sim <go>', cmds, ['go', '--name', 'y'], {}, h.io), 0);
  assert.deepEqual(
    h.seen.map((c) => c.name),
    ['y'],
  );
  // an inherited name is not a command
  assert.equal(await runSubcommand('sim', 'usage', cmds, ['toString'], {}, h.io), 2);
});
