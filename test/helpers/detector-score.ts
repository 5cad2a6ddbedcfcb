// scores the take-off/landing detector against the hand-labelled real traces
// (test/fixtures/traffic/labels.json): precision and recall at ±30 s, and airport accuracy.
// used by bench/detector/score.ts (prints the table) and test/lib/detector-truth.test.ts (guards it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cutLegs, type TrackPoint } from '../../lib/detector.ts';
import { fieldsOf } from '../../lib/reference/fields.ts';
import type { AirportLocator } from '../../lib/reference/locate.ts';
import { contactTrack } from '../../lib/reference/runway-fit.ts';
import { TRAFFIC } from './traffic.ts';
import { loadProjectAirfields, loadSource, type SourceName } from './detector-sources.ts';

export const TOLERANCE_S = 30;

interface Label {
  hex: string;
  kind: 'dep' | 'arr';
  t: number;
  airport: string;
  note?: string;
}
/** kind: only that kind is ignored there (a touchdown not timed right before a take-off that is) */
interface Ignore {
  hex: string;
  from: number;
  to: number;
  kind?: 'dep' | 'arr';
}
interface SourceLabels {
  reviewed: 'all' | string[];
  events: Label[];
  ignore: Ignore[];
}
const labels = JSON.parse(readFileSync(join(TRAFFIC, 'labels.json'), 'utf8')) as { sources: Record<SourceName, SourceLabels> };

interface Found {
  hex: string;
  kind: 'dep' | 'arr';
  t: number;
  airport: string | null;
  /** the runway end the log would record (lib/reference/place.ts), null when not known */
  runway: string | null;
  lat: number;
  lon: number;
}

export interface Score {
  name: SourceName;
  heldOut: boolean;
  labelled: number;
  found: number;
  matched: number;
  airportOk: number;
  /** matched events the log gives a runway end */
  runways: number;
  /** every matched event with the airport and runway the log records, in label order */
  placed: { hex: string; kind: 'dep' | 'arr'; t: number; airport: string | null; runway: string | null }[];
  /** |detected - labelled| of each match, s, ascending */
  dts: number[];
  /** one line per miss, false detection and wrong airport */
  notes: string[];
}

const hhmmss = (t: number) => new Date(t * 1000).toISOString().slice(11, 19);

/** baseline: the detector without airfield knowledge, as the nightly ran before it had any. airports are
 * placed as the log places them (build/log/airfields.ts: runway fit, the aircraft's class) */
export function scoreSource(name: SourceName, locator: AirportLocator, baseline = false): Score {
  const fields = fieldsOf(locator);
  const { locate } = loadProjectAirfields();
  const src = loadSource(name);
  const lab = labels.sources[name];
  const scored = (hex: string) => lab.reviewed === 'all' || lab.reviewed.includes(hex);
  const ignored = (hex: string, t: number, kind: 'dep' | 'arr') =>
    lab.ignore.some((i) => i.hex === hex && t >= i.from && t <= i.to && (!i.kind || i.kind === kind));
  const detect = (hex: string, pts: TrackPoint[]): Found[] =>
    cutLegs(pts, baseline ? {} : { fields }).flatMap((leg) =>
      (
        [
          ['dep', leg.departure],
          ['arr', leg.arrival],
        ] as const
      ).flatMap(([kind, e]) => {
        if (!e) return [];
        const how = kind === 'dep' ? 'takeoff' : 'landing';
        const p = locate({ kind: how, lat: e.lat, lon: e.lon, track: contactTrack(pts, e.index, how) }, src.types?.get(hex) ?? null);
        return [{ hex, kind, t: e.at, lat: e.lat, lon: e.lon, airport: p?.ident ?? null, runway: p?.runway ?? null }];
      }),
    );
  const truth = lab.events.filter((e) => !ignored(e.hex, e.t, e.kind));
  // a label outside an ignore window matches a detection inside it too (a window that ends on the first
  // point after a gap must not hide the take-off labelled there); unmatched detections in a window are
  // not scored
  const found = [...src.tracks].filter(([hex]) => scored(hex)).flatMap(([hex, pts]) => detect(hex, pts));
  // greedy: each label takes the nearest unused detection of its aircraft and kind within the tolerance
  const used = new Set<Found>();
  const s: Score = { name, heldOut: src.heldOut, labelled: truth.length, found: 0, matched: 0, airportOk: 0, runways: 0, placed: [], dts: [], notes: [] };
  for (const l of truth) {
    let best: Found | null = null;
    for (const f of found) {
      if (used.has(f) || f.hex !== l.hex || f.kind !== l.kind || Math.abs(f.t - l.t) > TOLERANCE_S) continue;
      if (!best || Math.abs(f.t - l.t) < Math.abs(best.t - l.t)) best = f;
    }
    if (!best) {
      const other = found
        .filter((f) => f.hex === l.hex && f.kind === l.kind)
        .map((f) => hhmmss(f.t))
        .join(' ');
      s.notes.push(
        `${name} ${l.hex} ${l.kind} ${hhmmss(l.t)} ${l.airport}: MISSED${other ? ` (found ${l.kind} at ${other})` : ''}${l.note ? ` — ${l.note}` : ''}`,
      );
      continue;
    }
    used.add(best);
    s.matched++;
    if (best.runway) s.runways++;
    s.placed.push({ hex: l.hex, kind: l.kind, t: l.t, airport: best.airport, runway: best.runway });
    s.dts.push(Math.abs(best.t - l.t));
    if (best.airport === l.airport) s.airportOk++;
    else s.notes.push(`${name} ${l.hex} ${l.kind} ${hhmmss(l.t)}: airport ${best.airport} (labelled ${l.airport})`);
  }
  for (const f of found) {
    if (used.has(f)) s.found++;
    else if (!ignored(f.hex, f.t, f.kind)) {
      s.found++;
      s.notes.push(`${name} ${f.hex} ${f.kind} ${hhmmss(f.t)} ${f.airport ?? '-'}: FALSE`);
    }
  }
  s.dts.sort((a, b) => a - b);
  return s;
}
