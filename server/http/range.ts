// pure: an HTTP Range header (RFC 9110 14.2) against a representation of `size` bytes. one byte
// range is served as 206; another unit, or several ranges, are ignored as RFC 9110 allows (the
// whole file, 200: nginx would send multipart/byteranges, which no Parquet reader asks for); a
// byte range that is malformed or starts past the end is 416, as nginx answers it. remote Parquet
// readers (DuckDB's httpfs, Arrow, Spark) ask one range at a time: the footer with a suffix
// range, then each column chunk.

export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const BYTES = /^bytes=/i;
const ONE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined || !BYTES.test(header) || header.includes(',')) return { kind: 'whole' };
  const m = ONE.exec(header);
  if (!m) return { kind: 'unsatisfiable' };
  const [, a = '', b = ''] = m;
  // no number, or more digits than a file offset has
  if ((a === '' && b === '') || a.length > 15 || b.length > 15) return { kind: 'unsatisfiable' };
  if (a === '') {
    // suffix: the last N bytes
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === '' ? size - 1 : Number(b);
  if (end < start) return { kind: 'unsatisfiable' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}

/** If-Range (RFC 9110 13.1.5): the range is served only while the validator still names the file. */
export function rangeStillValid(ifRange: string | undefined, etag: string, lastModified: string): boolean {
  if (!ifRange) return true;
  const v = ifRange.trim();
  if (v.startsWith('"')) return v === etag;
  if (v.startsWith('W/')) return false;
  return v === lastModified;
}
