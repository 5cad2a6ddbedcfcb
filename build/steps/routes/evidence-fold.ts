// the routes step's log evidence (artifacts/routes-table.ts CallsignEvidence) as three tables kept
// between builds in the version's state/: per (callsign, org, dst) the legs and the latest last_ts,
// per (callsign, type) the legs, per callsign the log days it was heard on. a night that reuses the
// previous build (ctx.reuse, ctx.logDays) folds them instead of reading the window's legs again:
// the added days' legs added, the dropped days' legs (their files as the previous build read them)
// taken away. legs and types are counts. a log day is a partition, so a callsign's days change by
// exactly the added days it was heard on less the dropped ones. a maximum cannot be taken away:
// when a group's saved latest leg lay in a dropped day and the group keeps legs, its latest leg is
// read again from the window's legs, the scan bounded by last_ts (every kept leg ended no later than
// the saved maximum) so Parquet statistics skip most of the year. anything unsure (no reuse, days
// unknown, a state file missing, a count below zero, the tables disagreeing) counts the window.
//
// the window's count reads every leg once, grouped by the callsign as the log spells it (the
// callsign check and upper(trim()) then run on ~3 M groups, not ~50 M legs), with the days a
// group was heard on as bit masks, so a callsign's distinct days are the OR of its groups' masks.
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { LogDays } from '../context.ts';
import type { Reuse } from '../declaration.ts';
import { allRows, countRows, sameKeys, sqlString } from '../duck.ts';
import { deltaLegs } from '../log-delta.ts';
import { daysOf, previousFor } from '../reuse.ts';
import { saveState } from '../state.ts';
import { EVIDENCE_TABLES as TABLES, ROUTES_STEP } from './step.ts';

const stateFile = (dir: string, name: string) => join(dir, 'state', `${name}.parquet`);

/** legs that are evidence: circuits (org = dst) left out (the callsign check runs on the normalised name) */
const LEG_FILTER = `callsign IS NOT NULL AND NOT (org IS NOT NULL AND dst IS NOT NULL AND org = dst)`;
/** a callsign that can be a key */
const keyable = (cs: string) => `regexp_full_match(${cs}, '[A-Z0-9]{2,8}')`;

/** SQL: per callsign its evidence (CallsignEvidence), from the three tables; `only`: a table of the callsigns wanted (column callsign) */
export const evidenceSql = (only?: string) => {
  const of = (t: string) => (only ? `${t} SEMI JOIN ${only} USING (callsign)` : t);
  return `
WITH g AS (
  SELECT callsign, list({org: org, dst: dst, legs: legs, last_ts: last_ts::DOUBLE}) AS groups,
         sum(legs)::INTEGER AS legs, max(last_ts)::DOUBLE AS last_ts
  FROM ${of('ev_groups')} GROUP BY callsign
),
t AS (SELECT callsign, list(type ORDER BY type) AS types FROM ${of('ev_types')} GROUP BY callsign)
SELECT g.callsign, g.legs, d.days, g.last_ts, coalesce(t.types, []) AS types, g.groups
FROM g JOIN ev_days d USING (callsign) LEFT JOIN t USING (callsign)`;
};

/** SQL: every callsign's evidence */
export const EVIDENCE_SQL = evidenceSql();

/** what prepareEvidence did */
export interface EvidencePath {
  /** for the progress line: "folded: ..." or "counted from the window's legs: <why>" */
  line: string;
  /** folded: the callsigns with legs in an added or dropped day (every other one's evidence is the previous build's); counted: null */
  moved: Set<string> | null;
}

/**
 * The temp tables ev_groups, ev_types and ev_days for tonight's window: folded from the previous
 * build's state when the routes step's rule (step.ts, reuse.evidence) may read it and it can be
 * trusted, else counted from the window's legs.
 */
export async function prepareEvidence(
  db: DuckDBConnection,
  prev: string | null,
  days: LogDays | null,
  rule: Reuse = ROUTES_STEP.reuse.evidence,
): Promise<EvidencePath> {
  const previous = previousFor({ reuse: prev, logDays: days }, rule);
  if ('dir' in previous && previous.days) {
    const folded = await foldEvidence(db, previous.dir, daysOf(rule, previous.days));
    if (!('unsure' in folded)) return { line: `folded: ${folded.line}`, moved: folded.moved };
    await dropAll(db);
    await countWindow(db);
    return { line: `counted from the window's legs: ${folded.unsure}`, moved: null };
  }
  await countWindow(db);
  const why = 'why' in previous ? previous.why : 'the log days since the previous build are not known';
  return { line: `counted from the window's legs: ${why}`, moved: null };
}

