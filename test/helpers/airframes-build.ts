// the routes and airframes steps run on a hand-made `legs` table (the log's columns and `day`), as
// a build and as a night that reuses one: what the airframes increment tests share
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { ArtifactWriter } from '../../build/publish/writer.ts';
import type { BuildContext } from '../../build/steps/context.ts';
import { loadRefAirports } from '../../build/steps/duck.ts';
import { makeRoutesBuilder } from '../../build/steps/routes/build.ts';
import { buildAirframes } from '../../build/steps/airframes/build.ts';
import { AIRFRAMES_STEP } from '../../build/steps/airframes/step.ts';
import type { Reuse } from '../../build/steps/declaration.ts';

/** a temporary folder and a DuckDB connection with an empty `legs` table, both gone after the test */
export async function legsDb(t: TestContext, name: string): Promise<{ dir: string; db: DuckDBConnection }> {
  const dir = mkdtempSync(join(tmpdir(), `contrail-${name}-`));
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  t.after(() => {
    db.closeSync();
    rmSync(dir, { recursive: true, force: true });
  });
  await db.run(
    `CREATE TABLE legs (hex VARCHAR, callsign VARCHAR, reg VARCHAR, type VARCHAR, first_ts BIGINT, last_ts BIGINT, dep_ts BIGINT, arr_ts BIGINT, org VARCHAR, dst VARCHAR, day DATE)`,
  );
  return { dir, db };
}

/**
 * Build routes and airframes into `<dir>/<name>` with `base` (previous: the version a night reuses,
 * given with `extra`'s reuse and logDays), batches of `maxLegs`, the airframes step's reuse rules
 * `rules` (default its declaration's); returns the writer.
 */
export async function buildRoutesAirframes(
  dir: string,
  base: Omit<BuildContext, 'writer' | 'counts'>,
  name: string,
  previous: ArtifactWriter | null,
  extra: Partial<BuildContext>,
  maxLegs: number,
  rules: { documents: Reuse; increment: Reuse } = AIRFRAMES_STEP.reuse,
): Promise<ArtifactWriter> {
  const prev = previous && { dir: previous.dir, objects: previous.objects };
  const writer = new ArtifactWriter(join(dir, name), prev);
  const ctx: BuildContext = { ...base, writer, counts: {}, ...extra };
  const routes = await makeRoutesBuilder({ reviewFile: join(dir, 'none.csv'), policy: 'auto' })(ctx, await loadRefAirports(base.db, base.ref));
  await buildAirframes(ctx, routes.legs, base.db, maxLegs, rules);
  return writer;
}
