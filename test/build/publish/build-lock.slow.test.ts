// the build lock names its holder by pid and start time: a lock whose pid now belongs to another
// live process (here a real `sleep`) is taken over with a warning; a lock of a build that really
// runs (a real child process holding it) still blocks, and is taken over once that process is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE, LockHeld, lockRoot, parseLock, PROC, staleBecause, type ProcView } from '../../../build/publish/build-lock.ts';

const fresh = () => mkdtempSync(join(tmpdir(), 'contrail-lock-'));
const exited = (c: ChildProcess) =>
  new Promise<void>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve() : c.once('exit', () => resolve())));

test('a lock naming a live unrelated process (a wrong start time) is taken over with a warning', async () => {
  const root = fresh();
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await new Promise((r) => sleeper.once('spawn', r));
    const start = PROC.startOf(sleeper.pid!);
    assert.ok(start !== null && /^\d+$/.test(start), `a start time of the live sleep: ${start}`);
    writeFileSync(join(root, LOCK_FILE), JSON.stringify({ pid: sleeper.pid, start: String(Number(start) - 500), boot: PROC.bootId() }));
    const warnings: string[] = [];
    const release = lockRoot(root, (l) => warnings.push(l));
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`taking over .*${LOCK_FILE}, which is stale: pid ${sleeper.pid} is another process now`));
    const held = parseLock(readFileSync(join(root, LOCK_FILE), 'utf8'))!;
    assert.deepEqual(held, { pid: process.pid, start: PROC.startOf(process.pid), boot: PROC.bootId() }, 'the lock now names this process');
    assert.equal(sleeper.exitCode, null, 'the unrelated process was left alone');
    release();
  } finally {
    sleeper.kill();
  }
});

test('a lock in the older bare-pid form is stale when that pid started after the lock was written', async () => {
  const root = fresh();
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await new Promise((r) => sleeper.once('spawn', r));
    const file = join(root, LOCK_FILE);
    writeFileSync(file, String(sleeper.pid));
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(file, hourAgo, hourAgo);
    const warnings: string[] = [];
    lockRoot(root, (l) => warnings.push(l))();
    assert.match(warnings.join('\n'), /which is stale: pid \d+ is another process now \(started .*, after the lock was written\)/);
    // the same form naming this process, written after it started: its holder may well run
    writeFileSync(file, String(process.pid));
    assert.throws(
      () => lockRoot(root, () => assert.fail('no takeover')),
      (e: unknown) => e instanceof LockHeld && /another build \(pid \d+\) holds/.test(e.message),
    );
  } finally {
    sleeper.kill();
  }
});

test('the lock of a running build blocks; once that build is gone it is taken over', async () => {
  const root = fresh();
  const mod = new URL('../../../build/publish/build-lock.ts', import.meta.url).href;
  const code = `const { lockRoot } = await import(${JSON.stringify(mod)}); lockRoot(${JSON.stringify(root)}); console.log('held'); setTimeout(() => {}, 60_000);`;
  const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on('data', (d: Buffer) => String(d).includes('held') && resolve());
      holder.once('exit', (c) => reject(new Error(`the holder exited ${c}`)));
    });
    assert.equal(parseLock(readFileSync(join(root, LOCK_FILE), 'utf8'))!.pid, holder.pid);
    assert.throws(() => lockRoot(root, () => assert.fail('no takeover')), new RegExp(`another build \\(pid ${holder.pid}\\) holds`));
    holder.kill('SIGKILL');
    await exited(holder);
    const warnings: string[] = [];
    lockRoot(root, (l) => warnings.push(l))();
    assert.match(warnings.join('\n'), new RegExp(`which is stale: process ${holder.pid} is gone`));
  } finally {
    holder.kill('SIGKILL');
  }
});

test('a lock that names no process, or one from before a reboot, is stale; the same process and boot is not', () => {
  const root = fresh();
  writeFileSync(join(root, LOCK_FILE), 'not a pid');
  const warnings: string[] = [];
  lockRoot(root, (l) => warnings.push(l))();
  assert.match(warnings[0]!, /does not name a process \("not a pid"\)/);
  const view: ProcView = { startOf: (pid) => (pid === 42 ? '1000' : null), bootId: () => 'boot-b', bootTimeS: () => 1_700_000_000, ticks: 100 };
  assert.equal(staleBecause({ pid: 42, start: '1000', boot: 'boot-b' }, 0, view), null);
  assert.match(staleBecause({ pid: 42, start: '1000', boot: 'boot-a' }, 0, view)!, /before the last reboot/);
  assert.match(staleBecause({ pid: 42, start: '999', boot: 'boot-b' }, 0, view)!, /pid 42 is another process now/);
  assert.match(staleBecause({ pid: 43, start: '1000', boot: 'boot-b' }, 0, view)!, /process 43 is gone/);
  // bare pid: started at btime + 10 s; a lock written 5 s after that is the process's, one written a minute before is not
  assert.equal(staleBecause({ pid: 42, start: null, boot: null }, (1_700_000_000 + 15) * 1000, view), null);
  assert.match(staleBecause({ pid: 42, start: null, boot: null }, (1_700_000_000 - 60) * 1000, view)!, /after the lock was written/);
  for (const bad of ['', '-3', '{"pid":0}', '{"pid":"7"}', '[1]']) assert.equal(parseLock(bad), null, bad);
});
