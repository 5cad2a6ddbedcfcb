// a published tree whose flights and movements live in segments (artifacts/segments.ts), night by
// night: each night writes its newest day and the one before as segments, keeps every other day's
// from the previous version, and publishes. the documents are the real builders' (a few airframes,
// one airport under both spellings); a closed day keeps the route the night it closed knew.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { commit, stage } from '../../build/publish/publish.ts';
import { keys } from '../../artifacts/keys.ts';
import { flightsDoc, type FlightRow } from '../../artifacts/flights-doc.ts';
import { movementsDoc } from '../../artifacts/movements-doc.ts';
import { SEGMENT_KINDS } from '../../artifacts/segments.ts';

export const HEXES = ['4b1814', '4b1815', 'a1b2c3'];
const AIRPORTS = [{ iata: 'ZRH', icao: 'LSZH', ident: 'LSZH', tz: 'Europe/Zurich' }];
export const DAYS = ['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21'];
const t0 = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

export const flight = (hex: string, day: string, night: string): FlightRow => ({
  callsign: `SWR${hex.length}`,
  reg: null,
  type: 'A320',
  first_ts: t0(day) + 3600,
  last_ts: t0(day) + 7200,
  dep_ts: t0(day) + 3700,
  arr_ts: t0(day) + 7100,
  org: 'ZRH',
  // what a night knows of the route: a closed day keeps the night it closed's
  dst: night === DAYS.at(-1) ? 'LHR' : 'LCY',
  org_ident: 'LSZH',
  dst_ident: null,
  route_source: 'observed+catalog',
  dep_lat: 47.45,
  dep_lon: 8.56,
  arr_lat: null,
  arr_lon: null,
  dep_runway: '28',
  arr_runway: null,
  distance_km: 700,
  max_alt_ft: 36000,
  circuit: false,
  track: [[t0(day) + 3600, 47.45, 8.56, 'ground', 280]],
});

/** the days a night writes: its newest and the one before (a closed day is frozen: build/steps/flights/step.ts) */
const openDays = (days: string[]) => days.slice(-2);

/**
 * One night over `days` (oldest first): each open day's segments written, every other day kept
 * from the previous version (keepDay), nothing else built; `keep` older versions kept.
 */
export function night(root: string, id: string, days: string[], keep = 1) {
  const s = stage(root, id);
  for (const day of days) {
    for (const kind of SEGMENT_KINDS) {
      if (!openDays(days).includes(day) && s.writer.segments.keepDay(kind, day)) continue;
      const sink = s.writer.segments.write(kind, day, id);
      if (kind === 'flights') for (const hex of HEXES) sink.put(hex, JSON.stringify(flightsDoc(hex, day, [flight(hex, day, days.at(-1)!)])));
      else
        for (const a of AIRPORTS) {
          const doc = movementsDoc({ iata: a.iata, icao: a.icao, ident: a.ident, tz: a.tz }, day, [
            {
              kind: 'takeoff',
              at: t0(day) + 3700,
              runway: '28',
              callsign: 'SWR6',
              hex: HEXES[0]!,
              reg: null,
              type: 'A320',
              other: 'LHR',
              other_ident: null,
              route_source: 'observed+catalog',
              circuit: false,
            },
          ]);
          const json = JSON.stringify(doc);
          sink.put(a.iata, json, doc);
          sink.put(a.icao, json, doc);
        }
      s.writer.segments.finish(sink, `${day}T23:59:59.000Z`);
    }
  }
  s.writer.put(keys.routesTable(), {});
  s.writer.writeManifest({ build_id: id, built_at: '2026-11-22T03:00:00.000Z', archive_through: days.at(-1)!, window_days: days.length, counts: {} });
  return { version: commit(root, s, keep), writer: s.writer };
}

/** every segment folder on disk, kind/date/id */
export const segmentsOnDisk = (root: string) =>
  SEGMENT_KINDS.flatMap((k) =>
    existsSync(join(root, 'segments', k))
      ? readdirSync(join(root, 'segments', k)).flatMap((d) => readdirSync(join(root, 'segments', k, d)).map((id) => `${k}/${d}/${id}`))
      : [],
  ).sort();
