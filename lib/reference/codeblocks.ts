// ICAO 24-bit address blocks (VRS code-blocks.csv): the state of registration and the military
// flag of a hex from the smallest block containing it. The blocks nest, so they are flattened
// once into disjoint intervals (each labelled with its smallest covering block) and a lookup is
// one binary search.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installed } from '../install.ts';
import { readCsv, skip, type FileCount } from './csv.ts';

export interface CodeBlock {
  start: number;
  finish: number;
  military: boolean;
  /** ISO 3166-1 alpha-2; 'ZZ' in the file (the whole range, ICAO-reserved) is kept as 'ZZ' here */
  country: string;
}

const HEX_RE = /^[0-9A-Fa-f]{6}$/;

export function parseCodeBlocks(input: string | Buffer, file = 'vrs-standing-data/code-blocks.csv'): { rows: CodeBlock[]; count: FileCount } {
  return readCsv(file, input, ['Start', 'Finish', 'IsMilitary', 'CountryISO2'], (get) => {
    const s = get('Start');
    const f = get('Finish');
    if (!HEX_RE.test(s) || !HEX_RE.test(f)) return skip('bad hex range');
    const start = Number.parseInt(s, 16);
    const finish = Number.parseInt(f, 16);
    if (finish < start) return skip('bad hex range');
    const mil = get('IsMilitary');
    if (mil !== '0' && mil !== '1') return skip('bad IsMilitary');
    const country = get('CountryISO2').toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) return skip('bad country');
    const block: CodeBlock = { start, finish, military: mil === '1', country };
    return block;
  });
}

export interface CodeBlocks {
  /** ISO alpha-2 of the smallest block containing hex; null for unallocated, ICAO-reserved ('ZZ') or a malformed hex */
  countryOfHex(hex: string): string | null;
  /** true when the smallest block containing hex is a military block */
  isMilitaryHex(hex: string): boolean;
  /** true when some allocated country block (not 'ZZ') contains hex */
  isKnownHex(hex: string): boolean;
}

// ISO 3166-1 keeps AA, QM-QZ, XA-XZ and ZZ for user assignment: VRS uses them for the blocks of
// ICAO itself (XA), NATO (XB), other international bodies (XC) and the whole range (ZZ), which are
// no state of registration. XK is the exception everyone (OurAirports too) uses for Kosovo.
const USER_ASSIGNED = /^(AA|Q[M-Z]|X[A-Z]|ZZ)$/;

/** an ISO 3166-1 alpha-2 state, or null for a user-assigned or malformed code */
export function isoCountry(code: string): string | null {
  return /^[A-Z]{2}$/.test(code) && (code === 'XK' || !USER_ASSIGNED.test(code)) ? code : null;
}

const parseHex = (hex: string) => (HEX_RE.test(hex) ? Number.parseInt(hex, 16) : -1);

export function buildCodeBlocks(blocks: readonly CodeBlock[]): CodeBlocks {
  const cuts = new Set<number>();
  for (const b of blocks) {
    cuts.add(b.start);
    cuts.add(b.finish + 1);
  }
  const starts = [...cuts].sort((a, b) => a - b);
  // label of each elementary interval [starts[i], starts[i+1]): its smallest covering block
  const label: (CodeBlock | null)[] = starts.map((s) => {
    let best: CodeBlock | null = null;
    for (const b of blocks) {
      if (b.start <= s && s <= b.finish && (!best || b.finish - b.start < best.finish - best.start)) best = b;
    }
    return best;
  });
  const find = (hex: string): CodeBlock | null => {
    const n = parseHex(hex);
    if (n < 0) return null;
    let lo = 0;
    let hi = starts.length - 1;
    if (hi < 0 || n < starts[0]!) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= n) lo = mid;
      else hi = mid - 1;
    }
    return label[lo] ?? null;
  };
  return {
    countryOfHex(hex) {
      const b = find(hex);
      return b ? isoCountry(b.country) : null;
    },
    isMilitaryHex: (hex) => find(hex)?.military ?? false,
    isKnownHex(hex) {
      const b = find(hex);
      return !!b && b.country !== 'ZZ';
    },
  };
}

/** The ICAO address blocks, from the shipped reference data (small: read at start-up). */
export function loadCodeBlocks(refDir = installed('data/ref')): CodeBlocks {
  return buildCodeBlocks(parseCodeBlocks(readFileSync(join(refDir, 'vrs-standing-data/code-blocks.csv'))).rows);
}
