// the status line's words (controls.ts shows them): the aircraft drawn in the view, the network's
// aircraft with a position, the estimates drawn in the view, how the map is fed and when.

export interface StatusFacts {
  inView: number;
  network: number | null;
  estimatesInView: number;
  filtered: boolean;
  via: string;
  at: string | null;
  stale: boolean;
}

const n = (x: number) => x.toLocaleString('en');

/** the status line's text; pure, so the tests can read what it says */
export function statusText(s: StatusFacts): string {
  const parts = [`${n(s.inView)} aircraft in view${s.filtered ? ' (filtered)' : ''}`];
  if (s.network !== null) parts.push(`${n(s.network)} in the network`);
  parts.push(`${n(s.estimatesInView)} estimated in view`, s.via);
  if (s.at) parts.push(s.at);
  if (s.stale) parts.push('STALE');
  return parts.join(' · ');
}
