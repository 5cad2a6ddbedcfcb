// the routes step's decisions kept between builds (state/routes-decisions.json): per callsign
// whether the log heard it in the window, its outcome (route_source, or the reason it has no
// route) and its entry. a night that reuses the previous build (same code, reference data, reviews
// and options: build/publish/inputs.ts) takes a callsign's decision from it, without reading its
// evidence or deciding again, when the decision's inputs cannot have moved:
//   - a heard callsign whose evidence the fold left as it was (routes/evidence-fold.ts `moved`);
//   - a catalog row unheard then and now (its decision is a function of the row alone).
// a file that is missing or not what this code writes gives null: every callsign is decided.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RouteEntry, RouteSource } from '../../../artifacts/routes-table.ts';
import { DECISIONS_STATE } from './step.ts';

export interface PastDecision {
  /** the log heard the callsign in that build's window */
  heard: boolean;
  /** the entry's route_source, or why there was no route */
  outcome: string;
  entry: RouteEntry | null;
}

const FILE = DECISIONS_STATE;
const FORMAT = 1;

/** one row: [callsign, heard 0|1, outcome] or, with a route, [..., org, dst, org_ident, dst_ident, org_seen 0|1, dst_seen 0|1] */
type Row = [string, 0 | 1, string] | [string, 0 | 1, string, string, string, string, string, 0 | 1, 0 | 1];

const SOURCES = new Set<string>(['observed', 'observed+catalog', 'catalog']);
const isText = (x: unknown): x is string => typeof x === 'string' && x.length > 0;
const isBit = (x: unknown): x is 0 | 1 => x === 0 || x === 1;

function decode(row: unknown): [string, PastDecision] | null {
  if (!Array.isArray(row) || (row.length !== 3 && row.length !== 9)) return null;
  const [cs, heard, outcome] = row as unknown[];
  if (!isText(cs) || !isBit(heard) || !isText(outcome)) return null;
  if (row.length === 3) return SOURCES.has(outcome) ? null : [cs, { heard: heard === 1, outcome, entry: null }];
  const [, , , org, dst, orgIdent, dstIdent, orgSeen, dstSeen] = row as unknown[];
  if (!SOURCES.has(outcome) || ![org, dst, orgIdent, dstIdent].every(isText) || !isBit(orgSeen) || !isBit(dstSeen)) return null;
  const entry: RouteEntry = {
    org: org as string,
    dst: dst as string,
    org_ident: orgIdent as string,
    dst_ident: dstIdent as string,
    route_source: outcome as RouteSource,
    org_seen: orgSeen === 1,
    dst_seen: dstSeen === 1,
  };
  return [cs, { heard: heard === 1, outcome, entry }];
}

/** the decisions a version recorded, or null when it recorded none this code can read (then every callsign is decided) */
export function readDecisions(versionDir: string | null): Map<string, PastDecision> | null {
  if (!versionDir) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(join(versionDir, FILE), 'utf8'));
  } catch {
    return null; // not recorded (an older build) or unreadable
  }
  const { format, rows } = (parsed ?? {}) as { format?: unknown; rows?: unknown };
  if (format !== FORMAT || !Array.isArray(rows)) return null;
  const out = new Map<string, PastDecision>();
  for (const row of rows) {
    const d = decode(row);
    if (!d || out.has(d[0])) return null;
    out.set(d[0], d[1]);
  }
  return out;
}

/** record every decision of this build in its version (after writer.readyForFiles): a new file, renamed into place */
export function writeDecisions(versionDir: string, decisions: Iterable<readonly [string, PastDecision]>): void {
  const rows: Row[] = [];
  for (const [cs, d] of decisions) {
    const heard = d.heard ? 1 : 0;
    const e = d.entry;
    rows.push(e ? [cs, heard, e.route_source, e.org, e.dst, e.org_ident, e.dst_ident, e.org_seen ? 1 : 0, e.dst_seen ? 1 : 0] : [cs, heard, d.outcome]);
  }
  const file = join(versionDir, FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, JSON.stringify({ format: FORMAT, rows }));
  renameSync(`${file}.tmp`, file);
}
