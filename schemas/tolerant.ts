// the published variant of the contract's schemas (spec 9: a stable operation only gains fields, and
// clients must tolerate added ones). the files of this folder are strict, closed with
// `additionalProperties: false`, so the project's tests and the build's validation (index.ts,
// build/publish/writer.ts) catch a field nobody meant to add; a client that validated against those
// would break on the first field the service adds. /openapi.json therefore publishes every schema a
// stable operation answers with opened up, made here from the same files: one source, two readings.
type Json = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';
// keywords whose keys are names (a property called `maxItems` is no keyword): only their values are schemas
const NAMED = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
// values, not schemas: copied as they are
const DATA = new Set(['const', 'enum', 'default', 'examples', 'example']);

/**
 * A schema that accepts what the strict one accepts plus added fields: `additionalProperties: false`
 * is dropped at every depth, and a tuple (`prefixItems`) may gain trailing items, as readsb's traces
 * gain fields at the end of each point. nothing else is loosened: types, required fields, enums and
 * patterns stay as they are.
 */
export function tolerant(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tolerant);
  if (value === null || typeof value !== 'object') return value;
  const s = value as Json;
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems.length : -1;
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'additionalProperties' && v === false) continue;
    if (k === 'maxItems' && v === tuple) continue;
    if (k === 'items' && v === false && tuple >= 0) continue;
    if (DATA.has(k)) out[k] = v;
    else if (NAMED.has(k) && v && typeof v === 'object' && !Array.isArray(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, x]) => [n, tolerant(x)]));
    else out[k] = tolerant(v);
  }
  return out;
}

/** The component schemas reachable from `roots` (component names) through their `$ref`s. */
export function reachable(roots: Iterable<string>, components: Json): Set<string> {
  const seen = new Set<string>();
  const todo = [...roots];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith(COMPONENT)) todo.push(x.slice(COMPONENT.length));
        else walk(x);
      }
    }
  };
  while (todo.length) {
    const name = todo.pop()!;
    if (seen.has(name)) continue;
    if (!(name in components)) throw new Error(`no component schema ${name}`);
    seen.add(name);
    walk(components[name]);
  }
  return seen;
}

/** The `$ref`ed component names anywhere in `value` (an operation's responses). */
export function refsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) refsIn(v, found);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT)) found.add(v.slice(COMPONENT.length));
      else refsIn(v, found);
    }
  }
  return found;
}
