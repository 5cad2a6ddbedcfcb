// a tiny segment router: patterns like /v1/trace/:hex; the last segment may be * (rest of path).
import type { Route } from './types.ts';

interface Compiled {
  route: Route;
  parts: string[];
  rest: boolean;
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: Route[]) {
    this.compiled = routes.map((route) => {
      const parts = segmentsOf(route.pattern);
      const rest = parts[parts.length - 1] === '*';
      if (rest) parts.pop();
      return { route, parts, rest };
    });
  }

  /** First route whose pattern matches, in registration order; null when none does. */
  match(path: string): Match | null {
    const segs = segmentsOf(path);
    outer: for (const c of this.compiled) {
      if (c.rest ? segs.length < c.parts.length : segs.length !== c.parts.length) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < c.parts.length; i++) {
        const p = c.parts[i]!;
        const s = segs[i]!;
        if (p.startsWith(':')) params[p.slice(1)] = s;
        else if (p !== s) continue outer;
      }
      if (c.rest) params['*'] = segs.slice(c.parts.length).join('/');
      return { route: c.route, params };
    }
    return null;
  }
}

/**
 * The segments a (decoded) path is routed by: empty ones dropped, so `//v1/stations/x/` routes as
 * `/v1/stations/x`. the access log masks by the same segments (server/access-log.ts).
 */
export const segmentsOf = (path: string): string[] => path.split('/').filter(Boolean);

/** Percent-decode a path; null when the encoding is broken (the caller answers 422). */
export function decodePath(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}
