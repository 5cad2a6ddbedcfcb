// benchmark, run by hand: the longest event-loop stall while the server takes an absurd but valid
// feed (the real 12k readsb snapshot repeated 9 times: 58 MB, 111,600 aircraft, capped to 50,000),
// parsed on this thread and on the ingest thread. usage: npx tsx bench/feed-stall.ts
import './help.ts';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync, readFileSync, mkdtempSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { FeedSource } from '../server/ingest/source.ts';
import { IngestThread } from '../server/ingest/ingest-thread.ts';
import { LiveState } from '../server/live/state.ts';
import { aircraftCount, snapshotOf } from '../server/ingest/arrival.ts';
const raw = JSON.parse(gunzipSync(readFileSync(new URL('./data/readsb_aircraft_12k.json.gz', import.meta.url))).toString());
const big = { ...raw, now: Date.now() / 1000, aircraft: [] as any[] };
for (let k = 0; k < 9; k++)
  for (const a of raw.aircraft) big.aircraft.push({ ...a, hex: (parseInt(a.hex.replace('~', ''), 16) ^ (k << 20)).toString(16).padStart(6, '0').slice(-6) });
const file = join(mkdtempSync(join(tmpdir(), 'stall-')), 'aircraft.json');
writeFileSync(file, JSON.stringify(big));
console.log('feed', (readFileSync(file).length / 1e6).toFixed(1), 'MB', big.aircraft.length, 'aircraft');
for (const mode of ['this thread', 'worker thread']) {
  const live = new LiveState();
  const src = new FeedSource({ feed: file, log: () => {}, thread: mode === 'worker thread' ? new IngestThread() : null, maxAircraft: 50_000 });
  src.onSnapshot((s) => void live.acceptWhenReady(snapshotOf(s), Date.now() / 1000));
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const t0 = performance.now();
  await src.pollOnce();
  await new Promise((r) => setTimeout(r, 1500));
  h.disable();
  console.log(
    `${mode}: max event-loop stall ${(h.max / 1e6).toFixed(0)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(0)} ms, poll ${(performance.now() - t0 - 1500).toFixed(0)} ms, kept ${src.current() ? aircraftCount(src.current()!) : undefined}`,
  );
  src.stop();
}
process.exit(0);
