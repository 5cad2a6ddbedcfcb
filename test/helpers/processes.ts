// start the project's real commands as child processes, and stop them cleanly.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MALLOC_ENV } from '../../server/malloc.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = ['--import', 'tsx'];

/** Run a project script to completion (e.g. build/nightly.ts); throws with its stderr when it fails. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv = {}): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...TSX, join(ROOT, script), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 170_000,
  });
  if (r.status !== 0) throw new Error(`${script} ${args.join(' ')} exited ${r.status ?? r.signal}:\n${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}

export interface ServerProcess {
  base: string;
  port: number;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Start server/main.ts with flags on a free port; resolves once it logs its listening line. */
export function startServerProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...TSX, join(ROOT, 'server/main.ts'), '--port', '0', ...args], {
    cwd: ROOT,
    // as every launcher starts it (server/malloc.ts)
    env: { ...process.env, ...MALLOC_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${out}`)), 60_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({
          base: `http://127.0.0.1:${port}`,
          port,
          child,
          output: () => out,
          stop: () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code} before listening:\n${out}`));
    });
  });
}

/** Poll until `check` passes (for pollers that pick up a file within a second or two). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 15_000, stepMs = 200): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}
