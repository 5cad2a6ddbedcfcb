// the spellings of a station URL a client may send (curl --path-as-is), for the tests that no log
// holds a station's UUID (the live server's access log, the nginx front's): extra slashes anywhere,
// a trailing slash, case, no dashes, percent-encoding (of digits, of the slashes, twice), the UUID in
// another route's URL or in the query. `routed` marks those the live server routes to the station.
import { request } from 'node:http';

export interface Spelling {
  path: string;
  /** the live server answers it from the station's private status (200 for a known station); the others answer something else */
  routed: boolean;
}

const pct = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

export function uuidSpellings(uuid: string): Spelling[] {
  const bare = uuid.replace(/-/g, '');
  const r = (path: string): Spelling => ({ path, routed: true });
  const n = (path: string): Spelling => ({ path, routed: false });
  return [
    r(`/v1/stations/${uuid}`),
    r(`//v1/stations/${uuid}`),
    r(`/v1//stations/${uuid}`),
    r(`/v1/stations//${uuid}`),
    r(`/v1/stations/${uuid}/`),
    r(`///v1///stations///${uuid}///`),
    r(`/v1/stations/${uuid.toUpperCase()}`),
    r(`/v1/stations/${bare}`),
    r(`/v1/stations/${bare.toUpperCase()}/`),
    r(`/v1/stations/${pct(uuid)}`),
    r(`/v1/stations/${pct(uuid.slice(0, 1))}${uuid.slice(1)}`),
    r(`/v1/stations%2F${uuid}`),
    r(`/v1%2Fstations%2f${uuid}%2F`),
    r(`/v1/stations/${uuid}?check=1`),
    // decoded once by the server: its segment is `%37...`, routed there but not a UUID (422)
    n(`/v1/stations/%25${uuid.charCodeAt(0).toString(16)}${uuid.slice(1)}`),
    n(`/v1/./stations/${uuid}`),
    n(`/v1/station/${uuid}`),
    n(`/v1/trace/${uuid}`),
    n(`/v1/trace/${bare.toUpperCase()}`),
    n(`/v1/airframes/${uuid}`),
    n(`/v2/hex/${pct(bare)}`),
    n(`/v1/stations?uuid=${uuid}`),
  ];
}

/** the texts that must not appear in a log: the UUID in its spellings, and its first and last groups */
export function uuidLeaks(uuid: string): string[] {
  const bare = uuid.replace(/-/g, '');
  return [uuid, uuid.toUpperCase(), bare, bare.toUpperCase(), uuid.slice(0, 8), uuid.slice(-12), uuid.slice(-12).toUpperCase()];
}

/** GET `path` exactly as spelled (a URL would be normalised first: `/./` dropped), a connection of its own; the status */
export function getAsSpelled(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}
