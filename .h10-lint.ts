import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildOpenApi } from '/work/main/schemas/openapi.ts';
const doc = buildOpenApi({ baseUrl: 'http://127.0.0.1:8080' });
const config = await createConfig({ extends: ['recommended-strict'] } as any);
const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: '/openapi.json', config });
for (const p of problems) console.log(p.severity, p.ruleId, p.message, JSON.stringify(p.location?.[0]?.pointer));
console.log(problems.length, 'problems', JSON.stringify(doc).length, 'bytes');
