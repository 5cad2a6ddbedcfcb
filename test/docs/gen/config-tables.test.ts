import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Specs } from '../../../lib/cli.ts';
import { configTable, shownDefault } from '../../../docs/gen/config-tables.ts';

const ROOT = '/opt/contrail';

test('a default is shown as a person types it: on/off, (none), a path inside the installation relative to it', () => {
  const specs: Specs<any> = {
    a: { flag: 'a', env: 'A', kind: 'bool', default: true, help: 'h' },
    b: { flag: 'b', env: 'B', kind: 'bool', default: false, help: 'h' },
    c: { flag: 'c', env: 'C', kind: 'string', default: '', help: 'h' },
    d: { flag: 'd', env: 'D', kind: 'list', default: [], help: 'h' },
    e: { flag: 'e', env: 'E', kind: 'list', default: ['x', 'y'], help: 'h' },
    f: { flag: 'f', env: 'F', kind: 'string', default: join(ROOT, 'var/state'), help: 'h' },
    g: { flag: 'g', env: 'G', kind: 'string', default: '/srv/elsewhere', help: 'h' },
    h: { flag: 'h', env: 'H', kind: 'int', default: 8388608, help: 'h' },
    i: { flag: 'i', env: 'I', kind: 'int', default: 2, docDefault: 'one per core, at most 2', help: 'h' },
  };
  assert.deepEqual(
    Object.values(specs).map((s) => shownDefault(s, ROOT)),
    ['on', 'off', '(none)', '(none)', '`x,y`', '`var/state`', '`/srv/elsewhere`', '`8388608`', 'one per core, at most 2'],
  );
});

test('a row is the flag as typed, its variable, its default and its doc text, or its help line when it has none', () => {
  const specs: Specs<any> = {
    port: { flag: 'port', env: 'CONTRAIL_PORT', kind: 'int', default: 8080, help: 'TCP port' },
    logIps: { flag: 'log-ips', env: 'CONTRAIL_LOG_IPS', kind: 'bool', default: false, help: 'one line', doc: 'the longer text | with a pipe' },
  };
  assert.equal(
    configTable(specs, ROOT),
    [
      '| flag | environment | default | meaning |',
      '|---|---|---|---|',
      '| `--port` | `CONTRAIL_PORT` | `8080` | TCP port |',
      '| `--[no-]log-ips` | `CONTRAIL_LOG_IPS` | off | the longer text \\| with a pipe |',
    ].join('\n'),
  );
});
