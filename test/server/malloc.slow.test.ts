// the start-up warning for a glibc server started without MALLOC_MMAP_THRESHOLD_ (server/malloc.ts,
// docs/operating.md "Memory"), and the launchers that set it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MALLOC_ENV, glibcVersion, mallocWarning } from '../../server/malloc.ts';
import { ROOT } from '../helpers/processes.ts';

test('on glibc without the variable the server warns, naming the setting and the docs; with it, or on another C library, it says nothing', () => {
  const w = mallocWarning({}, '2.36');
  assert.match(
    w ?? '',
    /^contrail: started without MALLOC_MMAP_THRESHOLD_=131072: glibc 2\.36 keeps what the serving threads free .*\(docs\/operating\.md, "Memory"\)$/,
  );
  assert.equal(mallocWarning({ MALLOC_MMAP_THRESHOLD_: '131072' }, '2.36'), null);
  assert.equal(mallocWarning({ MALLOC_MMAP_THRESHOLD_: '65536' }, '2.36'), null, "an operator's own value is theirs");
  assert.equal(mallocWarning({}, undefined), null, 'musl, macOS');
  const v = glibcVersion();
  assert.ok(v === undefined || /^\d+\.\d+/.test(v), String(v));
});

test('every launcher of the live server sets the variable to the same value', () => {
  const value = MALLOC_ENV.MALLOC_MMAP_THRESHOLD_;
  const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
  assert.match(JSON.parse(read('package.json')).scripts.serve, new RegExp(`^MALLOC_MMAP_THRESHOLD_=${value} `));
  assert.match(read('Dockerfile'), new RegExp(`MALLOC_MMAP_THRESHOLD_=${value}\\b`));
  assert.match(read('deploy/systemd/contrail.service'), new RegExp(`^Environment=MALLOC_MMAP_THRESHOLD_=${value}$`, 'm'));
  assert.match(read('sim/demo.ts'), /env: MALLOC_ENV/);
});
