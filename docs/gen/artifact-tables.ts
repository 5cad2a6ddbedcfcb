// docs/artifacts.md's tables: the kinds of the published tree (schemas/artifact-kinds.ts with the
// buckets of schemas/policy.ts) and every field of each kind's schema.
import { ARTIFACT_KINDS, type ArtifactKind } from '../../schemas/artifact-kinds.ts';
import { POLICIES, WINDOW_S } from '../../schemas/policy.ts';
import { cell, prose, table } from './blocks.ts';
import { fieldRows, resolverOf, typeOf } from './schema-fields.ts';

type Node = Record<string, unknown>;

const schemaLink = (name: string) => `[\`${name}\`](../schemas/${name}.schema.json)`;

/** a bucket with its limit and Cache-Control, or what a meta/* document gets instead */
function bucketText(k: ArtifactKind): string {
  if (!k.bucket) return 'none: loaded by the server, never a public URL';
  const p = POLICIES[k.bucket];
  if (!p) throw new Error(`bucket ${k.bucket} is not in schemas/policy.ts`);
  return `\`${k.bucket}\` (${p.limit} per ${WINDOW_S} s; \`${p.cache}\`)`;
}

export function kindsTable(): string {
  const rows = Object.entries(ARTIFACT_KINDS).map(([name, k]: [string, ArtifactKind]) => [
    `[${name}](#${anchorOf(name)})`,
    k.url ? [k.url, ...(k.aliases ?? [])].map((u) => `\`${u}\``).join(', ') : '(none)',
    `\`${k.key}.gz\``,
    bucketText(k),
    schemaLink(k.schema),
  ]);
  return [
    'Every kind of object a version holds (`schemas/artifact-kinds.ts`); a `{name}` is one path segment.',
    '',
    table(['kind', 'URL', 'key in a version', 'bucket', 'schema'], rows),
  ].join('\n');
}

const anchorOf = (kind: string) => `kind-${kind.toLowerCase()}`;

function fieldsTable(schema: Node, schemas: ReadonlyMap<string, Node>): string {
  const resolve = resolverOf(schemas);
  const rows = fieldRows(schema, schema, resolve);
  if (!rows.length) return `The whole document is ${typeOf(schema, schema, resolve)}.`;
  return table(
    ['field', 'type', 'required', 'meaning'],
    rows.map((r) => [`\`${r.name}\``, r.type, r.required ? 'yes' : 'no', r.description]),
  );
}

export function manifestTable(schemas: ReadonlyMap<string, Node>): string {
  const m = schemas.get('manifest');
  if (!m) throw new Error('schemas/manifest.schema.json is missing');
  return [`${cell(String(m.description ?? ''))} Its fields (${schemaLink('manifest')}):`, '', fieldsTable(m, schemas)].join('\n');
}

export function fieldsSections(schemas: ReadonlyMap<string, Node>): string {
  const out: string[] = [];
  for (const [name, k] of Object.entries(ARTIFACT_KINDS) as [string, ArtifactKind][]) {
    const schema = schemas.get(k.schema);
    if (!schema) throw new Error(`kind ${name}: no schema ${k.schema}`);
    out.push(`<a id="${anchorOf(name)}"></a>`, `### ${name}: ${k.url ? `\`${k.url}\`` : `\`${k.key}\``}`, '');
    out.push(`Key \`${k.key}.gz\`; bucket ${bucketText(k)}; schema ${schemaLink(k.schema)}.`, '');
    if (schema.description) out.push(prose(String(schema.description)), '');
    out.push(fieldsTable(schema, schemas), '');
  }
  return out.join('\n');
}
