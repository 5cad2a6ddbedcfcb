// what `npm run docs` makes: each generated block's generator, and the files that hold blocks.
// docs/gen imports both server/ and build/ (their configuration specs), which never import each other,
// so it sits above them in the folder order (test/architecture/layout.ts), as bench/ does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Specs } from '../../lib/cli.ts';
import { loadSchemas } from '../../schemas/index.ts';
import { serverOptions } from '../../server/config.ts';
import { NIGHTLY_SPECS } from '../../build/nightly-config.ts';
import { LOG_SPECS } from '../../build/log/cli.ts';
import { accuracyOptions } from '../../build/accuracy/cli.ts';
import { ROLL_SPECS } from '../../build/roll.ts';
import { PUBLISH_SPECS } from '../../build/upload/cli.ts';
import { refreshOptions } from '../../build/reference/refresh.ts';
import { BASEMAP_SPECS } from '../../build/map/basemap.ts';
import { demoSpecs } from '../../sim/demo.ts';
import { historySpecs, liveSpecs, logSpecs, snapshotSpecs } from '../../sim/cli.ts';
import { fillBlocks } from './blocks.ts';
import { configTable } from './config-tables.ts';
import { fieldsSections, kindsTable, manifestTable } from './artifact-tables.ts';
import { routesTable } from './route-table.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

/** every command with lib/cli.ts specs; `sources` are the files its specs are declared in */
export const COMMANDS: readonly { name: string; sources: readonly string[]; specs: Specs<any> }[] = [
  { name: 'server', sources: ['server/config.ts', 'server/credits.ts', 'lib/log.ts'], specs: serverOptions },
  { name: 'nightly', sources: ['build/nightly-config.ts'], specs: NIGHTLY_SPECS },
  { name: 'log', sources: ['build/log/cli.ts'], specs: LOG_SPECS },
  { name: 'accuracy', sources: ['build/accuracy/cli.ts'], specs: accuracyOptions },
  { name: 'roll', sources: ['build/roll.ts'], specs: ROLL_SPECS },
  { name: 'upload', sources: ['build/upload/cli.ts'], specs: PUBLISH_SPECS },
  { name: 'reference-refresh', sources: ['build/reference/refresh.ts'], specs: refreshOptions },
  { name: 'map-basemap', sources: ['build/map/basemap.ts'], specs: BASEMAP_SPECS },
  { name: 'demo', sources: ['sim/demo.ts', 'sim/fault-specs.ts'], specs: demoSpecs },
  { name: 'sim-live', sources: ['sim/cli.ts', 'sim/fault-specs.ts'], specs: liveSpecs },
  { name: 'sim-history', sources: ['sim/cli.ts', 'sim/fault-specs.ts'], specs: historySpecs },
  { name: 'sim-snapshot', sources: ['sim/cli.ts'], specs: snapshotSpecs },
  { name: 'sim-log', sources: ['sim/cli.ts'], specs: logSpecs },
];

/** block name -> what it holds */
export function generators(root = ROOT): Map<string, () => string> {
  const schemas = loadSchemas() as unknown as Map<string, Record<string, unknown>>;
  const g = new Map<string, () => string>([
    ['routes', routesTable],
    ['artifact kinds', kindsTable],
    ['artifact manifest', () => manifestTable(schemas)],
    ['artifact fields', () => fieldsSections(schemas)],
  ]);
  for (const c of COMMANDS) g.set(`config ${c.name}`, () => configTable(c.specs, root));
  return g;
}

/** the files that hold generated blocks, relative to the root */
export const GENERATED_FILES = ['README.md', 'docs/operating.md', 'docs/artifacts.md'] as const;

export interface Regenerated {
  file: string;
  current: string;
  next: string;
}

/** each file as it is and as `npm run docs` would write it */
export function regenerate(root = ROOT): Regenerated[] {
  const g = generators(root);
  return GENERATED_FILES.map((file) => {
    const current = readFileSync(join(root, file), 'utf8');
    return { file, current, next: fillBlocks(current, g) };
  });
}
