// researchers' bundles on the live server: GET /v1/bundles (the index, schemas/bundles-index) and
// GET /v1/bundles/{daily|rolling}/{file} (the .tar.gz, immutable: the name carries its hash).
// bucket docs. files are read whole and synchronously per request (handlers answer at once,
// server/http/types.ts): a deployment with large rolling bundles serves them from the bucket/CDN
// or nginx (deploy/) instead; this keeps a single-box setup complete.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { notFound } from '../../lib/errors.ts';
import { BUNDLE_FILE as FILE, IMMUTABLE, INDEX_FILE, KINDS } from '../../artifacts/bundles.ts';
import type { Route } from '../http/types.ts';

function readOr404(dir: string, file: string, what: string): Buffer {
  if (!dir) throw notFound('this server publishes no bundles (start it with --bundles <dir>)');
  try {
    return readFileSync(join(dir, file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(`${what} is not published; the index at /v1/bundles lists what is`);
    throw e;
  }
}

/** @param dir the bundles folder written by build/bundle (index.json, daily/, rolling/) */
export function bundleRoutes(dir: string): Route[] {
  return [
    {
      pattern: '/v1/bundles',
      bucket: 'docs',
      handler: () => ({ body: { raw: readOr404(dir, INDEX_FILE, 'the bundles index') } }),
    },
    {
      pattern: '/v1/bundles/:kind/:file',
      bucket: 'docs',
      handler: (req) => {
        const { kind = '', file = '' } = req.params;
        // a malformed name can only be a file that does not exist: 404, never a path outside dir
        if (!(KINDS as readonly string[]).includes(kind) || !FILE.test(file)) throw notFound(`no bundle ${kind}/${file}; the index at /v1/bundles lists them`);
        return {
          body: { raw: readOr404(dir, join(kind, file), `bundle ${kind}/${file}`) },
          headers: { 'Content-Type': 'application/gzip', 'Content-Disposition': `attachment; filename="${file}"` },
          cacheControl: IMMUTABLE,
          compressed: true,
        };
      },
    },
  ];
}
