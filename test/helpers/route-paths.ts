// a request path for each pattern of a route table (server/http/router.ts syntax: `:name` segments,
// a trailing `*`), filled from values keyed by parameter name. a parameter no value is known for
// gets a placeholder, so a new route is covered the day it is added, with whatever it answers.
import type { Route } from '../../server/http/types.ts';

const PLACEHOLDER = 'x1';

/** the path that asks `pattern` with these values ('*' names the rest of the path) */
function pathOf(pattern: string, values: Record<string, string>): string {
  return pattern
    .split('/')
    .map((seg) => (seg === '*' ? (values['*'] ?? PLACEHOLDER) : seg.startsWith(':') ? encodeURIComponent(values[seg.slice(1)] ?? PLACEHOLDER) : seg))
    .join('/');
}

/** one path per route of the table, by pattern; `values` may be keyed `pattern|name` for one route alone */
export function pathsOf(routes: readonly Route[], values: Record<string, string>): { pattern: string; path: string }[] {
  return routes.map((r) => {
    const own: Record<string, string> = { ...values };
    for (const [k, v] of Object.entries(values)) if (k.startsWith(`${r.pattern}|`)) own[k.slice(r.pattern.length + 1)] = v;
    return { pattern: r.pattern, path: pathOf(r.pattern, own) };
  });
}
