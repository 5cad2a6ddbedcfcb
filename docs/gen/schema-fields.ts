// every field of a JSON Schema as rows of a table (name, type, required, description), nested
// objects and arrays of objects flattened into dotted names (`legs[].org`, `by_gap_min.<key>.n`).
// only what the schemas of this project use is read: type, enum, const, $ref (local $defs and other
// schemas by $id), oneOf/anyOf, allOf, items, prefixItems, properties, additionalProperties.

type Node = Record<string, unknown>;

export interface FieldRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** resolves `$ref`s against the schema holding them and the other schemas, by `$id` */
export type Resolve = (ref: string, within: Node) => { node: Node; within: Node };

export function resolverOf(schemas: ReadonlyMap<string, Node>): Resolve {
  const byId = new Map([...schemas.values()].map((s) => [s.$id as string, s]));
  return (ref, within) => {
    const [file, pointer] = ref.split('#') as [string, string | undefined];
    const doc = file ? byId.get(file) : within;
    if (!doc) throw new Error(`$ref ${ref}: no schema with $id ${file}`);
    let node: unknown = doc;
    for (const part of (pointer ?? '').split('/').filter(Boolean)) node = (node as Node)[part];
    if (!node || typeof node !== 'object') throw new Error(`$ref ${ref}: nothing at ${pointer}`);
    return { node: node as Node, within: doc };
  };
}

const MAX_DEPTH = 8;

/** the node itself with its $ref and allOf parts merged in (the node's own words first) */
function expand(node: Node, within: Node, resolve: Resolve, depth = 0): { node: Node; within: Node } {
  if (depth > MAX_DEPTH) throw new Error('$ref chain too deep');
  let merged: Node = { ...node };
  let where = within;
  if (typeof node.$ref === 'string') {
    const r = resolve(node.$ref, within);
    const inner = expand(r.node, r.within, resolve, depth + 1);
    merged = { ...inner.node, ...merged };
    delete merged.$ref;
    where = inner.within;
  }
  if (Array.isArray(node.allOf)) {
    for (const part of node.allOf as Node[]) {
      const p = expand(part, where, resolve, depth + 1);
      // the fields in the order the parts give them; a field the node itself names keeps its own words
      const properties: Node = { ...(merged.properties as Node) };
      for (const [k, v] of Object.entries((p.node.properties as Node) ?? {})) if (!(k in properties)) properties[k] = v;
      merged = { ...p.node, ...merged, properties };
      merged.required = [...((p.node.required as string[]) ?? []), ...((merged.required as string[]) ?? [])];
      if (p.within !== where) where = p.within;
    }
    delete merged.allOf;
    if (!Object.keys(merged.properties as Node).length) delete merged.properties;
  }
  return { node: merged, within: where };
}

/** a short type: `string or null`, `array of integer`, one of `a`, `b` */
export function typeOf(raw: Node, within: Node, resolve: Resolve, depth = 0): string {
  const { node, within: w } = expand(raw, within, resolve);
  if (depth > MAX_DEPTH) return 'value';
  if ('const' in node) return `\`${JSON.stringify(node.const)}\``;
  if (Array.isArray(node.enum)) return `one of ${(node.enum as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`;
  const alts = (node.oneOf ?? node.anyOf) as Node[] | undefined;
  if (alts) return [...new Set(alts.map((a) => typeOf(a, w, resolve, depth + 1)))].join(' or ');
  const types = Array.isArray(node.type) ? (node.type as string[]) : typeof node.type === 'string' ? [node.type] : [];
  const one = (t: string): string => {
    if (t === 'array') {
      if (Array.isArray(node.prefixItems)) return `array [${(node.prefixItems as Node[]).map((p) => typeOf(p, w, resolve, depth + 1)).join(', ')}]`;
      if (node.items && typeof node.items === 'object') return `array of ${typeOf(node.items as Node, w, resolve, depth + 1)}`;
      return 'array';
    }
    if (t === 'object' && !node.properties && node.additionalProperties && typeof node.additionalProperties === 'object') {
      return `object of ${typeOf(node.additionalProperties as Node, w, resolve, depth + 1)}`;
    }
    if (t === 'string' && typeof node.format === 'string') return `string (${node.format})`;
    return t;
  };
  if (!types.length) return node.properties ? 'object' : 'value';
  return types.map(one).join(' or ');
}

/** the object (or objects) a node holds fields of: itself, an array's items, a map's values, an alternative that is an object */
function inner(node: Node, within: Node, resolve: Resolve): { node: Node; within: Node; suffix: string } | null {
  const e = expand(node, within, resolve);
  const n = e.node;
  if (n.properties) return { ...e, suffix: '' };
  if (n.items && typeof n.items === 'object' && !Array.isArray(n.prefixItems)) {
    const i = inner(n.items as Node, e.within, resolve);
    return i && { ...i, suffix: `[]${i.suffix}` };
  }
  if (n.additionalProperties && typeof n.additionalProperties === 'object') {
    const i = inner(n.additionalProperties as Node, e.within, resolve);
    return i && { ...i, suffix: `.<key>${i.suffix}` };
  }
  const alts = (n.oneOf ?? n.anyOf) as Node[] | undefined;
  for (const a of alts ?? []) {
    const i = inner(a, e.within, resolve);
    if (i) return i;
  }
  return null;
}

/** the rows of every field below `node`, `prefix` naming where it sits */
export function fieldRows(node: Node, within: Node, resolve: Resolve, prefix = '', depth = 0): FieldRow[] {
  if (depth > MAX_DEPTH) return [];
  const holder = inner(node, within, resolve);
  if (!holder) return [];
  const props = holder.node.properties as Record<string, Node>;
  const required = new Set((holder.node.required as string[]) ?? []);
  const base = (prefix + holder.suffix).replace(/^\./, '');
  const rows: FieldRow[] = [];
  for (const [key, prop] of Object.entries(props)) {
    const name = base ? `${base}.${key}` : key;
    const resolved = expand(prop, holder.within, resolve).node;
    const description = (prop.description ?? resolved.description ?? '') as string;
    rows.push({ name, type: typeOf(prop, holder.within, resolve), required: required.has(key), description });
    rows.push(...fieldRows(prop, holder.within, resolve, name, depth + 1));
  }
  return rows;
}
