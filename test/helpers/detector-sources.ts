// the real traffic the detector is scored on (test/fixtures/traffic, credits there), one
// Map<hex, points> per source, and the OurAirports locator the detector and the scorer share.
// `heldOut` sources were labelled before the detector was changed or run on them (bench/detector/README.md).
import { join } from 'node:path';
import { buildLocator, type AirportLocator } from '../../lib/reference/locate.ts';
import { loadAirfieldRows } from '../../lib/reference/fields.ts';
import { airfieldOptions, airfieldTables } from '../../build/log/airfields.ts';
import type { Locate } from '../../build/log/legs.ts';
import type { TrackPoint } from '../../lib/detector.ts';
import { ac671b, positionStream, sampleHexes, sampleTrace } from './traffic.ts';

export interface Source {
  name: string;
  what: string;
  heldOut: boolean;
  tracks: Map<string, TrackPoint[]>;
  /** ICAO type designator by hex, where the source names it (trace files do; position streams do not) */
  types?: Map<string, string | null>;
}

export const SOURCE_NAMES = [
  'globe-sample',
  'ac671b',
  '88nv-1hr',
  '88nv-20min',
  'monterey-grid',
  'monterey-grid-2',
  'monterey-grid-3',
  'monterey-0602',
  'kwvi-1213-tune',
  'kwvi-1213-held',
] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

export function loadSource(name: SourceName): Source {
  switch (name) {
    case 'globe-sample':
      return {
        name,
        what: '22 readsb globe_history traces, 2023-08-30 (airliners, bizjets, GA)',
        heldOut: false,
        tracks: new Map(sampleHexes().map((h) => [h, sampleTrace(h).points])),
        types: new Map(sampleHexes().map((h) => [h, sampleTrace(h).type])),
      };
    case 'ac671b':
      return {
        name,
        what: 'a Delta 737-900 trace_full over a day (MSP, DEN)',
        heldOut: false,
        tracks: new Map([['ac671b', ac671b().points]]),
        types: new Map([['ac671b', ac671b().type]]),
      };
    case '88nv-1hr':
      return {
        name,
        what: 'an hour around the 88NV desert airstrip (gliders, tow planes, GA; ground = altitude 0)',
        heldOut: false,
        tracks: positionStream('88nv_20230829_1hr'),
      };
    case '88nv-20min':
      // held out until the monterey-grid-2 round; a tuning source since
      return { name, what: '20 minutes around 88NV the next day', heldOut: false, tracks: positionStream('88nv_20230830_20min') };
    case 'monterey-grid':
      // held out until the monterey-grid-2 round; a tuning source since
      return {
        name,
        what: 'a day of a 1x1 degree cell near Monterey (GA fields, no ground flag)',
        heldOut: false,
        tracks: positionStream('grid_20250601_36_-122'),
      };
    case 'monterey-grid-2':
      // the same day, 72 other aircraft (bench/detector/pick.ts), labelled before the detector was changed or run on them;
      // held out until the monterey-grid-3 round, a tuning source since
      return { name, what: 'the Monterey day, 72 more aircraft', heldOut: false, tracks: positionStream('grid_20250601_36_-122') };
    case 'monterey-grid-3':
      // the same day, the 41 aircraft of the rest heard below 3,000 ft (bench/detector/pick.ts --rest), labelled before the detector was changed or run on them
      return { name, what: 'the Monterey day, the rest heard below 3,000 ft', heldOut: true, tracks: positionStream('grid_20250601_36_-122') };
    case 'monterey-0602':
      // the next day of the same cell (the 210 aircraft heard at or below 5,000 ft), labelled before the
      // circuits round changed the detector or ran it on them: the tuning part of that round
      return { name, what: 'the Monterey cell on 2025-06-02 (GA fields, circuits)', heldOut: false, tracks: positionStream('grid_20250602_36_-122') };
    case 'kwvi-1213-tune':
      // a day within 5 nm of Watsonville (KWVI), six months later: its aircraft with an odd ICAO address,
      // labelled with monterey-0602 before the circuits round, a tuning source of that round
      return {
        name,
        what: 'KWVI 5 nm, 2025-12-13, odd addresses (circuits, touch-and-goes)',
        heldOut: false,
        tracks: byParity(positionStream('kwvi_20251213_5nm'), 1),
      };
    case 'kwvi-1213-held':
      // the same day's aircraft with an even ICAO address: held out from the circuits round (split by the
      // address, before the detector was changed or run on them), scored once when the detector was done
      return { name, what: 'KWVI 5 nm, 2025-12-13, even addresses (held out)', heldOut: true, tracks: byParity(positionStream('kwvi_20251213_5nm'), 0) };
  }
}

/** the aircraft whose ICAO address (a non-ICAO '~' one read without its mark) has this parity */
function byParity(tracks: Map<string, TrackPoint[]>, parity: 0 | 1): Map<string, TrackPoint[]> {
  return new Map([...tracks].filter(([hex]) => parseInt(hex.replace('~', ''), 16) % 2 === parity));
}

let project: { locator: AirportLocator; locate: Locate } | null = null;
/** the project's OurAirports reference data (data/ref) as the nightly loads it: the locator, and the log's
 * placement of a take-off or landing (airport and runway, build/log/airfields.ts); built once per process (~1 s) */
export function loadProjectAirfields(): { locator: AirportLocator; locate: Locate } {
  if (!project) {
    const rows = loadAirfieldRows(join(import.meta.dirname, '..', '..', 'data', 'ref'));
    const tables = airfieldTables(rows.airports, rows.runways, rows.types);
    const locator = buildLocator(rows.airports, rows.runways);
    project = { locator, locate: airfieldOptions(locator, tables.runways, tables.classes).locate };
  }
  return project;
}
export const loadProjectLocator = (): AirportLocator => loadProjectAirfields().locator;