/** save tonight's evidence in the version being built (after writer.readyForFiles), then drop the tables */
export async function saveEvidence(db: DuckDBConnection, versionDir: string): Promise<void> {
  for (const t of TABLES) await saveState(db, `SELECT * FROM ${t}`, stateFile(versionDir, t));
  await dropAll(db);
}

async function dropAll(db: DuckDBConnection): Promise<void> {
  for (const t of [...TABLES, 'ev_delta', 'ev_folded', 'ev_recomputed']) await db.run(`DROP TABLE IF EXISTS ${t}`);
}

/** the three tables from every leg of the window */
async function countWindow(db: DuckDBConnection): Promise<void> {
  const [span] = await allRows<{ first: string | null; n: number | null }>(
    db,
    `SELECT strftime(min(day), '%Y-%m-%d') AS first, (max(day) - min(day) + 1)::INTEGER AS n FROM legs`,
  );
  const first = span?.first ?? '1970-01-01';
  const words = Math.max(1, Math.ceil((span?.n ?? 1) / 64));
  const w = Array.from({ length: words }, (_, i) => i);
  // the days a group was heard on: bit d % 64 of word d // 64, d the day's index in the window
  const masks = w.map((i) => `bit_or(CASE WHEN d // 64 = ${i} THEN 1::UBIGINT << (d % 64) END) AS m${i}`).join(', ');
  const popcount = w.map((i) => `coalesce(bit_count(bit_or(m${i}))::INTEGER, 0)`).join(' + ');
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_raw AS
    SELECT callsign AS raw, org, dst, type, count(*)::INTEGER AS n, max(last_ts) AS t, ${masks}
    FROM (SELECT callsign, org, dst, type, last_ts, (day - DATE ${sqlString(first)})::INTEGER AS d FROM legs WHERE ${LEG_FILTER})
    GROUP BY ALL`);
  await db.run(`CREATE OR REPLACE TEMP VIEW ev_named AS
    SELECT upper(trim(raw)) AS callsign, * EXCLUDE (raw) FROM ev_raw WHERE ${keyable('upper(trim(raw))')}`);
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_groups AS SELECT callsign, org, dst, sum(n)::INTEGER AS legs, max(t) AS last_ts FROM ev_named GROUP BY ALL`);
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_types AS SELECT callsign, type, sum(n)::INTEGER AS legs FROM ev_named WHERE type IS NOT NULL GROUP BY ALL`);
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_days AS SELECT callsign, (${popcount})::INTEGER AS days FROM ev_named GROUP BY callsign`);
  await db.run(`DROP VIEW ev_named`);
  await db.run(`DROP TABLE ev_raw`);
}

