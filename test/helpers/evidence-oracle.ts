// the routes' log evidence (artifacts/routes-table.ts CallsignEvidence) as the routes step computed
// it before build/steps/routes/evidence-fold.ts: one query over every leg of the `legs` view, the
// callsign checked on each leg. the oracle the fold is tested against, and the "before" of
// bench/routes-evidence.ts.
/** the evidence as the routes step computed it before the fold: one query over every leg */
export const ORACLE = `
WITH l AS (
  SELECT upper(trim(callsign)) AS cs, org, dst, type, "day", last_ts FROM legs
  WHERE callsign IS NOT NULL AND regexp_full_match(upper(trim(callsign)), '[A-Z0-9]{2,8}')
    AND NOT (org IS NOT NULL AND dst IS NOT NULL AND org = dst)
),
g AS (
  SELECT cs, list({org: org, dst: dst, legs: n, last_ts: t}) AS groups
  FROM (SELECT cs, org, dst, count(*)::INTEGER AS n, max(last_ts)::DOUBLE AS t FROM l GROUP BY cs, org, dst)
  GROUP BY cs
),
c AS (
  SELECT cs, count(*)::INTEGER AS legs, count(DISTINCT "day")::INTEGER AS days, max(last_ts)::DOUBLE AS last_ts,
         coalesce(list(DISTINCT type ORDER BY type) FILTER (WHERE type IS NOT NULL), []) AS types
  FROM l GROUP BY cs
)
SELECT c.cs AS callsign, c.legs, c.days, c.last_ts, c.types, g.groups FROM c JOIN g USING (cs)`;
