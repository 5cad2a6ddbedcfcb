// one csv reader for every reference file: header-mapped rows, malformed rows skipped and
// counted by reason (never thrown), a missing required column refused for the whole file.
import { parse } from 'csv-parse/sync';

/** what one file yielded: rows kept, rows skipped and why (the build reports these) */
export interface FileCount {
  file: string;
  rows: number;
  skipped: number;
  reasons: Record<string, number>;
}

/** a reference file that cannot be used at all (unreadable, wrong header, wrong shape) */
export class RefdataError extends Error {
  override name = 'RefdataError';
}

/** a row reader: `get(column)` returns the trimmed cell ('' when empty) */
export type Getter = (column: string) => string;

/** returned by a row mapper to skip the row, with the reason counted */
export class Skip {
  constructor(readonly reason: string) {}
}

export const skip = (reason: string) => new Skip(reason);

export function newCount(file: string): FileCount {
  return { file, rows: 0, skipped: 0, reasons: {} };
}

function countSkip(count: FileCount, reason: string): void {
  count.skipped++;
  count.reasons[reason] = (count.reasons[reason] ?? 0) + 1;
}

/**
 * Parse `input` (csv text with a header row). `required` columns must all be in the header,
 * else the file is refused. Each data row goes through `map`; a row whose cell count differs
 * from the header's, or for which `map` returns a Skip, is skipped and counted.
 */
export function readCsv<T>(file: string, input: string | Buffer, required: readonly string[], map: (get: Getter) => T | Skip): { rows: T[]; count: FileCount } {
  const count = newCount(file);
  let records: string[][];
  try {
    records = parse(input, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (err) => {
        countSkip(count, `csv syntax (${err?.code ?? 'unknown'})`);
        return undefined;
      },
    }) as string[][];
  } catch (err) {
    throw new RefdataError(`${file}: not readable as csv: ${(err as Error).message}`);
  }
  const header = records[0]?.map((h) => h.trim());
  if (!header) throw new RefdataError(`${file}: empty file, expected a header row`);
  const at = new Map<string, number>();
  header.forEach((h, i) => at.set(h, i));
  const missing = required.filter((c) => !at.has(c));
  if (missing.length) {
    throw new RefdataError(`${file}: missing column(s) ${missing.join(', ')}; header is ${header.join(',')}`);
  }
  const rows: T[] = [];
  let record: string[] = [];
  const get: Getter = (column) => {
    const i = at.get(column);
    return i === undefined ? '' : (record[i] ?? '').trim();
  };
  for (let r = 1; r < records.length; r++) {
    record = records[r]!;
    if (record.length !== header.length) {
      countSkip(count, 'column count');
      continue;
    }
    const out = map(get);
    if (out instanceof Skip) countSkip(count, out.reason);
    else rows.push(out);
  }
  count.rows = rows.length;
  return { rows, count };
}

/** a finite number, null for an empty cell, undefined when the cell is not a number */
export function numberCell(cell: string): number | null | undefined {
  if (cell === '') return null;
  const n = Number(cell);
  return Number.isFinite(n) ? n : undefined;
}

/** an integer cell, same conventions as numberCell */
export function intCell(cell: string): number | null | undefined {
  if (cell === '') return null;
  return /^-?\d+$/.test(cell) ? Number.parseInt(cell, 10) : undefined;
}
