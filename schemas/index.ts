// the contract: one JSON Schema per response and artifact, in this folder as <name>.schema.json.
// used by the tests (every response), by the build (every artifact before publishing), and by /openapi.json.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives wrapped under NodeNext
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export const SCHEMA_DIR = dirname(fileURLToPath(import.meta.url));

export type Schema = Record<string, unknown> & { $id: string; title?: string };

let cache: { ajv: Ajv2020; schemas: Map<string, Schema> } | null = null;

/** Every schema in the folder, keyed by name (file name without .schema.json). */
export function loadSchemas(): Map<string, Schema> {
  return registry().schemas;
}

function registry() {
  if (cache) return cache;
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  const schemas = new Map<string, Schema>();
  for (const f of readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    const s = JSON.parse(readFileSync(join(SCHEMA_DIR, f), 'utf8')) as Schema;
    const name = f.slice(0, -'.schema.json'.length);
    if (s.$id !== `${name}.json`) throw new Error(`schemas/${f}: $id must be "${name}.json"`);
    schemas.set(name, s);
    ajv.addSchema(s);
  }
  cache = { ajv, schemas };
  return cache;
}

const compiled = new Map<string, ValidateFunction>();

function validatorFor(name: string): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    const got = registry().ajv.getSchema(`${name}.json`);
    if (!got) throw new Error(`no schema named ${name}: add schemas/${name}.schema.json`);
    v = got as ValidateFunction;
    compiled.set(name, v);
  }
  return v;
}

/** Validation problems as readable lines; empty when the document is valid. */
export function problems(name: string, doc: unknown): string[] {
  const v = validatorFor(name);
  if (v(doc)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${e.params ? JSON.stringify(e.params) : ''}`.trim());
}

class SchemaError extends Error {
  override name = 'SchemaError';
}

/** Throw when the document does not match the named schema. */
export function assertValid(name: string, doc: unknown, what = name): void {
  const p = problems(name, doc);
  if (p.length) throw new SchemaError(`${what} does not match schemas/${name}.schema.json: ${p.slice(0, 5).join('; ')}`);
}
