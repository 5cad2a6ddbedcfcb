// the shipped nginx front (deploy/nginx/contrail.conf), rendered into a temp folder and started for
// real on loopback (Debian's nginx), in front of one live server or several (an upstream of replicas).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpGet } from './http.ts';
import { freePort } from './ports.ts';

const CONF = new URL('../../deploy/nginx/contrail.conf', import.meta.url).pathname;
const RENDER = new URL('../../deploy/nginx/render.sh', import.meta.url).pathname;
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

function nginxOrFail(): string {
  const r = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(
      `nginx not found at ${NGINX}: install it with \`apt-get update && apt-get install -y nginx\` (Debian package nginx), or set NGINX=/path/to/nginx`,
    );
  return NGINX;
}

export interface Front {
  base: string;
  port: number;
  /** its pid, logs and temp files */
  run: string;
  stop(): void;
}

/** `live`: host:port of each live server (more than one: replicas, round-robin as the upstream does) */
export async function startFront(o: { live: string[]; artifacts: string; bundles: string }): Promise<Front> {
  const bin = nginxOrFail();
  const run = mkdtempSync(join(tmpdir(), 'contrail-nginx-'));
  mkdirSync(join(run, 'logs'));
  const port = await freePort();
  // rendered by the script the compose file's front runs (deploy/nginx/render.sh)
  const env = {
    ...process.env,
    CONTRAIL_NGINX_LISTEN: `127.0.0.1:${port}`,
    CONTRAIL_NGINX_ARTIFACTS: o.artifacts,
    CONTRAIL_NGINX_BUNDLES: o.bundles,
    CONTRAIL_NGINX_RUN: run,
    CONTRAIL_NGINX_LIVE: o.live.join(' '),
  };
  const rendered = spawnSync('sh', [RENDER, CONF, join(run, 'nginx.conf')], { env, encoding: 'utf8' });
  if (rendered.status !== 0) throw new Error(`deploy/nginx/render.sh: ${rendered.stderr}`);
  // when the test runs as root, nginx workers drop to nobody: the run folder must be theirs too
  spawnSync('chmod', ['a+rwx', run]);
  const check = spawnSync(bin, ['-t', '-p', run, '-c', join(run, 'nginx.conf'), '-e', join(run, 'error.log')], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`);
  const child: ChildProcess = spawn(bin, ['-p', run, '-c', join(run, 'nginx.conf'), '-e', join(run, 'error.log'), '-g', 'daemon off;'], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  // wait until it answers (bounded by attempts, not by a timed assertion)
  for (let i = 0; i < 100; i++) {
    try {
      await httpGet(`${base}/meta/x`);
      return { base, port, run, stop: () => void child.kill('SIGTERM') };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill('SIGTERM');
  throw new Error(`nginx did not start; see ${join(run, 'error.log')}`);
}
