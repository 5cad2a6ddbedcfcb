// GET /v1/stream without `Upgrade: websocket` (a browser tab, curl, a prober): the stream is a
// WebSocket (server/stream/socket.ts), so a plain request gets a section-7 426 that says so,
// after the same bbox check the upgrade makes.
import { ApiError } from '../../lib/errors.ts';
import type { Route } from '../http/types.ts';
import { parseBboxQuery } from '../live/params.ts';
import { STREAM_PATH } from '../stream/protocol.ts';

export function streamRoutes(): Route[] {
  return [
    {
      pattern: STREAM_PATH,
      bucket: 'stream',
      handler: (req) => {
        parseBboxQuery(req.query);
        throw new ApiError(
          426,
          'invalid_request',
          '/v1/stream is a WebSocket: connect with a WebSocket client (Upgrade: websocket); /v1/aircraft answers plain GET',
          { Upgrade: 'websocket' },
        );
      },
    },
  ];
}
