// checks one real HTTP answer against what an OpenAPI document says of its operation and status:
// the status is listed; each header the document gives that status is there when required and
// matches its schema; no header of the checked set is sent that the status does not list; the
// Content-Type is one of the status's media types (none where it has no content); the body matches
// the media type's schema (ajv, JSON Schema 2020-12, on the document's own components).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

type Json = Record<string, any>;

/** the headers whose presence a response's description must account for (lower case) */
const CHECKED_HEADERS = [
  'cache-control',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'etag',
  'content-encoding',
  'allow',
  'content-range',
  'accept-ranges',
  'last-modified',
  'upgrade',
  'sec-websocket-accept',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
] as const;

export interface Answer {
  method: string;
  status: number;
  /** lower-case names */
  headers: Record<string, string>;
  /** the decoded body (empty for HEAD, 204, 304, 101) */
  body: Buffer;
}

const ROOT = 'contract.json';
const COMPONENT = '#/components/schemas/';

/** one document's operations and compiled schemas */
export class OpenApiCheck {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<object, ValidateFunction>();

  constructor(readonly doc: Json) {
    // an open tuple (the published trace point, which may gain trailing fields) is meant: no tuple warning
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, strictTuples: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: ROOT, $defs: absolute(doc.components.schemas) });
  }

  /** the operation object of a path template and method (`get` serves HEAD too), or null */
  operation(template: string, method: string): Json | null {
    const m = method === 'HEAD' ? 'get' : method.toLowerCase();
    return this.doc.paths[template]?.[m] ?? null;
  }

  /** every problem of the answer against the document; empty when it matches */
  check(template: string, a: Answer): string[] {
    // any other method is answered 405, which the document lists under the path's GET
    const known = a.method === 'GET' || a.method === 'HEAD' || a.method === 'OPTIONS';
    const op = this.operation(template, known ? a.method : 'GET');
    if (!op) return [`${a.method} ${template} is not in the document`];
    if (!known && a.status !== 405) return [`${a.method} answered ${a.status}: any method but GET, HEAD and OPTIONS is a 405`];
    const r = op.responses[String(a.status)];
    if (!r) return [`status ${a.status} is not listed (listed: ${Object.keys(op.responses).join(', ')})`];
    const out: string[] = [];
    const headers: Json = Object.fromEntries(Object.entries<Json>(r.headers ?? {}).map(([k, h]) => [k.toLowerCase(), this.header(h)]));
    for (const [name, h] of Object.entries<Json>(headers)) {
      const v = a.headers[name];
      if (v === undefined) {
        if (h.required) out.push(`header ${name} is required on ${a.status} and was not sent`);
        continue;
      }
      const value = coerce(v, h.schema);
      if (value === undefined) out.push(`header ${name}: ${JSON.stringify(v)} is not a ${h.schema.type}`);
      else out.push(...this.validate(h.schema, value).map((p) => `header ${name} ${p}`));
    }
    for (const name of CHECKED_HEADERS) {
      if (a.headers[name] !== undefined && !(name in headers)) out.push(`header ${name} was sent but ${a.status} does not list it`);
    }
    const type = a.headers['content-type']?.split(';')[0]!.trim();
    const content: Json | undefined = r.content;
    if (!content || a.status === 101) {
      if (type !== undefined && a.status !== 101) out.push(`Content-Type ${type} sent on ${a.status}, which has no content`);
      return out;
    }
    if (type === undefined || !(type in content)) return [...out, `Content-Type ${type} is not one of ${Object.keys(content).join(', ')}`];
    if (a.method === 'HEAD') {
      if (a.body.length) out.push('a HEAD answer has a body');
      return out;
    }
    out.push(...this.body(content[type].schema, type, a.body));
    return out;
  }

  /** problems of a JSON body against one operation's status (`get` or `options`), as check() finds them */
  bodyProblems(template: string, method: 'get' | 'options', status: number, value: unknown): string[] {
    const schema = this.doc.paths[template]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${template} ${status} has no JSON content`);
    return this.validate(schema, value);
  }

  private header(h: Json): Json {
    if (!h.$ref) return h;
    const name = String(h.$ref).replace('#/components/headers/', '');
    const found = this.doc.components.headers?.[name];
    if (!found) throw new Error(`the document's ${h.$ref} does not resolve`);
    return found;
  }

  private body(schema: Json, type: string, body: Buffer): string[] {
    if (type === 'application/json') {
      let v: unknown;
      try {
        v = JSON.parse(body.toString('utf8'));
      } catch {
        return ['the body is not JSON'];
      }
      return this.validate(schema, v).map((p) => `body ${p}`);
    }
    // a Parquet file: bytes, not text; what it holds is schemas/flight-log's business
    if (type === 'application/vnd.apache.parquet') return body.length ? [] : ['an empty Parquet answer'];
    return this.validate(schema, body.toString('utf8')).map((p) => `body ${p}`);
  }

  private validate(schema: Json, value: unknown): string[] {
    let v = this.compiled.get(schema);
    if (!v) this.compiled.set(schema, (v = this.ajv.compile(absolute(schema) as Json)));
    if (v(value)) return [];
    return (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  }
}

/** a header value as its schema's type: integers from their digits; undefined when it is not one */
function coerce(v: string, schema: Json): unknown {
  if (schema.type !== 'integer') return v;
  return /^-?\d+$/.test(v.trim()) ? Number(v) : undefined;
}

/** the schema with its component `$ref`s made absolute (into the one registered root) */
function absolute(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absolute);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    const component = k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT);
    out[k] = component ? `${ROOT}#/$defs/${v.slice(COMPONENT.length)}` : absolute(v);
  }
  return out;
}
