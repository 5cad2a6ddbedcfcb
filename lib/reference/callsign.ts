// callsign splitting and normalisation as the VRS standing data defines it (routes.README.md):
// code = 3 letters (ICAO) or a 2-character IATA code, number = a digit then digits/letters;
// leading zeros stripped (one kept when nothing or only letters would remain); the trimmed number
// is at most 4 characters and ends in at most 2 letters.

export interface CallsignParts {
  code: string;
  number: string;
}

const SPLIT_RE = /^([A-Z]{2,3}|[A-Z][0-9]|[0-9][A-Z])(\d[A-Z0-9]*)$/;
const NUMBER_RE = /^\d{1,4}$|^\d{1,3}[A-Z]$|^\d{1,2}[A-Z]{2}$/;

/** split and normalise; null when the callsign is not airline-shaped (e.g. a registration) */
export function splitCallsign(callsign: string): CallsignParts | null {
  const m = SPLIT_RE.exec(callsign.trim().toUpperCase());
  if (!m) return null;
  let number = m[2]!.replace(/^0+/, '');
  if (number === '' || /^[A-Z]/.test(number)) number = '0' + number;
  if (!NUMBER_RE.test(number)) return null;
  return { code: m[1]!, number };
}

/** the normalised callsign (code + trimmed number), or null when not airline-shaped */
export function normaliseCallsign(callsign: string): string | null {
  const p = splitCallsign(callsign);
  return p ? p.code + p.number : null;
}
