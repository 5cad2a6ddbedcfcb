// an airframe's two documents (v1/airframes/<hex>, v1/refdata/aircraft/<hex> where reg or type is
// known), written or kept: what the step's full path (airframes/build.ts) and its splice (airframes/fold.ts) share.
import type { BuildContext } from '../context.ts';
import { keys } from '../../../artifacts/keys.ts';
import { airframeBytes, airframeDoc, airframeIdentity, type AirframeIdentity, type LogIdentity } from '../../../artifacts/airframe-doc.ts';
import { refAircraftDoc } from '../../../artifacts/refdata-doc.ts';

/** `legs`: the UTF-8 bytes of the legs' JSON `[...]` in document form (airframeBytes), [] when not heard in the window, null when no log is loaded */
export function putAirframe(ctx: BuildContext, hex: string, log: LogIdentity | null, legs: Uint8Array | [] | null): void {
  const id = airframeIdentity(hex, log, ctx.ref);
  if (legs instanceof Uint8Array) putAirframeDoc(ctx, id, airframeBytes(id, legs), false);
  else {
    ctx.writer.put(keys.airframe(hex), airframeDoc(id, legs));
    putRefAircraft(ctx, id, false);
  }
}

/**
 * The airframe document of `id` made as bytes (airframeBytes, or spliced: airframes/fold.ts), and
 * its refdata document; `sameIdentity`: the previous build's was made from the same identity, so
 * its refdata document is kept, not made again
 */
export function putAirframeDoc(ctx: BuildContext, id: AirframeIdentity, doc: Uint8Array, sameIdentity: boolean): void {
  ctx.writer.putJson(keys.airframe(id.hex), doc);
  putRefAircraft(ctx, id, sameIdentity);
}

function putRefAircraft(ctx: BuildContext, id: AirframeIdentity, sameIdentity: boolean): void {
  ctx.counts.airframes = (ctx.counts.airframes ?? 0) + 1;
  if (id.reg || id.type) {
    if (!(sameIdentity && ctx.writer.keep(keys.refAircraft(id.hex)))) ctx.writer.put(keys.refAircraft(id.hex), refAircraftDoc(id));
    ctx.counts['refdata.aircraft'] = (ctx.counts['refdata.aircraft'] ?? 0) + 1;
  }
}

/** keep both documents of an airframe whose inputs did not change (the previous build wrote them) */
export function keepAirframe(ctx: BuildContext, hex: string): void {
  if (!ctx.writer.keep(keys.airframe(hex))) {
    throw new Error(
      `the previous build recorded airframe ${hex} in its state but has no ${keys.airframe(hex)}: its state is inconsistent; rerun with --rebuild`,
    );
  }
  ctx.counts.airframes = (ctx.counts.airframes ?? 0) + 1;
  if (ctx.writer.keep(keys.refAircraft(hex))) ctx.counts['refdata.aircraft'] = (ctx.counts['refdata.aircraft'] ?? 0) + 1;
}
