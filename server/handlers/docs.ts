// GET /openapi.json (generated from schemas/), /docs (swagger-ui from the swagger-ui-dist package's
// own files: no CDN, no telemetry, works offline), /docs/* (its static files) and /v1/credits.
// every body is prepared once (and its gzip with it) and then served as the same bytes.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { staticPayload } from '../http/respond.ts';
import { notFound } from '../../lib/errors.ts';
import { buildOpenApi } from '../../schemas/openapi.ts';
import { docsPolicy, originOf } from '../http/security.ts';
import { creditsDocument, type Credits } from '../credits.ts';
import type { Payload, Reply, Route } from '../http/types.ts';

export interface DocsDeps {
  /** public base URL, e.g. https://api.example.org (empty: links relative to the server) */
  baseUrl: () => string;
  credits: Credits;
  /** the server counts the buckets (--rate-limits): the document promises RateLimit headers and 429 only then */
  rateLimits?: boolean;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** the package's own folder; its top-level files are the only ones /docs/* can name */
export const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// replaced by our own: the package's page and initializer load the petstore example
const REPLACED = new Set(['index.html', 'swagger-initializer.js']);

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Contrail API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/swagger-initializer.js"></script>
</body>
</html>
`;

// validatorUrl null: no badge that sends the document to an outside validator
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    tryItOutEnabled: true,
    validatorUrl: null,
    docExpansion: 'list',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
};
`;

function prepared(raw: Buffer, contentType: string): Reply {
  const body: Payload = contentType.startsWith('image/') ? { raw } : staticPayload(raw);
  return { body, headers: { 'Content-Type': contentType } };
}

/** Lazily read and prepare one swagger-ui-dist file; only names listed in the package folder exist. */
function assetServer(dir: string) {
  const names = new Set(readdirSync(dir).filter((f) => TYPES[extname(f)] && !REPLACED.has(f)));
  const cache = new Map<string, Reply>([['swagger-initializer.js', prepared(Buffer.from(INITIALIZER), TYPES['.js']!)]]);
  return (name: string): Reply => {
    const hit = cache.get(name);
    if (hit) return hit;
    // exact names of the folder only: '..', '/', '%2f' and anything else never reach the file system
    if (!names.has(name)) throw notFound(`no documentation file ${JSON.stringify(name)}; open /docs`);
    const r = prepared(readFileSync(join(dir, name)), TYPES[extname(name)]!);
    cache.set(name, r);
    return r;
  };
}

/** Prepare a JSON body once per base URL (the base may become known only after listening). */
function perBase(make: (base: string) => unknown, baseUrl: () => string): () => Reply {
  let cached: { base: string; reply: Reply } | null = null;
  return () => {
    const base = baseUrl();
    if (cached?.base !== base) cached = { base, reply: prepared(Buffer.from(JSON.stringify(make(base))), 'application/json; charset=utf-8') };
    return cached.reply;
  };
}

export function docsRoutes(deps: DocsDeps): Route[] {
  // build once now: a broken operations table or schema fails at start-up, not on the first request
  const rateLimits = deps.rateLimits ?? true;
  buildOpenApi({ rateLimits });
  const openapi = perBase((base) => buildOpenApi({ baseUrl: base, rateLimits }), deps.baseUrl);
  const credits = perBase((base) => creditsDocument(deps.credits, base), deps.baseUrl);
  const asset = assetServer(SWAGGER_UI_DIR);
  const shell = prepared(Buffer.from(PAGE), TYPES['.html']!);
  // Swagger UI's own files only; try-it-out may call the public base URL (server/http/security.ts)
  let page: { base: string; reply: Reply } | null = null;
  const pageOf = (base: string): Reply => {
    if (page?.base !== base) page = { base, reply: { ...shell, headers: { ...shell.headers, 'Content-Security-Policy': docsPolicy(originOf(base)) } } };
    return page.reply;
  };
  return [
    { pattern: '/openapi.json', bucket: 'docs', handler: () => openapi() },
    { pattern: '/docs', bucket: 'docs', handler: () => pageOf(deps.baseUrl()) },
    { pattern: '/docs/*', bucket: 'docs', handler: (req) => asset(req.params['*'] ?? '') },
    { pattern: '/v1/credits', bucket: 'docs', handler: () => credits() },
  ];
}
