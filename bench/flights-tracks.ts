// benchmark (run by hand, never a test): a day's track points read for the flights step, row objects
// (allRows, as the step read them before) against column by column (build/steps/flights/tracks.ts),
// alternating in one process on the same day, and the two results compared point for point.
//
//   node --import tsx bench/flights-tracks.ts --log DIR [--day YYYY-MM-DD] [--rounds 3]
//
// --log: a flight log with tracks (e.g. the one `bench/flights-day.ts --out DIR --keep-out` leaves in
// DIR/log); --day: default its first day. printed: points, CPU and wall of each reading per round
// (process CPU, user + sys), and the ratio of the medians.
import './help.ts';
import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { flag, numberFlag } from './flags.ts';
import { listLogDays, openLog } from '../build/log/read.ts';
import { allRows } from '../build/steps/duck.ts';
import { dayTracks } from '../build/steps/flights/tracks.ts';
import type { FlightPoint } from '../artifacts/flights-doc.ts';

const log = flag('log', '');
if (!log) throw new Error('--log DIR is required (a flight log with points.parquet)');
const day = flag('day', '') || listLogDays(log)[0]!;
const rounds = numberFlag('rounds', 3);
const db = await openLog(log, { threads: 1 });
const c = db.connection;

type P = { hex: string; first_ts: number; t: number; lat: number; lon: number; alt_baro: number | null; ground: boolean; track: number | null };
async function byRows(): Promise<Map<string, FlightPoint[]>> {
  const tracks = new Map<string, FlightPoint[]>();
  const pts = await allRows<P>(c, `SELECT hex, first_ts, t, lat, lon, alt_baro, ground, track FROM points WHERE day = DATE '${day}' ORDER BY hex, first_ts, t`);
  for (const p of pts) {
    const k = `${p.hex} ${p.first_ts}`;
    let list = tracks.get(k);
    if (!list) tracks.set(k, (list = []));
    list.push([p.t, p.lat, p.lon, p.ground ? 'ground' : p.alt_baro, p.track]);
  }
  return tracks;
}

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
async function timed(f: () => Promise<Map<string, FlightPoint[]>>) {
  const [w, c0] = [Date.now(), cpu()];
  const out = await f();
  return { out, cpuS: cpu() - c0, wallS: (Date.now() - w) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [rowsCpu, colsCpu] = [[] as number[], [] as number[]];
console.log(
  `day ${day} of ${log}, load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
for (let r = 0; r < rounds; r++) {
  const a = await timed(byRows);
  const b = await timed(() => dayTracks(c, day));
  assert.deepEqual(b.out, a.out, 'the two readings give the same tracks');
  const points = [...a.out.values()].reduce((n, l) => n + l.length, 0);
  rowsCpu.push(a.cpuS);
  colsCpu.push(b.cpuS);
  console.log(
    `round ${r + 1}: ${points} points in ${a.out.size} legs; rows ${a.cpuS.toFixed(2)} s CPU (${a.wallS.toFixed(2)} s wall), columns ${b.cpuS.toFixed(2)} s CPU (${b.wallS.toFixed(2)} s wall)`,
  );
}
console.log(`median CPU: rows ${median(rowsCpu).toFixed(2)} s, columns ${median(colsCpu).toFixed(2)} s: ${(median(rowsCpu) / median(colsCpu)).toFixed(2)}x`);
db.close();
