// the upload's progress line, printed every few seconds and once at the end of the sending phase.

export interface Tally {
  /** objects handled (sent or found already there) out of `total` to send */
  done: number;
  total: number;
  sent: number;
  /** already in the bucket with the same content (a re-run after an interruption) */
  skipped: number;
  /** bytes sent so far, and all the bytes to send */
  bytes: number;
  totalBytes: number;
  retries: number;
}

const mb = (b: number) => (b / 1e6).toFixed(1);

/** `upload: 1200/5000 objects (24 %), 3.1/12.0 MB, 850 objects/s, 2.2 MB/s; 1150 sent, 50 already there, 3 retries` */
export function progressLine(t: Tally, elapsedMs: number): string {
  const s = Math.max(elapsedMs / 1000, 1e-3);
  const pct = t.total ? Math.floor((100 * t.done) / t.total) : 100;
  return `upload: ${t.done}/${t.total} objects (${pct} %), ${mb(t.bytes)}/${mb(t.totalBytes)} MB, ${Math.round(t.done / s)} objects/s, ${mb(t.bytes / s)} MB/s; ${t.sent} sent, ${t.skipped} already there, ${t.retries} retries`;
}

/** `upload: url mirror: 300/900 copied (33 %), 410 copies/s` */
export function mirrorLine(done: number, total: number, elapsedMs: number): string {
  const s = Math.max(elapsedMs / 1000, 1e-3);
  return `upload: url mirror: ${done}/${total} copied (${total ? Math.floor((100 * done) / total) : 100} %), ${Math.round(done / s)} copies/s`;
}
