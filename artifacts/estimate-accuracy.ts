// the nightly accuracy artifact (schemas/estimate-accuracy.schema.json): written by
// the nightly (build/accuracy/step.ts), read by the server for the `accuracy` of /v1/estimated.
// the top level is exactly the spec 2.3 `accuracy` object plus the method it measured and the
// straight-line baseline, so the served object is a plain pick of four fields.
import { problems } from '../schemas/index.ts';
import type { Accuracy, Evaluation } from '../lib/estimate/accuracy.ts';
import { BASELINE_ID, METHOD_ID } from '../lib/estimate/fly.ts';

export interface AccuracyFile extends Accuracy {
  /** the method measured (fly.ts METHOD_ID) */
  method: string;
  /** the same samples scored with straight-line dead reckoning */
  baseline: Omit<Accuracy, 'day'> & { method: string };
  /** how many trace files were read, and how many were left out as unreadable */
  traces: { read: number; skipped: number };
}

/** The artifact document for one night's evaluation. */
export function accuracyDocument(ev: Evaluation, traces: { read: number; skipped: number }): AccuracyFile {
  const { day, n, median_km, by_gap_min } = ev.method;
  const b = ev.straight;
  return {
    day,
    n,
    median_km,
    by_gap_min,
    method: METHOD_ID,
    baseline: { method: BASELINE_ID, n: b.n, median_km: b.median_km, by_gap_min: b.by_gap_min },
    traces,
  };
}

/** The served `accuracy` from a parsed artifact (the published tree's meta/estimate-accuracy), or null. */
export function servedAccuracy(doc: unknown, warn: (msg: string) => void = () => {}): Accuracy | null {
  if (doc === null || doc === undefined) return null;
  const p = problems('estimate-accuracy', doc);
  if (p.length) {
    warn(`does not match schemas/estimate-accuracy.schema.json: ${p.slice(0, 3).join('; ')}`);
    return null;
  }
  const f = doc as AccuracyFile;
  if (f.method !== METHOD_ID) {
    warn(`measured ${f.method}, the server runs ${METHOD_ID}; serving null until the next night`);
    return null;
  }
  return { day: f.day, n: f.n, median_km: f.median_km, by_gap_min: f.by_gap_min };
}
