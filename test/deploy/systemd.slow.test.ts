// the shipped systemd units, rendered for this checkout and checked by systemd itself
// (`systemd-analyze verify`: syntax, directives, and that ExecStart's program exists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.ts';

const UNITS = ['contrail.service', 'contrail-nightly.service', 'contrail-nightly.timer', 'contrail-roll.service', 'contrail-roll.timer'];

test('the systemd units verify clean with systemd-analyze, rendered for this installation', (t) => {
  if (!existsSync('/usr/bin/systemd-analyze')) return t.skip('systemd-analyze is not on this machine (Debian package systemd)');
  const dir = mkdtempSync(join(tmpdir(), 'contrail-systemd-'));
  const v = join(dir, 'var');
  mkdirSync(v);
  for (const u of UNITS) {
    const text = readFileSync(join(ROOT, 'deploy', 'systemd', u), 'utf8')
      .replaceAll('__ROOT__', ROOT)
      .replaceAll('__USER__', 'contrail')
      .replaceAll('__FEED__', '/run/readsb/aircraft.json')
      .replaceAll('__VAR__', v)
      .replaceAll('__HISTORY__', '/var/globe_history')
      .replaceAll('__TIMETABLES__', '/srv/timetables');
    assert.ok(!/__[A-Z]+__/.test(text), `${u}: every placeholder is documented and rendered`);
    writeFileSync(join(dir, u), text);
  }
  const r = spawnSync('/usr/bin/systemd-analyze', ['verify', ...UNITS.map((u) => join(dir, u))], { encoding: 'utf8', timeout: 60_000 });
  // only complaints about our units count: the host's own units may be odd in a container
  const ours = `${r.stdout}${r.stderr}`.split('\n').filter((l) => UNITS.some((u) => l.includes(u)));
  assert.deepEqual(ours, [], ours.join('\n'));
  // the timer starts the nightly service of the same name, and the server runs behind the front
  assert.match(readFileSync(join(ROOT, 'deploy/systemd/contrail.service'), 'utf8'), /--trust-proxy 127\.0\.0\.1/);
});
