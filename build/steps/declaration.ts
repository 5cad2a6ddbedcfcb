// what each nightly step declares about itself, as data in its own folder (<kind>/step.ts): the
// DuckDB objects it reads and makes, the files it saves under the version's state/ for the next
// night, and the ways it may reuse the previous build: which of those saved files each reads, and
// which changes since that build make a key (an airframe, an airport, a callsign) build again. the
// pipeline checks the order against the declarations before any step runs (pipeline.ts), and the
// code that decides "may this step reuse the previous build, and which keys must it build" reads
// its rule from there (reuse.ts). docs/ARCHITECTURE.md, "Incremental rebuilds".

/**
 * DuckDB objects steps hand each other: `legs` is the build's (the window's log, build/log/read.ts),
 * `ref_airports` the reference airports (duck.ts), `routes_table` and `legs_routed` the routes step's
 */
export type DuckObject = 'legs' | 'ref_airports' | 'routes_table' | 'legs_routed';

/**
 * What can make a key's documents (or counts) differ from the previous build's on a night that
 * reuses it: the same code, reference data and options (build/publish/inputs.ts), so only these:
 *   added-days      the key has legs in a day that entered the window
 *   dropped-days    the key has legs in a day that left it (read from its file, as that build read it)
 *   changed-routes  the key has a leg whose callsign's routes-table row changed (tonight's table
 *                   against the one the rule's `routes` file saved, both ways: changed-callsigns.ts)
 *   board-days      the key has legs in a day that entered or left the board window (the last
 *                   BOARD_RULES.windowDays days, which slides inside the window)
 *   window-length   the window is not as long as the previous build's: every key (documents carry window_days)
 *   timetables      published timetables are read (against the clock): every key
 */
export type Change = 'added-days' | 'dropped-days' | 'changed-routes' | 'board-days' | 'window-length' | 'timetables';

/** one way a step takes from the previous build (ctx.reuse) instead of building from the window */
export interface Reuse {
  /** it needs the log days since the previous build: whole days entering and leaving the window (ctx.logDays) */
  logDays: boolean;
  /** files of the previous version it reads (paths under the version); without any of them it builds everything */
  state: readonly string[];
  /** what those files hold, for the line that says why they were not read ("the previous build saved no <holds>") */
  holds: string;
  /** the changes that build a key again; a key none of them reaches keeps what the previous build made of it */
  rebuild: readonly Change[];
  /** with changed-routes: the saved routes table (one of `state`) that tonight's is compared with */
  routes?: string;
}

export interface StepDeclaration {
  name: string;
  /** DuckDB objects it reads: each made by the build or by a step before it */
  reads: readonly DuckObject[];
  /** DuckDB objects it makes for the steps after it */
  makes: readonly DuckObject[];
  /** files it writes under the version being built (paths under the version), for the next night */
  saves: readonly string[];
  /** the ways it reuses the previous build, by name */
  reuse: Readonly<Record<string, Reuse>>;
}

/** the objects there before the first step: the window's log */
const BEFORE_STEPS: readonly DuckObject[] = ['legs'];

/** a saved file's path under a version */
export const statePath = (file: string) => `state/${file}`;

/** a family of count tables (counts-fold.ts) saves each table, the window it counted, and the routes table it routed with */
export const countTableFile = (table: string) => statePath(`${table}.parquet`);
export const countMetaFile = (family: string) => statePath(`${family}.json`);
export const countRoutesFile = (family: string) => statePath(`${family}-routes.parquet`);

/** The files a family of count tables is saved in; the routes table only when a table's keys hold a routed end */
export function countFiles(family: string, tables: readonly string[], routed: boolean): string[] {
  return [...(routed ? [countRoutesFile(family)] : []), countMetaFile(family), ...tables.map(countTableFile)];
}

/**
 * The problems of a pipeline's declarations, in its order: a step that reads a DuckDB object no
 * step before it made, a reuse rule that reads a file no step saves (the previous build ran the
 * same steps), and a rule whose changed-routes and `routes` file do not go together. [] when none.
 */
export function stepProblems(steps: readonly StepDeclaration[], before: readonly DuckObject[] = BEFORE_STEPS): string[] {
  const out: string[] = [];
  const made = new Map<DuckObject, string>(before.map((o) => [o, 'the build']));
  const saved = new Set(steps.flatMap((s) => s.saves));
  for (const s of steps) {
    for (const o of s.reads) if (!made.has(o)) out.push(`step ${s.name} reads ${o}, which no step before it makes`);
    for (const o of s.makes) if (!made.has(o)) made.set(o, s.name);
    for (const [name, r] of Object.entries(s.reuse)) {
      for (const f of r.state) if (!saved.has(f)) out.push(`step ${s.name} (reuse ${name}) reads ${f} of the previous build, which no step saves`);
      const compares = r.rebuild.includes('changed-routes');
      const rule = `step ${s.name} (reuse ${name})`;
      if (compares && !(r.routes && r.state.includes(r.routes))) out.push(`${rule} rebuilds on changed-routes but names no saved routes table among its state`);
      if (!compares && r.routes) out.push(`${rule} names a routes table but does not rebuild on changed-routes`);
    }
  }
  return out;
}
