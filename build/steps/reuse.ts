// the one gate every step's reuse goes through: a rule of the step's declaration (step.ts) says
// what it needs of the previous build, and this says whether tonight has it. the step then reads
// from the rule which changes rebuild a key (rebuilds) and takes only those days' legs (log-delta.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildContext, LogDays } from './context.ts';
import type { Change, Reuse } from './declaration.ts';

/** what a rule may read of the previous build: its folder and the days since, or why not */
export type Previous = { dir: string; days: LogDays | null } | { why: string };

/**
 * The previous version a rule may read: ctx.reuse (the same code, reference data and options), when
 * the rule's needs hold: the log days known when it needs them, every file of its `state` there.
 */
export function previousFor(ctx: Pick<BuildContext, 'reuse' | 'logDays'>, rule: Reuse): Previous {
  if (!ctx.reuse) return { why: 'no previous build to reuse' };
  if (rule.logDays && !ctx.logDays) return { why: 'the log days since the previous build are not known' };
  if (!rule.state.every((f) => existsSync(join(ctx.reuse!, f)))) return { why: `the previous build saved no ${rule.holds}` };
  return { dir: ctx.reuse, days: ctx.logDays ?? null };
}

/** the rule builds a key again on this change */
export const rebuilds = (rule: Reuse, change: Change): boolean => rule.rebuild.includes(change);

/** the log days a rule takes in: the added and dropped days of the changes it declares */
export const daysOf = (rule: Reuse, days: LogDays): LogDays => ({
  added: rebuilds(rule, 'added-days') ? days.added : [],
  dropped: rebuilds(rule, 'dropped-days') ? days.dropped : [],
});

/** the days whose per-day documents (flights, movements) tonight writes: every day, or with a reusable previous build only the
 * added days and the day before the first of them; the rest are kept */
export function daysToWrite(all: readonly string[], added: readonly string[] | null): Set<string> {
  if (added === null) return new Set(all);
  const out = new Set(added);
  const first = [...added].sort()[0];
  const before = first ? all.filter((d) => d < first).at(-1) : undefined;
  if (before) out.add(before);
  return out;
}
