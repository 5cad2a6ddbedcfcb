// every bench answers --help (or -h) with its own opening comment, which says what it measures and
// how to run it, and exits before measuring anything. imported first by each bench, for that alone.
import { readFileSync } from 'node:fs';

/** the `//` lines a source file opens with, without the slashes */
export function openingComment(source: string): string {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n');
}

const script = process.argv[1];
if (script && (process.argv.includes('--help') || process.argv.includes('-h'))) {
  const text = openingComment(readFileSync(script, 'utf8'));
  process.stdout.write(`${text || `${script}: no description`}\n`);
  process.exit(0);
}
