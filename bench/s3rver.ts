// s3rver (the tests' S3-compatible server) in a child process on loopback, for the upload benches:
// a real store is another process, so the client and the server each get a core, and the server's
// CPU is read apart from the client's.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface BenchServer {
  endpoint: string;
  pid: number;
  stop(): void;
}

/** s3rver storing under `dir`, with `bucket` made */
export async function startServer(dir: string, bucket: string): Promise<BenchServer> {
  const code = `const S3rver = (await import('node:module')).createRequire(${JSON.stringify(import.meta.url)})('s3rver');
const s = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: ${JSON.stringify(dir)}, configureBuckets: [{ name: ${JSON.stringify(bucket)} }] });
console.log((await s.run()).port);`;
  // the legacy provider: s3rver's listing past 1,000 keys (docs/perf-log/s3-test-server.md)
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '--no-warnings', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('exit', (c) => reject(new Error(`s3rver exited ${c}`)));
  });
  return { endpoint: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill() };
}

/** user + system CPU seconds of process `pid` so far */
export const cpuSeconds = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
