// npm run docs: writes the generated blocks of README.md, docs/operating.md and docs/artifacts.md
// (the routes, every command's configuration, the artifact kinds and their fields) from the code.
// --check writes nothing and fails when a file is out of date (what test/docs/generated.test.ts asks).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { ROOT, regenerate } from './generate.ts';

interface DocsConfig {
  check: boolean;
}

const specs: Specs<DocsConfig> = {
  check: {
    flag: 'check',
    env: 'CONTRAIL_DOCS_CHECK',
    kind: 'bool',
    default: false,
    help: 'write nothing; exit 1 naming each file whose generated blocks are out of date',
  },
};

const docs: Command<DocsConfig> = {
  name: 'docs',
  usage:
    'Usage: npm run --silent docs -- [--check]\n\nRewrites the generated blocks (<!-- generated: NAME --> ... <!-- end generated -->) of README.md,\ndocs/operating.md and docs/artifacts.md from the config specs, schemas/artifact-kinds.ts, schemas/policy.ts,\nschemas/operations.ts and the JSON schemas.',
  specs,
  run: async (c) => {
    const stale = regenerate().filter((r) => r.next !== r.current);
    for (const r of stale) {
      if (c.check) console.error(`docs: ${r.file} is out of date: run npm run docs`);
      else writeFileSync(join(ROOT, r.file), r.next);
    }
    if (!c.check) console.error(stale.length ? `docs: wrote ${stale.map((r) => r.file).join(', ')}` : 'docs: every generated block is up to date');
    return c.check && stale.length ? 1 : 0;
  },
};

runAsMain(import.meta.url, () => runCommand(docs, process.argv.slice(2)));
