// the push stream's messages (docs/api.md, "Push stream"): what a client may send, checked here and
// refused in the section-7 shape; and what the server sends, written once per cell per snapshot
// by copying the records' prepared bytes (never re-stringified).
import { ApiError, invalidRequest, type ErrorCode } from '../../lib/errors.ts';
import { checkBbox, parseBbox } from '../live/params.ts';
import type { Bbox } from '../parts/spatial.ts';
import { cellBox, cellName } from './cells.ts';
import type { CellChange, SnapshotView } from './diff.ts';

/** the stream's route: a WebSocket upgrade (stream/socket.ts), a 426 for a plain GET (handlers/stream.ts) */
export const STREAM_PATH = '/v1/stream';

/** the largest client message read; uWS closes a connection that sends more (maxPayloadLength) */
export const MAX_CLIENT_MESSAGE_BYTES = 1024;

const USAGE = 'send {"bbox":[minLon,minLat,maxLon,maxLat]} in degrees, or {"bbox":null} for the whole sky';

/**
 * A client's box change: `{"bbox":[minLon,minLat,maxLon,maxLat]}`, the query's text form
 * `{"bbox":"5,45,15,55"}`, or `{"bbox":null}` for the whole sky. throws a 422 ApiError otherwise.
 */
export function parseClientMessage(data: Buffer | string, isBinary = false): Bbox | null {
  if (isBinary) throw invalidRequest(`binary messages are not understood; ${USAGE} as a text message`);
  let msg: unknown;
  try {
    msg = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
  } catch {
    throw invalidRequest(`the message is not JSON; ${USAGE}`);
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg) || !Object.hasOwn(msg, 'bbox')) {
    throw invalidRequest(`the message has no bbox; ${USAGE}`);
  }
  const b = (msg as { bbox: unknown }).bbox;
  if (b === null) return null;
  if (typeof b === 'string') return parseBbox(b);
  if (!Array.isArray(b) || b.length !== 4) throw invalidRequest(`bbox must be an array of four numbers or null; ${USAGE}`);
  const bad = b.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad >= 0) throw invalidRequest(`bbox value ${bad + 1} (${JSON.stringify(b[bad]) ?? String(b[bad])}) is not a finite number; ${USAGE}`);
  return checkBbox(b[0], b[1], b[2], b[3]);
}

const text = (value: unknown) => Buffer.from(JSON.stringify(value));

/** `{"type":"error","error":<code>,"detail":...}`: section 7's shape with the message type beside it. */
export function errorMessage(e: unknown): Buffer {
  const err = e instanceof ApiError ? e : new ApiError(500, 'internal_error', 'an internal fault; the service logged it');
  return text({ type: 'error', error: err.code satisfies ErrorCode, detail: err.detail });
}

/** The live routes would answer 503 stale_snapshot: said so, never sent as an empty sky. */
export const staleMessage = (detail: string): Buffer => text({ type: 'stale', error: 'stale_snapshot', detail });

/** The area now subscribed: the box as asked and the cells that cover it (their boxes too). */
export function subscribedMessage(bbox: Bbox | null, cells: readonly number[]): Buffer {
  return text({
    type: 'subscribed',
    bbox: bbox && [bbox.minLon, bbox.minLat, bbox.maxLon, bbox.maxLat],
    cells: cells.map((c) => ({ cell: cellName(c), box: cellBox(c) })),
  });
}

/** The end of one snapshot's messages (or of a subscribe's full state). */
export const endMessage = (now: number): Buffer => text({ type: 'end', now });

/** Every aircraft now in a cell: the client replaces what it holds for that cell. */
export function fullMessage(view: SnapshotView, cell: number, ids: readonly number[]): Buffer {
  return view.listBody(ids, `{"type":"full","cell":${JSON.stringify(cellName(cell))},"now":${view.now},"aircraft":[`, ']}');
}

/** What entered, changed in or left a cell since the previous snapshot. */
export function diffMessage(view: SnapshotView, cell: number, change: CellChange): Buffer {
  const head = `{"type":"diff","cell":${JSON.stringify(cellName(cell))},"now":${view.now},"upsert":[`;
  return view.listBody(change.upsert, head, `],"gone":${JSON.stringify(change.gone)}}`);
}
