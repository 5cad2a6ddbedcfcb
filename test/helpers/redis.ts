// a real Redis (Debian's redis-server) on a free loopback port, with nothing written to disk.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './ports.ts';

const REDIS = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** true once a PING on a fresh connection is answered +PONG */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => {
      got += d.toString();
      if (got.includes('\r\n')) {
        s.destroy();
        resolve(got.startsWith('+PONG'));
      }
    });
    s.on('error', () => resolve(false));
  });
}

export interface RedisServer {
  port: number;
  url: string;
  /** stops the server and waits for it to exit */
  stop(): Promise<void>;
  /** starts it again on the same port, empty */
  start(): Promise<void>;
}

/** @param port a port of its own (e.g. one a client already tries); a free one by default */
export async function startRedis(port?: number): Promise<RedisServer> {
  const v = spawnSync(REDIS, ['--version'], { encoding: 'utf8' });
  if (v.error || v.status !== 0)
    throw new Error(
      `redis-server not found at ${REDIS}: install it with \`apt-get update && apt-get install -y redis-server\` (Debian package redis-server), or set REDIS_SERVER=/path/to/redis-server`,
    );
  port ??= await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(REDIS, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: 'ignore' });
    // wait until it answers (bounded by attempts, not by a timed assertion)
    for (let i = 0; i < 200; i++) {
      if (await pong(port)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const stop = () =>
    new Promise<void>((done) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return done();
      c.once('exit', () => done());
      c.kill('SIGTERM');
    });
  await start();
  return { port: port!, url: `redis://127.0.0.1:${port}`, stop, start };
}

/** one command on a fresh connection (RESP); resolves to the first reply line */
export function redisCommand(port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('connect', () => s.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`));
    s.on('data', (d) => {
      got += d.toString();
      if (got.includes('\r\n')) {
        s.destroy();
        resolve(got.split('\r\n')[0]!);
      }
    });
    s.on('error', reject);
  });
}
