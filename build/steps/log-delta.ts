// the legs a night's window differs by from the reused build's (ctx.logDays): the days that
// entered it, read through `legs`, and the days that left it, read from their files (still on
// disk as that build read them). a step that keeps counts from the previous build adds the first
// and takes away the second.
import type { LogDays } from './context.ts';
import { sqlString } from './duck.ts';

/** SQL: the added days as a list of DATE literals, for `day IN (...)` (the days must be some) */
export const addedDaysSql = (days: LogDays): string => days.added.map((d) => `DATE ${sqlString(d)}`).join(', ');

/** SQL: the legs of the dropped days read from their files, with the `day` column (the days must be some) */
export const droppedLegsSql = (days: LogDays): string =>
  // by name: a dropped day written before a column existed (dep_runway, arr_runway) reads it as null
  `read_parquet([${days.dropped.map((d) => sqlString(d.file)).join(', ')}], hive_partitioning = true, hive_types = {'day': DATE}, union_by_name = true)`;

/** a subquery of the legs of the added days (n = 1) and of the dropped days (n = -1), with the `day` column; null when none differ */
export function deltaLegs(days: LogDays): string | null {
  const parts: string[] = [];
  if (days.added.length) parts.push(`SELECT *, 1 AS n FROM legs WHERE day IN (${addedDaysSql(days)})`);
  if (days.dropped.length) parts.push(`SELECT *, -1 AS n FROM ${droppedLegsSql(days)}`);
  return parts.length ? `(${parts.join(' UNION ALL BY NAME ')})` : null;
}
