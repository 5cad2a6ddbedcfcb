// the live bench's summary: per case and server, the median of the rounds (req/s, p50, p99, mean
// answer size), the ratio Contrail/readsb, and the markdown table docs/performance.md carries.
import type { Case } from './cases.ts';
import type { WrkResult } from './wrk.ts';

export type Server = 'contrail' | 'readsb';

export interface Run {
  caseId: string;
  server: Server;
  round: number;
  result: WrkResult;
  /** the server's CPU seconds (all its threads) during the run, when measured */
  cpuS?: number;
}

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface Summary {
  rps: number;
  minRps: number;
  maxRps: number;
  p50: number;
  p99: number;
  /** bytes per answer, headers included */
  meanBytes: number;
  /** non-2xx answers plus socket errors and timeouts, over all rounds */
  bad: number;
  rounds: number;
  /** the server's CPU microseconds per answer (median over the rounds); NaN when not measured */
  cpuUs: number;
}

export function summarize(runs: readonly Run[], caseId: string, server: Server): Summary | undefined {
  const mine = runs.filter((r) => r.caseId === caseId && r.server === server);
  const rs = mine.map((r) => r.result);
  if (!rs.length) return undefined;
  const cpu = mine.filter((r) => r.cpuS !== undefined && r.result.requests > 0).map((r) => (r.cpuS! * 1e6) / r.result.requests);
  const rps = rs.map((r) => r.rps);
  return {
    rps: median(rps),
    minRps: Math.min(...rps),
    maxRps: Math.max(...rps),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    meanBytes: median(rs.map((r) => (r.requests ? r.bytes / r.requests : 0))),
    bad: rs.reduce((s, r) => s + r.non2xx + r.errors, 0),
    rounds: rs.length,
    cpuUs: median(cpu),
  };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const size = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)} MB` : `${(n / 1e3).toFixed(1)} KB`);
const rate = (s: Summary) => (s.rounds > 1 ? `${int(s.rps)} (${int(s.minRps)}–${int(s.maxRps)})` : int(s.rps));

/**
 * the markdown table: Contrail alone, or the peer beside it with the ratio when the peer ran.
 * the peer is readsb, or another Contrail (bench/live.ts --peer-entry), named by `peer`
 */
export function table(cases: readonly Case[], runs: readonly Run[], peer = 'readsb'): string[] {
  const withReadsb = runs.some((r) => r.server === 'readsb');
  const lines = withReadsb
    ? [
        `| case | ${peer} req/s | p50 / p99 ms | answer | CPU µs/answer | Contrail req/s | p50 / p99 ms | answer | CPU µs/answer | ratio |`,
        '|---|---|---|---|---|---|---|---|---|---|',
      ]
    : ['| case | req/s | p50 / p99 ms | answer | CPU µs/answer |', '|---|---|---|---|---|'];
  const bad: string[] = [];
  for (const c of cases) {
    const co = summarize(runs, c.id, 'contrail');
    const rd = summarize(runs, c.id, 'readsb');
    if (!co) continue;
    const cells = (s: Summary) => [rate(s), `${ms(s.p50)} / ${ms(s.p99)}`, size(s.meanBytes), Number.isNaN(s.cpuUs) ? '—' : int(s.cpuUs)];
    if (withReadsb && rd) lines.push(`| ${c.name} | ${[...cells(rd), ...cells(co)].join(' | ')} | **${(co.rps / rd.rps).toFixed(2)}×** |`);
    else if (withReadsb) lines.push(`| ${c.name} | — | — | — | — | ${cells(co).join(' | ')} | — |`);
    else lines.push(`| ${c.name} | ${cells(co).join(' | ')} |`);
    if (co.bad) bad.push(`${c.id}: Contrail ${co.bad}`);
    if (rd?.bad) bad.push(`${c.id}: ${peer} ${rd.bad}`);
  }
  if (bad.length) lines.push('', `non-2xx answers, socket errors or timeouts (all rounds): ${bad.join('; ')}`);
  return lines;
}
