// generated blocks inside hand-written markdown: `<!-- generated: NAME -->` ... `<!-- end generated -->`.
// the text between the markers belongs to the generator named NAME; everything outside is kept as written.

const BLOCK = /<!-- generated: ([^>]*?) -->\n([\s\S]*?)<!-- end generated -->/g;
const OPEN = /<!-- generated: ([^>]*?) -->/g;

export class BlockError extends Error {
  override name = 'BlockError';
}

/** the block names of a text, in order; throws on a block without its end marker */
export function blockNames(text: string): string[] {
  const opened = [...text.matchAll(OPEN)].map((m) => m[1]!);
  const closed = [...text.matchAll(BLOCK)].map((m) => m[1]!);
  if (opened.length !== closed.length) {
    const lost = opened.find((n, i) => closed[i] !== n) ?? opened[opened.length - 1];
    throw new BlockError(`generated block "${lost}" has no <!-- end generated --> after it`);
  }
  return closed;
}

/** the text with every block's body made again by its generator; throws on a name no generator has */
export function fillBlocks(text: string, generators: ReadonlyMap<string, () => string>): string {
  blockNames(text);
  return text.replace(BLOCK, (_all, name: string) => {
    const make = generators.get(name);
    if (!make) throw new BlockError(`no generator named "${name}" (known: ${[...generators.keys()].join(', ')})`);
    // blank lines inside the markers, so a table in the body is a block of its own in any renderer
    const body = make().replace(/^\n+/, '').replace(/\n*$/, '\n');
    return `<!-- generated: ${name} -->\n\n${body}\n<!-- end generated -->`;
  });
}

/** text from the code shown as markdown: a `<name>` outside backticks is a placeholder, not an HTML tag */
export const prose = (s: string) =>
  s
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;')))
    .join('');

/** a markdown table cell: one line, pipes escaped, placeholders kept */
export const cell = (s: string) => prose(s.replace(/\r?\n/g, ' ')).replace(/\|/g, '\\|');

/** a markdown table from a header and rows of cells */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
