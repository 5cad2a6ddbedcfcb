// which /v2 searches one box's text asks (docs/api.md "Search"): every key the text could be, by the
// routes' own syntax (server/handlers/search.ts), so "7700" asks the squawk and the callsign, and
// "4b1814" the hex, the callsign and the registration. the answers are merged by hex.

export type SearchKey = 'hex' | 'callsign' | 'reg' | 'type' | 'squawk';

const PATHS: [SearchKey, RegExp, string][] = [
  ['hex', /^[0-9A-F]{6}$/, '/v2/hex/'],
  ['squawk', /^[0-7]{4}$/, '/v2/sqk/'],
  ['callsign', /^[A-Z0-9]{1,8}$/, '/v2/callsign/'],
  ['reg', /^[A-Z0-9-]{1,10}$/, '/v2/reg/'],
  ['type', /^[A-Z0-9]{2,4}$/, '/v2/type/'],
];

/** The searches to ask for a text, [key, path]; none for text no key could be. */
export function searchPlan(text: string): [SearchKey, string][] {
  const t = text.trim().toUpperCase().replace(/\s+/g, '');
  if (!t) return [];
  const out: [SearchKey, string][] = [];
  for (const [key, re, path] of PATHS) if (re.test(t)) out.push([key, `${path}${encodeURIComponent(key === 'hex' ? t.toLowerCase() : t)}`]);
  return out;
}
