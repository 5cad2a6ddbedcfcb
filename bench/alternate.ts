// two or more ways of making one temp table, timed in rounds in one process: the order alternates
// between rounds (the first way runs first in odd rounds, last in even ones), and after the first
// round the tables are checked to hold the same rows (EXCEPT ALL both ways), so a faster way that
// gives other rows fails the bench instead of winning it.
import type { DuckDBConnection } from '@duckdb/node-api';
import { allRows } from '../build/steps/duck.ts';

/** `ways`: name -> a function that fills the table `into` */
export async function alternate(db: DuckDBConnection, ways: Record<string, (into: string) => Promise<unknown>>, runs: number): Promise<void> {
  const tables = Object.fromEntries(Object.keys(ways).map((name, i) => [name, `alternate_${i}`]));
  for (let round = 0; round < runs; round++) {
    const names = Object.keys(ways);
    if (round % 2 === 1) names.reverse();
    const line: string[] = [];
    for (const name of names) {
      const t0 = performance.now();
      await ways[name]!(tables[name]!);
      line.push(`${name} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    if (round === 0) line.push(await sameRows(db, Object.values(tables)));
    console.log(`round ${round + 1}: ${line.join(', ')}`);
  }
}

async function sameRows(db: DuckDBConnection, tables: string[]): Promise<string> {
  const [first, ...rest] = tables;
  for (const other of rest) {
    const [c] = await allRows<{ a: number; b: number; diff: number }>(
      db,
      `SELECT (SELECT count(*) FROM ${first}) AS a, (SELECT count(*) FROM ${other}) AS b,
      (SELECT count(*) FROM (SELECT * FROM ${first} EXCEPT ALL SELECT * FROM ${other})) + (SELECT count(*) FROM (SELECT * FROM ${other} EXCEPT ALL SELECT * FROM ${first})) AS diff`,
    );
    if (c!.a !== c!.b || c!.diff !== 0) throw new Error(`the ways differ: ${JSON.stringify(c)}`);
  }
  const [n] = await allRows<{ n: number }>(db, `SELECT count(*) AS n FROM ${first}`);
  return `(the same ${n!.n} rows)`;
}
