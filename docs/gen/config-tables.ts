// the configuration tables of docs/operating.md, one per command, made from the commands' own option
// specs (lib/cli.ts): the flag, its environment variable, its default and what it does.
import { relative, sep } from 'node:path';
import type { OptionSpec, Specs } from '../../lib/cli.ts';
import { table } from './blocks.ts';

/** a spec's default as the docs show it: paths inside the installation relative to it, never this machine's */
export function shownDefault(spec: OptionSpec<unknown>, root: string): string {
  if (spec.docDefault !== undefined) return spec.docDefault;
  const v = spec.default;
  if (spec.kind === 'bool') return v ? 'on' : 'off';
  if (Array.isArray(v)) return v.length ? `\`${v.join(',')}\`` : '(none)';
  if (v === '') return '(none)';
  if (typeof v === 'string' && (v === root || v.startsWith(root + sep))) return `\`${relative(root, v).split(sep).join('/') || '.'}\``;
  return `\`${String(v)}\``;
}

/** the flag as typed: `--[no-]x` for a switch, which lib/cli.ts accepts both ways */
const flagOf = (spec: OptionSpec<unknown>) => (spec.kind === 'bool' ? `\`--[no-]${spec.flag}\`` : `\`--${spec.flag}\``);

/** one command's table, in the order its specs are declared */
export function configTable(specs: Specs<Record<string, unknown>>, root: string): string {
  const rows = Object.values(specs).map((s) => [flagOf(s), `\`${s.env}\``, shownDefault(s, root), s.doc ?? s.help]);
  return table(['flag', 'environment', 'default', 'meaning'], rows);
}
