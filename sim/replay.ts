// replay a real position stream (one JSON object per position: now, hex, flight, alt_baro, gscp,
// lat, lon, track) as a readsb-style aircraft.json, rewritten atomically once a second.
// the stream's day is mapped onto today at the same time of day and looped, so the sky looks like
// it did then. like readsb, an aircraft keeps its last state and is dropped after 60 s of silence.
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { helpText, parseConfig, type Specs } from '../lib/cli.ts';

export interface Position {
  t: number; // seconds of day, 0..86399
  hex: string;
  flight?: string;
  alt?: number;
  gs?: number;
  lat: number;
  lon: number;
  track?: number;
}

const DAY = 86400;
const DROP_AFTER_S = 60;

/** Parse a JSONL position stream; bad lines are skipped and counted. Sorted by time of day. */
export function parseStream(text: string): { positions: Position[]; skipped: number } {
  const positions: Position[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    const { now, hex, lat, lon } = o as { now: unknown; hex: unknown; lat: unknown; lon: unknown };
    if (typeof now !== 'number' || typeof hex !== 'string' || typeof lat !== 'number' || typeof lon !== 'number') {
      skipped++;
      continue;
    }
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    const flight = typeof o.flight === 'string' && o.flight !== 'N/A' ? o.flight : undefined;
    positions.push({ t: ((Math.floor(now) % DAY) + DAY) % DAY, hex: hex.toLowerCase(), flight, alt: num(o.alt_baro), gs: num(o.gscp ?? o.gs), lat, lon, track: num(o.track) });
  }
  positions.sort((a, b) => a.t - b.t);
  return { positions, skipped };
}

/** The second of day at which the stream is busiest (the hour with most positions), to start a replay there. */
export function busiestSecond(positions: Position[]): number {
  const perHour = new Array<number>(24).fill(0);
  for (const p of positions) perHour[Math.floor(p.t / 3600)]!++;
  return perHour.indexOf(Math.max(...perHour)) * 3600;
}

/**
 * The aircraft.json document stamped `nowS`, showing the stream as it was at second of day `streamTod`:
 * each aircraft's last state in the 60 s before.
 */
export function snapshotAt(positions: Position[], streamTod: number, nowS: number, messages = 0): object {
  const tod = ((Math.floor(streamTod) % DAY) + DAY) % DAY;
  const last = new Map<string, Position>();
  // the 60 s before tod, wrapping at midnight
  const from = tod - DROP_AFTER_S;
  const inWindow = (t: number) => (from >= 0 ? t > from && t <= tod : t > from + DAY || t <= tod);
  for (const p of positions) if (inWindow(p.t)) {
    const prev = last.get(p.hex);
    const age = (x: Position) => (tod - x.t + DAY) % DAY;
    if (!prev || age(p) < age(prev)) last.set(p.hex, p);
  }
  const aircraft = [...last.values()].map((p) => {
    const seen = (tod - p.t + DAY) % DAY;
    // this stream reports the ground as altitude 0
    const ground = p.alt !== undefined && p.alt <= 0;
    return {
      hex: p.hex,
      type: 'adsb_icao',
      ...(p.flight ? { flight: p.flight.padEnd(8, ' ') } : {}),
      ...(p.alt !== undefined ? { alt_baro: ground ? 'ground' : Math.round(p.alt) } : {}),
      ...(p.gs !== undefined ? { gs: p.gs } : {}),
      ...(p.track !== undefined ? { track: p.track } : {}),
      lat: p.lat,
      lon: p.lon,
      seen_pos: seen,
      seen,
      messages: 1,
      rssi: -20,
    };
  });
  return { now: nowS, messages, aircraft };
}

interface ReplayConfig {
  input: string;
  out: string;
  intervalMs: number;
}

const specs: Specs<ReplayConfig> = {
  input: { flag: 'input', env: 'CONTRAIL_REPLAY_INPUT', kind: 'string', default: 'data/demo/grid_20250601_36_-122.jsonl.gz', help: 'JSONL position stream (gzip or plain)' },
  out: { flag: 'out', env: 'CONTRAIL_REPLAY_OUT', kind: 'string', default: 'var/demo/aircraft.json', help: 'aircraft.json to rewrite (atomically, by rename)' },
  intervalMs: { flag: 'interval-ms', env: 'CONTRAIL_REPLAY_INTERVAL_MS', kind: 'int', default: 1000, help: 'milliseconds between snapshots', check: (v) => (v >= 100 ? undefined : 'must be at least 100') },
};

function main() {
  const { config, help } = parseConfig(specs, process.argv.slice(2));
  if (help) return console.log(helpText('Usage: npx tsx sim/replay.ts [options]\n\nReplays a real position stream as a live readsb aircraft.json.', specs));
  let raw = readFileSync(config.input);
  if (raw[0] === 0x1f && raw[1] === 0x8b) raw = gunzipSync(raw);
  const { positions, skipped } = parseStream(raw.toString('utf8'));
  console.error(`replay: ${positions.length} positions (${skipped} bad lines skipped) -> ${config.out} every ${config.intervalMs} ms`);
  mkdirSync(dirname(config.out), { recursive: true });
  // start at the stream's busiest hour and play on in real time, looping over its day
  const offset = busiestSecond(positions) - (Date.now() / 1000) % DAY;
  let messages = 0;
  const tick = () => {
    const now = Date.now() / 1000;
    const doc = snapshotAt(positions, now + offset, now, (messages += 100));
    const tmp = `${config.out}.tmp`;
    writeFileSync(tmp, JSON.stringify(doc));
    renameSync(tmp, config.out);
  };
  tick();
  const timer = setInterval(tick, config.intervalMs);
  const stop = () => {
    clearInterval(timer);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
