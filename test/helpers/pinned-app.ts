// the whole app in this process with two serving threads and every connection pinned to one of
// them (--listen-thread), for suites that hold each thread to the same cases. the real clock (the
// workers cannot read a pinned one, app.ts), a real published tree, the readsb sample as the feed.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../../server/app.ts';
import { loadServerConfig } from '../../server/config.ts';
import type { Fixture } from './publish-fixture.ts';
import { exchange, get } from './wire.ts';

export interface Pinned {
  app: App;
  port: number;
  /** the thread every connection lands on: 0 the main thread, 1 the worker */
  thread: number;
  logs: string[];
  stop(): Promise<void>;
}

export const SAMPLE = JSON.parse(readFileSync(new URL('../fixtures/feed/readsb_sample.json', import.meta.url), 'utf8')) as {
  now: number;
  aircraft: { hex: string; lat?: number; lon?: number; flight?: string; r?: string; t?: string; squawk?: string }[];
};

/** the app over `fx`, its connections all on `thread`; resolves once that thread answers a live route */
export async function startPinned(thread: number, fx: Fixture, extraFlags: string[] = []): Promise<Pinned> {
  const dir = mkdtempSync(join(tmpdir(), 'contrail-pinned-'));
  const feed = join(dir, 'aircraft.json');
  writeFileSync(feed, JSON.stringify({ ...SAMPLE, now: Date.now() / 1000 }));
  // a suite runs for minutes on a busy machine: the snapshot stays live for an hour
  const flags = [
    '--port',
    '0',
    '--feed',
    feed,
    '--artifacts',
    fx.root,
    '--state',
    join(dir, 'state'),
    '--no-rate-limits',
    '--max-age',
    '3600',
    '--serve-threads',
    '2',
    '--listen-thread',
    String(thread),
    ...extraFlags,
  ];
  const { config } = loadServerConfig(flags, {});
  const logs: string[] = [];
  const app = await createApp(config, { log: (l) => logs.push(l), poll: false });
  if (app.threads !== 2) throw new Error(`the app started ${app.threads} serving thread(s), not 2`);
  await app.services.feed!.pollOnce();
  // the worker takes its copy of the snapshot a moment after the main thread
  for (let i = 0; i < 300; i++) {
    const r = await exchange(app.port, get('/v1/aircraft'), 1, ['GET'], { timeoutMs: 2000 });
    if (r.answers[0]?.status === 200) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  return {
    app,
    port: app.port,
    thread,
    logs,
    stop: async () => {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** answers by serving thread, from /metrics (the workers hand theirs over every 100 ms; it renders every 5 s) */
export async function answersByThread(p: Pinned): Promise<Record<string, number>> {
  await p.app.metrics.render();
  const text = (await exchange(p.port, get('/metrics'), 1, ['GET'])).answers[0]?.body.toString() ?? '';
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^contrail_http_answers_by_thread_total\{thread="(\d+)"\} (\d+)/gm)) out[m[1]!] = Number(m[2]);
  return out;
}
