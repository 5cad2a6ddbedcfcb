// GET /metrics: the Prometheus text rendered by server/metrics.ts, as it last rendered it.
import type { Route } from '../http/types.ts';

export function metricsRoutes(rendered: () => { text: string; contentType: string }): Route[] {
  return [
    {
      pattern: '/metrics',
      bucket: 'health',
      handler: () => {
        const r = rendered();
        return { body: { raw: Buffer.from(r.text) }, headers: { 'Content-Type': r.contentType } };
      },
    },
  ];
}
