// the researchers' data on the live server (build/bundle writes it):
//   GET /v1/bundles                                 the index (schemas/bundles-index)
//   GET /v1/bundles/log/day=YYYY-MM-DD/legs.parquet  one day of the flight log (Hive layout)
//   GET /v1/bundles/tables/{airframes|airports|routes}.parquet
//   GET /v1/bundles/tables/{flights|points}/date=YYYY-MM-DD/{flights|points}.parquet
//   GET /v1/bundles/{README|LICENSE|CREDITS|SHA256SUMS}
// files answer HEAD and single byte ranges (206, 416), so a remote Parquet reader queries them in
// place; only the part asked for is read, synchronously (handlers answer at once,
// server/http/types.ts). every path is checked against the closed layout above before it touches
// the disk: anything else is a section-7 404, never a path outside the folder.
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ApiError, notFound } from '../../lib/errors.ts';
import { isDay } from '../../lib/localtime.ts';
import {
  DATA_CACHE,
  DATE_PART,
  DAY_PART,
  DAY_TABLES,
  DOCS,
  INDEX_FILE,
  LOG_FILE,
  dayTablePath,
  logPath,
  PARQUET_TYPE,
  TABLES,
  tablePath,
  TEXT_TYPE,
} from '../../artifacts/bundles.ts';
import { parseRange, rangeStillValid } from '../http/range.ts';
import type { Reply, Req, Route } from '../http/types.ts';

const NONE = "this server publishes no researchers' data (start it with --bundles <dir>)";
const LISTED = 'the index at /v1/bundles lists what is published';

/** the file below the folder a URL names, or null when it names none of the layout's files */
export function fileOfParams(seg: { partition?: string; table?: string; doc?: string; file?: string }): string | null {
  if (seg.file !== undefined) {
    const name = DAY_TABLES.find((t) => t === seg.table && `${t}.parquet` === seg.file);
    const m = DATE_PART.exec(seg.partition ?? '');
    return name && m && isDay(m[1]!) ? dayTablePath(name, m[1]!) : null;
  }
  if (seg.partition !== undefined) {
    const m = DAY_PART.exec(seg.partition);
    return m && isDay(m[1]!) ? logPath(m[1]!) : null;
  }
  if (seg.table !== undefined) {
    const name = TABLES.find((t) => `${t}.parquet` === seg.table);
    return name ? tablePath(name) : null;
  }
  return DOCS.find((d) => d === seg.doc) ?? null;
}

/** An open file, or a 404 when it is not there. */
function openOr404(dir: string, rel: string): { fd: number; st: Stats } {
  let fd: number;
  try {
    fd = openSync(join(dir, rel), 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') throw notFound(`${rel} is not published; ${LISTED}`);
    throw e;
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw notFound(`${rel} is not published; ${LISTED}`);
  }
  return { fd, st };
}

function readPart(fd: number, start: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

/** One published file: whole, a byte range, or (HEAD) its headers only. */
function serveFile(dir: string, rel: string, req: Req): Reply {
  const { fd, st } = openOr404(dir, rel);
  try {
    const size = st.size;
    // nginx's form: the file's mtime and size, so both fronts name a version alike
    const etag = `"${Math.floor(st.mtimeMs / 1000).toString(16)}-${size.toString(16)}"`;
    const lastModified = st.mtime.toUTCString();
    const type = rel.endsWith('.parquet') ? PARQUET_TYPE : TEXT_TYPE;
    const headers: Record<string, string> = { 'Content-Type': type, 'Accept-Ranges': 'bytes', 'Last-Modified': lastModified };
    const common = { headers, etag, cacheControl: DATA_CACHE, compressed: true } as const;
    // HEAD: the length a GET sends, the file unread (RFC 9110: a Range on HEAD is ignored)
    if (req.method === 'HEAD') return { ...common, body: { raw: Buffer.alloc(0) }, headLength: size };
    const range = rangeStillValid(req.headers['if-range'], etag, lastModified) ? parseRange(req.headers.range, size) : ({ kind: 'whole' } as const);
    if (range.kind === 'unsatisfiable') {
      throw new ApiError(
        416,
        'invalid_request',
        `the range ${JSON.stringify(req.headers.range.slice(0, 80))} is malformed or starts past the end of ${rel} (${size} bytes); send bytes=first-last or bytes=-suffix`,
        { 'Content-Range': `bytes */${size}` },
      );
    }
    if (range.kind === 'whole') return { ...common, body: { raw: readPart(fd, 0, size) } };
    const part = readPart(fd, range.start, range.end - range.start + 1);
    return {
      ...common,
      headers: { ...headers, 'Content-Range': `bytes ${range.start}-${range.start + part.length - 1}/${size}` },
      body: { raw: part },
      partial: true,
    };
  } finally {
    closeSync(fd);
  }
}

/** @param dir the folder written by build/bundle (index.json, log/, tables/, README, LICENSE ...) */
export function bundleRoutes(dir: string): Route[] {
  const file =
    (name: (p: Record<string, string>) => string | null) =>
    (req: Req): Reply => {
      if (!dir) throw notFound(NONE);
      const rel = name(req.params);
      // a malformed name can only be a file that does not exist
      if (!rel) throw notFound(`no such file; ${LISTED}`);
      return serveFile(dir, rel, req);
    };
  return [
    {
      pattern: '/v1/bundles',
      bucket: 'docs',
      handler: () => {
        if (!dir) throw notFound(NONE);
        const { fd, st } = openOr404(dir, INDEX_FILE);
        try {
          return { body: { raw: readPart(fd, 0, st.size) } };
        } finally {
          closeSync(fd);
        }
      },
    },
    { pattern: `/v1/bundles/log/:partition/${LOG_FILE}`, bucket: 'bundles', handler: file((p) => fileOfParams({ partition: p.partition ?? '' })) },
    { pattern: '/v1/bundles/tables/:table', bucket: 'bundles', handler: file((p) => fileOfParams({ table: p.table ?? '' })) },
    {
      pattern: '/v1/bundles/tables/:table/:partition/:file',
      bucket: 'bundles',
      handler: file((p) => fileOfParams({ table: p.table ?? '', partition: p.partition ?? '', file: p.file ?? '' })),
    },
    { pattern: '/v1/bundles/:doc', bucket: 'bundles', handler: file((p) => fileOfParams({ doc: p.doc ?? '' })) },
  ];
}
