import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldRows, resolverOf, typeOf } from '../../../docs/gen/schema-fields.ts';

const record = {
  $id: 'record.json',
  type: 'object',
  required: ['hex'],
  properties: { hex: { type: 'string', description: 'Address.' }, alt: { type: ['integer', 'string'] } },
};
const doc = {
  $id: 'doc.json',
  type: 'object',
  required: ['when', 'legs', 'airline'],
  $defs: { iata: { type: 'string', pattern: '^[A-Z]{3}$', description: 'IATA code' } },
  properties: {
    when: { type: 'string', format: 'date', description: 'The day.' },
    source: { enum: ['observed', 'catalog', null] },
    coverage: { const: 'observed' },
    airline: {
      description: 'The airline, or null.',
      oneOf: [{ type: 'null' }, { type: 'object', required: ['icao'], properties: { icao: { type: 'string' } } }],
    },
    legs: { type: ['array', 'null'], items: { type: 'object', required: ['org'], properties: { org: { $ref: '#/$defs/iata' } } } },
    ac: { type: 'array', items: { allOf: [{ $ref: 'record.json' }, { type: 'object', properties: { dst: { type: 'number' } } }] } },
    by: { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'integer' } } } },
    pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }] },
  },
};
const schemas = new Map<string, Record<string, unknown>>([
  ['record', record],
  ['doc', doc],
]);

test('every field of a schema, nested ones by dotted name, with its type, whether it is required and its description', () => {
  const resolve = resolverOf(schemas);
  const rows = fieldRows(doc, doc, resolve).map((r) => `${r.name} | ${r.type} | ${r.required ? 'yes' : 'no'} | ${r.description}`);
  assert.deepEqual(rows, [
    'when | string (date) | yes | The day.',
    'source | one of `"observed"`, `"catalog"`, `null` | no | ',
    'coverage | `"observed"` | no | ',
    'airline | null or object | yes | The airline, or null.',
    'airline.icao | string | yes | ',
    'legs | array of object or null | yes | ',
    'legs[].org | string | yes | IATA code',
    'ac | array of object | no | ',
    'ac[].hex | string | yes | Address.',
    'ac[].alt | integer or string | no | ',
    'ac[].dst | number | no | ',
    'by | object of object | no | ',
    'by.<key>.n | integer | no | ',
    'pair | array [number, number] | no | ',
  ]);
});

test('a reference to a schema or a definition that does not exist is an error, not an empty row', () => {
  const resolve = resolverOf(schemas);
  assert.throws(() => typeOf({ $ref: 'gone.json' }, doc, resolve), /no schema with \$id gone\.json/);
  assert.throws(() => typeOf({ $ref: '#/$defs/nope' }, doc, resolve), /nothing at \/\$defs\/nope/);
});