/** the previous build's state with the night's legs folded in: a line saying what was done, or why it was not trusted */
async function foldEvidence(db: DuckDBConnection, prev: string, days: LogDays): Promise<{ line: string; moved: Set<string> } | { unsure: string }> {
  const file = (t: string) => `read_parquet(${sqlString(stateFile(prev, t))})`;
  const delta = deltaLegs(days) ?? `(SELECT *, 0 AS n FROM legs WHERE false)`;
  // the night's evidence legs, +1 for an added day's, -1 for a dropped day's
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_delta AS
    SELECT upper(trim(callsign)) AS callsign, org, dst, type, day, last_ts, n FROM ${delta}
    WHERE ${LEG_FILTER} AND ${keyable('upper(trim(callsign))')}`);
  // groups: legs summed; the latest leg kept, replaced by an added one, or unknown (stale) when the
  // saved one may have left with a dropped day while the group keeps legs the night did not add
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_folded AS
    WITH d AS (
      SELECT callsign, org, dst, count(*) FILTER (n > 0) AS added, count(*) FILTER (n < 0) AS dropped,
             max(last_ts) FILTER (n > 0) AS add_t, max(last_ts) FILTER (n < 0) AS drop_t
      FROM ev_delta GROUP BY ALL
    ),
    j AS (
      SELECT coalesce(p.callsign, d.callsign) AS callsign, coalesce(p.org, d.org) AS org, coalesce(p.dst, d.dst) AS dst,
             coalesce(p.legs, 0) - coalesce(d.dropped, 0) AS kept, coalesce(d.added, 0) AS added,
             p.last_ts AS prev_t, d.add_t, coalesce(d.drop_t >= p.last_ts, false) AS max_left
      FROM ${file('ev_groups')} p FULL JOIN d ON ${sameKeys('p', 'd', ['callsign', 'org', 'dst'])}
    )
    SELECT callsign, org, dst, (kept + added)::INTEGER AS legs, kept, prev_t, add_t,
           CASE WHEN kept = 0 THEN add_t
                WHEN NOT max_left THEN greatest(prev_t, add_t)
                WHEN add_t >= prev_t THEN add_t END AS last_ts,
           kept > 0 AND max_left AND coalesce(add_t < prev_t, true) AS stale
    FROM j`);
  if (await countRows(db, `SELECT 1 FROM ev_folded WHERE kept < 0`)) return { unsure: 'more legs dropped than the saved evidence held' };
  const [st] = await allRows<{ n: number; bound: number | null }>(db, `SELECT count(*)::INTEGER AS n, max(prev_t)::BIGINT AS bound FROM ev_folded WHERE stale`);
  const stale = st?.n ?? 0;
  if (stale) {
    // every kept leg of a stale group ended no later than its saved latest leg: the bound lets
    // DuckDB skip the row groups (most of the window) whose legs all ended after it
    await db.run(`CREATE OR REPLACE TEMP TABLE ev_recomputed AS
      SELECT upper(trim(callsign)) AS callsign, org, dst, max(last_ts) AS t FROM legs
      WHERE last_ts <= ${Number(st!.bound)} AND ${LEG_FILTER}
        AND upper(trim(callsign)) IN (SELECT callsign FROM ev_folded WHERE stale)
      GROUP BY ALL`);
  } else
    await db.run(
      `CREATE OR REPLACE TEMP TABLE ev_recomputed AS SELECT NULL::VARCHAR AS callsign, NULL::VARCHAR AS org, NULL::VARCHAR AS dst, NULL::BIGINT AS t WHERE false`,
    );
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_groups AS
    SELECT f.callsign, f.org, f.dst, f.legs, CASE WHEN f.stale THEN greatest(r.t, f.add_t) ELSE f.last_ts END AS last_ts
    FROM (SELECT * FROM ev_folded WHERE legs > 0) f LEFT JOIN ev_recomputed r ON f.stale AND ${sameKeys('f', 'r', ['callsign', 'org', 'dst'])}`);
  // a stale group keeps legs the saved state counted: the window must hold them
  const lost = await countRows(db, `SELECT 1 FROM ev_folded f ANTI JOIN ev_recomputed r ON ${sameKeys('f', 'r', ['callsign', 'org', 'dst'])} WHERE f.stale`);
  if (lost) return { unsure: `${lost} groups' kept legs not found in the window` };
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_types AS
    SELECT coalesce(p.callsign, d.callsign) AS callsign, coalesce(p.type, d.type) AS type, (coalesce(p.legs, 0) + coalesce(d.n, 0))::INTEGER AS legs
    FROM ${file('ev_types')} p
    FULL JOIN (SELECT callsign, type, sum(n) AS n FROM ev_delta WHERE type IS NOT NULL GROUP BY ALL) d ON p.callsign = d.callsign AND p.type = d.type`);
  // a log day is a partition: a callsign's days move by the added days it was heard on less the dropped ones
  await db.run(`CREATE OR REPLACE TEMP TABLE ev_days AS
    SELECT coalesce(p.callsign, d.callsign) AS callsign, (coalesce(p.days, 0) + coalesce(d.n, 0))::INTEGER AS days
    FROM ${file('ev_days')} p
    FULL JOIN (SELECT callsign, count(DISTINCT day) FILTER (n > 0) - count(DISTINCT day) FILTER (n < 0) AS n FROM ev_delta GROUP BY callsign) d
      ON p.callsign = d.callsign`);
  if (await countRows(db, `SELECT 1 FROM ev_types WHERE legs < 0 UNION ALL SELECT 1 FROM ev_days WHERE days < 0`))
    return { unsure: 'a type or day count below zero' };
  await db.run(`DELETE FROM ev_types WHERE legs = 0`);
  await db.run(`DELETE FROM ev_days WHERE days = 0`);
  // a callsign has days exactly when it has legs
  const odd = await countRows(
    db,
    `(SELECT callsign FROM ev_days EXCEPT SELECT callsign FROM ev_groups)
    UNION ALL (SELECT DISTINCT callsign FROM ev_groups EXCEPT SELECT callsign FROM ev_days)
    UNION ALL (SELECT DISTINCT callsign FROM ev_types EXCEPT SELECT callsign FROM ev_groups)`,
  );
  if (odd) return { unsure: `${odd} callsigns whose legs, days and types disagree` };
  const moved = new Set((await allRows<{ callsign: string }>(db, `SELECT DISTINCT callsign FROM ev_delta`)).map((r) => r.callsign));
  for (const t of ['ev_delta', 'ev_folded', 'ev_recomputed']) await db.run(`DROP TABLE ${t}`);
  return {
    line: `${days.added.length} days added, ${days.dropped.length} dropped, ${moved.size} callsigns moved, ${stale} groups' latest leg read again`,
    moved,
  };
}
