// the headers every answer carries for browsers (docs/api.md "Security headers"), and the content
// security policies of the two HTML pages: the map at / loads only its own script, styles and
// basemap, and /docs only Swagger UI's own files, all served by this server.

/** on every answer, errors and refused upgrades included (written with the CORS block, uws.ts) */
export const SECURITY_HEADERS: readonly [string, string][] = [
  // a JSON body is never sniffed into a script or a page
  ['X-Content-Type-Options', 'nosniff'],
  // the map's links and the docs' try-it-out send the origin at most, never a path to another site
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  // a page of this service may be framed by itself only (the CSP's frame-ancestors for browsers that read it)
  ['X-Frame-Options', 'SAMEORIGIN'],
];

const join = (directives: Record<string, string[]>) =>
  Object.entries(directives)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');

// what neither page ever needs
const LOCKED = { 'object-src': ["'none'"], 'base-uri': ["'none'"], 'frame-ancestors': ["'self'"], 'form-action': ["'none'"] };

/**
 * The map's policy: its script and stylesheet from this server (the map code sets element styles
 * inline, hence 'unsafe-inline' for styles only: Chromium refused them otherwise,
 * test/web/map/map-browser.slow.test.ts), raster images from here (the Natural Earth basemap, data:
 * icons) and from `tileOrigins` (a configured tile host, when there is one), data over fetch and
 * the push stream's WebSocket to this server alone, and the sky worker's script from here.
 */
export function mapPolicy(tileOrigins: readonly string[] = []): string {
  return join({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // the sky worker (web/map/sky-worker.ts), this server's own script: named rather than left to default-src
    'worker-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', ...tileOrigins],
    'connect-src': ["'self'"],
    ...LOCKED,
  });
}

/**
 * /docs: Swagger UI's own files from this server; it sets styles inline (hence 'unsafe-inline' for
 * styles only, never for scripts), draws icons as data: images, and try-it-out calls this server,
 * or the public base URL the document names (`apiOrigin`) when that is another origin.
 */
export function docsPolicy(apiOrigin = ''): string {
  return join({
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(apiOrigin ? [apiOrigin] : [])],
    ...LOCKED,
  });
}

/** the origin of a base URL (https://api.example.org/x -> https://api.example.org), '' when it has none */
export function originOf(url: string): string {
  try {
    return url ? new URL(url).origin : '';
  } catch {
    return '';
  }
}
