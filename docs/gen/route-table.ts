// the README's routes at a glance: every operation of schemas/operations.ts with its bucket's limit
// and Cache-Control from schemas/policy.ts.
import { OPERATIONS } from '../../schemas/operations.ts';
import { POLICIES } from '../../schemas/policy.ts';
import { table } from './blocks.ts';

const seconds = (s: number) => (s % 3600 === 0 ? `${s / 3600} h` : s % 60 === 0 && s >= 60 ? `${s / 60} min` : `${s} s`);

/** `public, max-age=5, s-maxage=10` -> `5 s, edge 10 s`; the same lifetime once; `no-store` -> never */
export function cacheText(cache: string): string {
  if (/no-store/.test(cache)) return cache.startsWith('private') ? 'never (private)' : 'never';
  const browser = /max-age=(\d+)/.exec(cache.replace(/s-maxage=\d+/, ''));
  const edge = /s-maxage=(\d+)/.exec(cache);
  if (!browser || !edge) throw new Error(`Cache-Control ${cache}: expected max-age and s-maxage`);
  return browser[1] === edge[1] ? seconds(+browser[1]!) : `${seconds(+browser[1]!)}, edge ${seconds(+edge[1]!)}`;
}

export function routesTable(): string {
  const rows = OPERATIONS.map((op) => {
    const p = POLICIES[op.bucket];
    if (!p) throw new Error(`${op.path}: bucket ${op.bucket} is not in schemas/policy.ts`);
    return [`\`${op.path}\``, op.summary, `\`${op.bucket}\``, p.limit ? String(p.limit) : 'unlimited', cacheText(p.cache), op.stability];
  });
  return table(['route', 'what', 'bucket', 'limit per 600 s', 'cache', 'tier'], rows);
}
