// the ceiling of any uWebSockets.js server on this machine, for bench/live.ts (--entry): the same
// threads as Contrail's server (the main thread and --serve-threads - 1 workers, each listening on
// the port, SO_REUSEPORT) answering every request with one fixed body made at start, so a request
// costs only what uWS.js and the kernel cost: no routing, no parsing, no lookup, no copy. measured
// beside readsb in the same run, it says how far any server written on this stack could go; a target
// above it cannot be met here by work on the server's own code.
//   npx tsx bench/live.ts --entry bench/live/uws-ceiling.ts --server-args "--body-bytes 4800" ...
// flags: --host, --port (as live.ts passes them), --body-bytes N (default 4800: Contrail's mean point
// 25 nm answer), --serve-threads N (default 2); every other flag is ignored.
import '../help.ts';
import { isMainThread, workerData } from 'node:worker_threads';
import { loadNativeUws } from '../../server/http/uws.ts';
import { tsWorker } from '../../lib/ts-worker.ts';

interface Options {
  host: string;
  port: number;
  bodyBytes: number;
  threads: number;
}

function options(argv: string[]): Options {
  const value = (name: string, dflt: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : dflt;
  };
  const o = {
    host: value('host', '127.0.0.1'),
    port: Number(value('port', '8080')),
    bodyBytes: Number(value('body-bytes', '4800')),
    threads: Number(value('serve-threads', '2')),
  };
  for (const k of ['port', 'bodyBytes', 'threads'] as const) {
    if (!Number.isInteger(o[k]) || o[k] < (k === 'threads' ? 1 : 0)) throw new Error(`uws-ceiling: --${k} must be a whole number, not ${o[k]}`);
  }
  return o;
}

/** a JSON object padded to exactly `bytes` (at least its fixed part): what a point answer looks like on the wire */
function bodyOf(bytes: number): Buffer {
  const head = '{"aircraft":"';
  const tail = '"}';
  return Buffer.from(head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail);
}

function serve(o: Options): void {
  const uws = loadNativeUws();
  const body = bodyOf(o.bodyBytes);
  uws
    .App()
    // the bench's readiness probe and its "snapshot moved" reading
    .get('/v1/now', (res) => {
      res.cork(() => res.writeHeader('Content-Type', 'application/json').end(JSON.stringify({ generated_at: Date.now() / 1000 })));
    })
    .any('/*', (res) => {
      res.cork(() => res.writeHeader('Content-Type', 'application/json').end(body));
    })
    .listen(o.host, o.port, (socket) => {
      if (!socket) throw new Error(`uws-ceiling: cannot listen on ${o.host}:${o.port}`);
      if (isMainThread) console.log(`uws-ceiling: ${o.threads} thread(s), ${body.length}-byte body, on ${o.host}:${o.port}`);
    });
}

if (isMainThread) {
  const o = options(process.argv.slice(2));
  for (let i = 1; i < o.threads; i++) tsWorker(new URL(import.meta.url), { workerData: o });
  serve(o);
} else {
  serve(workerData as Options);
}
