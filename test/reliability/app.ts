// the whole service in this process for the reliability suite: every route of the real app on the
// real uWebSockets.js server, over a real published tree (built by the real steps) and a real
// readsb snapshot, with the clock pinned.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App, type AppOptions } from '../../server/app.ts';
import { loadServerConfig } from '../../server/config.ts';
import { makeFixture, NOW_MS, type Fixture } from '../helpers/publish-fixture.ts';

export interface RunningApp {
  app: App;
  /** the published fixture (log and artifact root) */
  fx: Fixture;
  base: string;
  port: number;
  feed: string;
  logs: string[];
  /** writes the feed file with the sample's aircraft at `nowS` and makes the server take it */
  feedAt(nowS: number): Promise<void>;
  stop(): void;
}

const SAMPLE = JSON.parse(readFileSync(new URL('../fixtures/feed/readsb_sample.json', import.meta.url), 'utf8')) as { now: number };

/** `logger`: the app's log and event sinks instead of collecting lines in `logs` (test/server/logs.test.ts) */
export async function startApp(clock: () => number = () => NOW_MS, extraFlags: string[] = [], logger?: Pick<AppOptions, 'log' | 'event'>): Promise<RunningApp> {
  const fx = await makeFixture(4, 6);
  const dir = mkdtempSync(join(tmpdir(), 'contrail-rel-'));
  const feed = join(dir, 'aircraft.json');
  writeFileSync(feed, JSON.stringify({ ...SAMPLE, now: clock() / 1000 }));
  const { config } = loadServerConfig(
    [
      '--port',
      '0',
      '--feed',
      feed,
      '--artifacts',
      fx.root,
      '--state',
      join(dir, 'state'),
      ...(extraFlags.includes('--rate-limits') ? [] : ['--no-rate-limits']),
      ...extraFlags,
    ],
    {},
  );
  const logs: string[] = [];
  const app = await createApp(config, { ...(logger ?? { log: (l) => logs.push(l) }), clock, poll: false });
  const feedAt = async (nowS: number) => {
    writeFileSync(feed, JSON.stringify({ ...SAMPLE, now: nowS }));
    // a process started with --feed '' (history only) has nothing to poll
    if (!app.services.feed) return;
    await app.services.feed.pollOnce();
    // the snapshot goes live once its gzip is made (off the event loop): wait until the served
    // snapshot is this one (a refused snapshot never is: then the wait ends after 2 s)
    const held = () => {
      const age = app.services.live.ageS(clock());
      return age === null ? -Infinity : clock() / 1000 - age;
    };
    const target = Math.min(nowS, clock() / 1000);
    for (let i = 0; i < 200 && held() < target - 1e-6; i++) await new Promise((r) => setTimeout(r, 10));
  };
  await feedAt(clock() / 1000);
  return { app, fx, base: `http://127.0.0.1:${app.port}`, port: app.port, feed, logs, feedAt, stop: () => app.stop() };
}
