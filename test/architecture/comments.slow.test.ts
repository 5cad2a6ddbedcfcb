import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { citationProblems, ignoredRoots, pointerProblems, pointerProblemsIn, snippetsOf, specTargets } from './comments.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const SPEC = readFileSync(join(ROOT, 'docs/spec/spec.md'), 'utf8');
const ROOTS = ignoredRoots(readFileSync(join(ROOT, '.gitignore'), 'utf8'));

/** the problems of one planted file, as `line: what` */
const check = (file: string, source: string, hasReadme = false) =>
  pointerProblems(new Map([[file, source]]), SPEC, ROOTS, () => hasReadme).map((p) => p.slice(file.length + 1));

test('the spec in the repository has the headings and rules the code cites', () => {
  const t = specTargets(SPEC);
  for (const h of ['1', '2', '2.1', '2.9', '3', '4', '4.1', '4.3', '5', '6', '7', '8', '9']) assert.ok(t.headings.has(h), `heading ${h}`);
  assert.ok(!t.headings.has('1.5') && !t.headings.has('10') && !t.headings.has('4.4'), 'no heading the spec does not have');
  assert.deepEqual([...t.rules.get('1')!], ['1', '2', '3', '4', '5'], 'the data honesty rules');
  assert.deepEqual([...t.rules.get('5')!], ['1', '2', '3'], 'the authentication rules');
});

test('every spelling of a citation the code uses resolves, and a wrong one is named', () => {
  const t = specTargets(SPEC);
  const ok = [
    'spec 2.4: taken from the day',
    "the spec's section 7 shape",
    'spec sections 7',
    'spec 1 rule 5',
    'spec 1 rule 4, 2.8',
    'Spec 9 tier',
    'spec 8, 300 per 600 s',
    'spec 2.4 and 8',
  ];
  for (const text of ok) assert.deepEqual(citationProblems(text, t), [], text);
  const bad: [string, RegExp][] = [
    ['spec 4.7 says', /no heading 4\.7/],
    ['spec 1.5 and 8', /no heading 1\.5/],
    ['spec 2.4 and 10', /no heading 10/],
    ['spec 1 rule 4, 2.12', /no heading 2\.12/],
    ['spec 1 rule 9', /section 1 of docs\/spec\/spec\.md has no rule 9/],
    ['spec section 12', /no heading 12/],
    ['(spec rule 5)', /names no section/],
  ];
  for (const [text, why] of bad) {
    const p = citationProblems(text, t);
    assert.equal(p.length, 1, text);
    assert.match(p[0]!.what, why, text);
  }
});

test('comments and strings are told apart by the scanner: a regular expression or a URL is not a comment', () => {
  const src = [
    'const re = /\\/\\/ spec 4.7/g; // spec 2.4',
    "const url = 'http://x/spec 4.8';",
    "const t = `a ${b ? '// spec 4.9' : `${c} /* spec 4.10 */`} d`; /* spec 3 */",
    'const d = a / b / c; // spec 7',
    '// spec 1 rule 4,',
    '// 2.8 across two lines',
  ].join('\n');
  const s = snippetsOf('lib/x.ts', src);
  assert.deepEqual(
    s.filter((x) => x.kind === 'comment').map((x) => [x.line, x.text]),
    [
      [1, 'spec 2.4'],
      [3, 'spec 3'],
      [4, 'spec 7'],
      [5, 'spec 1 rule 4,\n2.8 across two lines'],
    ],
  );
  assert.deepEqual(
    s.filter((x) => x.kind === 'string').map((x) => x.text),
    ['http://x/spec 4.8', 'a ', '// spec 4.9', '', ' /* spec 4.10 */', ' d'],
  );
  // the string's citation is checked too, the regular expression's never
  assert.deepEqual(check('lib/x.ts', src), [
    '2: "spec 4.8": docs/spec/spec.md has no heading 4.8',
    '3: "spec 4.9": docs/spec/spec.md has no heading 4.9',
    '3: "spec 4.10": docs/spec/spec.md has no heading 4.10',
  ]);
});

// the word spliced in, so this file's own lines are not read as what they plant
const R = 'READ' + 'ME';

test("a planted pointer at a README section, anchor or the README itself fails; other READMEs, the bundle's file and file names do not", () => {
  const src = [
    `// measured with the live bench (${R} "Live API")`,
    `// see ${R}.md#logs`,
    `/** the figures are in the ${R} */`,
    `// (${R}: steady-state-night-7)`,
    `const help = 'the sample (${R} "what is validated when")';`,
    `// deploy/${R}.md has the nginx front; readsb ${R}-json.md; routes.${R}.md`,
    `// the bundle: ${R}, LICENSE, CREDITS and SHA256SUMS`,
    `// the researchers' ${R} names the build`,
    `const names = ['${R}', 'LICENSE']; const f = join(out, '${R}');`,
  ].join('\n');
  assert.deepEqual(
    check('server/x.ts', src).map((p) => p.split(':')[0]),
    ['1', '2', '3', '4', '5'],
  );
  // a README.md beside the file is that folder's own
  assert.deepEqual(check('server/stations/x.ts', `// the feeder list of ${R}.md`, true), []);
  assert.equal(check('server/x.ts', `// the feeder list of ${R}.md`, false).length, 1);
  // shell, nginx and YAML comments are read too
  assert.equal(check('deploy/x.sh', `echo hi # the young generation (${R}, "The nightly build")`).length, 1);
  assert.equal(check('deploy/x.conf', `# ${R} LICENSE CREDITS`).length, 0);
});

test('a planted pointer at an ignored path fails; saying where a command writes does not', () => {
  assert.deepEqual(ROOTS, ['var', '.bench'], 'the folders of .gitignore, node_modules left out');
  const src = [
    '// measured in var/probe, on the 12k snapshot',
    '// (.bench/log/stats.json)',
    '// builds the sample into var/flight-log; its outputs go to .bench/sim',
    '//   npx tsx bench/soak.ts [--artifacts var/artifacts] (default: var/artifacts)',
    '// keeps node_modules and var/ out of the image',
    "const p = 'var/probe';",
  ].join('\n');
  assert.deepEqual(
    check('bench/x.ts', src).map((p) => p.replace(/, which.*/, '')),
    ['1: points at var/probe', '2: points at .bench/log'],
  );
});

test('every spec citation in the source tree resolves, and no comment points at the README or an ignored path', () => {
  assert.deepEqual(pointerProblemsIn(ROOT), []);
});
