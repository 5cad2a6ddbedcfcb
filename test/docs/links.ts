// relative links between the markdown files of the repository (the one at the top, docs/, those beside
// the code): each must name a file that exists and, with a #fragment, an anchor that file has.
// anchors are GitHub's: a heading's slug (lower-cased, punctuation dropped, spaces to hyphens, -1,
// -2 for repeats) or an explicit <a id="..."> / <a name="...">.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** GitHub's anchor of a heading's text (inline code, links and emphasis reduced to their text first) */
export function slug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** the lines of a markdown text that are not inside fenced code blocks, with their line numbers */
function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((l, i) => {
    const f = /^\s*(```|~~~)/.exec(l);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (f[1] === fence) fence = null;
      return;
    }
    if (fence === null) out.push({ line: i + 1, text: l });
  });
  return out;
}

/** every anchor a markdown text defines */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: l } of proseLines(text)) {
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n ? `${base}-${n}` : base);
    }
    for (const m of l.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** the relative links of a markdown text (inline code, fenced code and absolute URLs left out); a link's text may span lines */
export function linksOf(text: string): Link[] {
  const prose = new Set(proseLines(text).map((p) => p.line));
  const lines = text.split('\n').map((l, i) => (prose.has(i + 1) ? l.replace(/`[^`\n]*`/g, (m) => ' '.repeat(m.length)) : ''));
  const flat = lines.join('\n');
  const out: Link[] = [];
  for (const m of flat.matchAll(/!?\[([^\]]|\][^(])*?\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[2]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
    const line = flat.slice(0, m.index! + m[0].length).split('\n').length;
    out.push({ line, target });
  }
  return out;
}

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  why: string;
}

/** `files`: path relative to the root -> text; `exists` says whether a path relative to the root is there */
export function brokenLinks(files: ReadonlyMap<string, string>, exists: (path: string) => boolean, readOther: (path: string) => string | null): BrokenLink[] {
  const anchorCache = new Map<string, Set<string> | null>();
  const anchors = (path: string) => {
    if (!anchorCache.has(path)) {
      const text = files.get(path) ?? readOther(path);
      anchorCache.set(path, text === null ? null : anchorsOf(text));
    }
    return anchorCache.get(path)!;
  };
  const out: BrokenLink[] = [];
  for (const [file, text] of files) {
    for (const { line, target } of linksOf(text)) {
      const [pathPart, fragment] = target.split('#', 2) as [string, string | undefined];
      const path = pathPart ? join(dirname(file), decodeURI(pathPart)).split(sep).join('/') : file;
      if (path.startsWith('..')) {
        out.push({ file, line, target, why: 'points outside the repository' });
        continue;
      }
      if (!exists(path.replace(/\/$/, '') || '.')) {
        out.push({ file, line, target, why: `${path} does not exist` });
        continue;
      }
      if (fragment === undefined || !path.endsWith('.md')) continue;
      const a = anchors(path);
      if (a && !a.has(fragment)) out.push({ file, line, target, why: `${path} has no anchor #${fragment}` });
    }
  }
  return out;
}

const SKIP = new Set(['node_modules', '.git', 'var', '.bench']);

/** every markdown file of the repository but third-party texts (test fixtures, the shipped data) */
export function markdownFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const rel = relative(root, p).split(sep).join('/');
      if (SKIP.has(e.name) || rel === 'test/fixtures' || rel === 'data') continue;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.md')) files.set(rel, readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return files;
}

export function brokenLinksIn(root: string): BrokenLink[] {
  const exists = (path: string) => existsSync(join(root, path));
  const readOther = (path: string) => (existsSync(join(root, path)) && statSync(join(root, path)).isFile() ? readFileSync(join(root, path), 'utf8') : null);
  return brokenLinks(markdownFiles(root), exists, readOther);
}
