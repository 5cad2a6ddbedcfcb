// the routes table's view of the log: the SQL that routes a set of legs with a routes table. the
// routes step makes `legs_routed` with it (tonight's legs, tonight's table, build.ts); the steps
// that fold a night into saved counts route other legs with it too (the dropped days with the
// previous build's table: airframes/fold.ts, schedules/counts.ts, counts-fold.ts).
/**
 * legs with IATA ends; a missing end filled from the routes table when the heard end agrees.
 * one truth per leg (artifacts/ROUTES.md section 4, spec 1 rule 4): `route_source` is observed when
 * both ends were heard on this leg, whatever codes the fields have (a field without IATA code
 * leaves org or dst null, not the observation); observed+catalog when the filled end is one only
 * the catalog supplied; null when an end was not heard on this leg and nothing the catalog said
 * stands in for it (a filled end the network heard on the callsign's other legs is not this
 * flight's observation). `table_source` is the filling entry's own route_source (what
 * /v1/route/{callsign} says), null when nothing was filled.
 * every column is qualified: an unqualified `route_source` here would be the table's, not the leg's.
 * `view` is made over `legs` (a view or table with the log's columns): the window's, or other days';
 * `routes` is tonight's routes table, or a previous build's (a table with its columns).
 */
export const legsRoutedSql = (view: string, legs: string, routes = 'routes_table') => `
CREATE OR REPLACE TEMP VIEW ${view} AS
WITH j AS (
  SELECT l.*, ao.iata AS org_iata, ad.iata AS dst_iata, r.org AS r_org, r.dst AS r_dst, r.org_seen AS r_org_seen, r.dst_seen AS r_dst_seen,
    r.route_source AS r_source,
    (l.org IS NOT NULL AND l.dst IS NULL AND ao.iata IS NOT NULL AND r.org_ident = l.org) AS fill_dst,
    (l.dst IS NOT NULL AND l.org IS NULL AND ad.iata IS NOT NULL AND r.dst_ident = l.dst) AS fill_org
  FROM ${legs} l
  LEFT JOIN ref_airports ao ON ao.ident = l.org
  LEFT JOIN ref_airports ad ON ad.ident = l.dst
  LEFT JOIN ${routes} r ON r.callsign = upper(trim(l.callsign))
)
SELECT hex, upper(trim(callsign)) AS callsign, reg, type, first_ts, last_ts, dep_ts, arr_ts, day,
  org AS org_ident, dst AS dst_ident,
  CASE WHEN fill_org THEN r_org ELSE org_iata END AS org,
  CASE WHEN fill_dst THEN r_dst ELSE dst_iata END AS dst,
  CASE
    WHEN org IS NOT NULL AND dst IS NOT NULL THEN 'observed'
    WHEN fill_dst THEN CASE WHEN r_dst_seen THEN NULL ELSE 'observed+catalog' END
    WHEN fill_org THEN CASE WHEN r_org_seen THEN NULL ELSE 'observed+catalog' END
  END AS route_source,
  CASE WHEN fill_org OR fill_dst THEN r_source END AS table_source
FROM j`;
