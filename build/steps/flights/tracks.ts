// adapter: a day's track points from the log's `points` view, grouped by leg, read column by column
// from DuckDB's chunks: no JavaScript object per point (row objects were half the flights step's
// CPU, about 10 us a point: docs/perf-log/flights-scale.md). a leg is a run of one `g` (its rank
// among the day's legs), so a point's hex and first_ts are read only where a leg starts.
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import type { FlightPoint } from '../../../artifacts/flights-doc.ts';
import { sqlString, streamChunks } from '../duck.ts';

/** the key a leg's track is filed under: its hex and first_ts */
export const trackKey = (hex: string, firstTs: number | bigint) => `${hex} ${firstTs}`;

/** SQL: the day's points, a leg's together, oldest first; columns in the order readChunk reads them */
const pointsSql = (day: string) => `SELECT (dense_rank() OVER (ORDER BY hex, first_ts))::INTEGER AS g, hex, first_ts, t, lat, lon, alt_baro, ground, track
  FROM points WHERE day = DATE ${sqlString(day)} ORDER BY hex, first_ts, t`;

interface Open {
  g: number;
  list: FlightPoint[];
}

/** file one chunk's points under their legs in `out`, carrying the leg a chunk ends inside over in `open` */
function readChunk(chunk: DuckDBDataChunk, out: Map<string, FlightPoint[]>, open: Open): void {
  const v = (i: number) => chunk.getColumnVector(i);
  const [g, hex, firstTs, t, lat, lon, alt, ground, track] = [v(0), v(1), v(2), v(3), v(4), v(5), v(6), v(7), v(8)];
  for (let i = 0; i < chunk.rowCount; i++) {
    const leg = g.getItem(i) as number;
    if (leg !== open.g) {
      open.g = leg;
      open.list = [];
      out.set(trackKey(hex.getItem(i) as string, firstTs.getItem(i) as bigint), open.list);
    }
    open.list.push([
      t.getItem(i) as number,
      lat.getItem(i) as number,
      lon.getItem(i) as number,
      ground.getItem(i) ? 'ground' : (alt.getItem(i) as number | null),
      track.getItem(i) as number | null,
    ]);
  }
}

/** The tracks of the legs of `day` (UTC), by trackKey, each oldest first. */
export async function dayTracks(db: DuckDBConnection, day: string): Promise<Map<string, FlightPoint[]>> {
  const out = new Map<string, FlightPoint[]>();
  const open: Open = { g: -1, list: [] };
  for await (const chunk of streamChunks(db, pointsSql(day))) readChunk(chunk, out, open);
  return out;
}
