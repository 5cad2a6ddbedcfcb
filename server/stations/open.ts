// start-up of the station parts from --state and --stations, in one call for server/app.ts.
import { StationKeys } from './ids.ts';
import { Roster, type RosterOptions } from './roster.ts';
import { StationSource, type StationsFormat, type StationSourceOptions } from './source.ts';
import { StationStore } from './roster-file.ts';
import type { Log } from '../../lib/log.ts';

export interface Stations {
  keys: StationKeys;
  roster: Roster;
  store: StationStore;
  /** null when no feeder list is configured (presence unavailable: station_count null) */
  source: StationSource | null;
}

export interface OpenStationsOptions extends RosterOptions {
  /** --state directory */
  state: string;
  /** --stations: file path or http(s) URL; empty for none */
  location: string;
  /** --stations-format; default auto */
  format?: StationsFormat;
  clock: () => number;
  log: Log;
  source?: Partial<Pick<StationSourceOptions, 'intervalMs' | 'saveEveryMs' | 'timeoutMs' | 'maxBytes' | 'fetch'>>;
}

/** Read the secret and the saved roster from --state and build the source (not started: call source.start()). */
export function openStations(o: OpenStationsOptions): Stations {
  const store = new StationStore(o.state);
  const keys = new StationKeys(store.loadSecret());
  const roster = new Roster(o);
  const loaded = store.load(keys);
  if (loaded.problem) o.log(`stations: ${loaded.problem}`, 'warn');
  if (loaded.skipped) o.log(`stations: ${loaded.skipped} malformed row(s) in the saved roster left out`, 'warn');
  roster.restore(loaded.stations, o.clock());
  const source = o.location
    ? new StationSource({ ...o.source, location: o.location, ...(o.format ? { format: o.format } : {}), roster, keys, store, clock: o.clock, log: o.log })
    : null;
  return { keys, roster, store, source };
}
