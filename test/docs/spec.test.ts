// docs/spec/spec.md is the specification as it was given, unchanged: one line of note on top, then the
// text byte for byte (its sha256 below is the given file's). decisions go to docs/spec/CHANGELOG.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const GIVEN_SHA256 = 'c14b6c08072a8f478cce68df055d619033abcfba544aff874f9f4e211396c285';

test('the spec in docs/spec/spec.md is the given text, unchanged, below a one-line note', () => {
  const text = readFileSync(join(ROOT, 'docs/spec/spec.md'), 'utf8');
  const [note, blank, ...rest] = text.split('\n');
  assert.match(note!, /^_The specification, the contract: copied unchanged from .*000_ea0b2c452266ba5f\.txt/);
  assert.equal(blank, '');
  assert.equal(
    createHash('sha256').update(rest.join('\n')).digest('hex'),
    GIVEN_SHA256,
    'the spec text was edited: put the decision in docs/spec/CHANGELOG.md instead',
  );
});
