// builder: the reference documents of /v1/refdata/... (spec 4.2): every type designator (with the
// airframes and legs the log heard of it) and every airport. the other refdata documents are
// other steps': aircraft (airframes/), airlines (airlines/), schedules (schedules/). nothing here
// is reused from the previous build: the types' counts are one scan of `legs`.
import type { BuildContext } from '../context.ts';
import { keys, normalise } from '../../../artifacts/keys.ts';
import { refAirportDoc, typeDoc } from '../../../artifacts/refdata-doc.ts';
import { allRows } from '../duck.ts';

// per type: airframes and legs, from the log's own rows (`legs`): routing fills ends and adds no
// row (legs_routed is one row per leg), and its three joins were most of this scan
const TYPES_SQL = `
SELECT upper(type) AS type, count(DISTINCT hex)::INTEGER AS airframes, count(*)::INTEGER AS flights
FROM legs WHERE type IS NOT NULL GROUP BY 1`;

export async function buildRefdata(ctx: BuildContext): Promise<void> {
  const ref = ctx.ref;
  const db = ctx.db;
  const count = (k: string) => (ctx.counts[`refdata.${k}`] = (ctx.counts[`refdata.${k}`] ?? 0) + 1);

  ctx.progress.start('refdata: types', 0);
  const typeObs = new Map((await allRows<{ type: string; airframes: number; flights: number }>(db, TYPES_SQL)).map((r) => [r.type, r]));
  for (const t of ref.allTypes()) {
    if (normalise.type(t.designator) !== t.designator) continue;
    const o = typeObs.get(t.designator);
    ctx.writer.put(keys.refType(t.designator), typeDoc(t, o ? { airframes: o.airframes, flights: o.flights } : null));
    count('types');
  }
  ctx.progress.done(`${ctx.counts['refdata.types'] ?? 0} types`);

  ctx.progress.start('refdata: airports', 0);
  const idents = new Set<string>();
  for (const a of ref.allAirports()) {
    if (idents.has(a.ident) || normalise.ident(a.ident) !== a.ident || ref.airport(a.ident) !== a) continue;
    idents.add(a.ident);
    ctx.writer.put(keys.refAirport(a.ident), refAirportDoc(a, ref.runways(a.ident)));
    count('airports');
    ctx.progress.tick();
    if (idents.size % 4096 === 0) await ctx.writer.drain();
  }
  ctx.progress.done(`${idents.size} airports`);
}
