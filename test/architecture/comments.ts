// what the source tree's comments point a reader at. every "spec N", "spec N.N", "spec section N" or
// "spec N rule K" (in a comment or a string) must name a heading or a numbered rule of
// docs/spec/spec.md, the copy of the contract in the repository; no comment may send a reader to the
// README (it is for users now: what it held is in docs/) or to a path git ignores (var/, .bench/:
// nobody else has those files). comments and strings are read with TypeScript's own scanner, so a
// regular expression or a string that looks like a comment is not taken for one.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import ts from 'typescript';

export interface Snippet {
  file: string;
  /** line of the snippet's first character, 1-based */
  line: number;
  kind: 'comment' | 'string';
  /** comment markers taken off; consecutive line comments joined, one line each */
  text: string;
}

const lineStarts = (source: string) => {
  const starts = [0];
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
};
/** the 1-based line of a position, by binary search over the line starts */
const lineAt = (starts: readonly number[], pos: number) => {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
};
const lineOf = (source: string, pos: number) => lineAt(lineStarts(source), pos);

/** a comment's text without its markers (`//`, `/*`, `*`), line for line */
const unmark = (raw: string) =>
  raw
    .split('\n')
    .map((l) =>
      l
        .replace(/^\s*(?:\/\/+|\/\*+|\*+\/|\*)?\s?/, '')
        .replace(/\*+\/\s*$/, '')
        .trimEnd(),
    )
    .join('\n');

// after these a `/` divides; anywhere else it starts a regular expression (the scanner cannot tell alone)
const DIVIDES_AFTER = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.PrivateIdentifier,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ts.SyntaxKind.ExclamationToken,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.TrueKeyword,
  ts.SyntaxKind.FalseKeyword,
  ts.SyntaxKind.NullKeyword,
]);

// TypeScript's scanner (its lexer, not its parser: the whole tree in a fraction of the time) gives comments
// and strings exactly; a `/` is a regular expression unless it follows what can end an operand, and a `}`
// closes a template's `${` when the braces opened since it are closed
function tsSnippets(file: string, source: string): Snippet[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
  const comments: { pos: number; end: number }[] = [];
  const strings: Snippet[] = [];
  const templates: number[] = [];
  const lines = lineStarts(source);
  let depth = 0;
  let prev = ts.SyntaxKind.Unknown;
  for (let t = scanner.scan(); t !== ts.SyntaxKind.EndOfFileToken; t = scanner.scan()) {
    if (t === ts.SyntaxKind.SingleLineCommentTrivia || t === ts.SyntaxKind.MultiLineCommentTrivia) {
      comments.push({ pos: scanner.getTokenStart(), end: scanner.getTokenEnd() });
      continue;
    }
    if (t === ts.SyntaxKind.WhitespaceTrivia || t === ts.SyntaxKind.NewLineTrivia) continue;
    if ((t === ts.SyntaxKind.SlashToken || t === ts.SyntaxKind.SlashEqualsToken) && !DIVIDES_AFTER.has(prev)) t = scanner.reScanSlashToken();
    if (t === ts.SyntaxKind.OpenBraceToken) depth++;
    if (t === ts.SyntaxKind.CloseBraceToken) {
      if (templates.length && templates[templates.length - 1] === depth) {
        templates.pop();
        t = scanner.reScanTemplateToken(false);
      } else depth--;
    }
    if (t === ts.SyntaxKind.TemplateHead || t === ts.SyntaxKind.TemplateMiddle) templates.push(depth);
    if (
      t === ts.SyntaxKind.StringLiteral ||
      t === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      t === ts.SyntaxKind.TemplateHead ||
      t === ts.SyntaxKind.TemplateMiddle ||
      t === ts.SyntaxKind.TemplateTail
    ) {
      strings.push({ file, line: lineAt(lines, scanner.getTokenStart()), kind: 'string', text: scanner.getTokenValue() });
    }
    prev = t;
  }
  // comments on lines of their own, one after the other, are one comment: a phrase may run on to the next line
  const blocks: { pos: number; end: number; ownLine: boolean }[] = [];
  for (const r of comments) {
    const last = blocks[blocks.length - 1];
    const ownLine = source.slice(source.lastIndexOf('\n', r.pos - 1) + 1, r.pos).trim() === '';
    const between = last ? source.slice(last.end, r.pos) : '';
    if (last && last.ownLine && ownLine && between.trim() === '' && (between.match(/\n/g) ?? []).length <= 1) last.end = r.end;
    else blocks.push({ pos: r.pos, end: r.end, ownLine });
  }
  const out: Snippet[] = blocks.map((b) => ({ file, line: lineAt(lines, b.pos), kind: 'comment' as const, text: unmark(source.slice(b.pos, b.end)) }));
  return [...out, ...strings];
}

/** `#` comments of shell, nginx, YAML and systemd files; `/* *\/` of CSS */
function otherSnippets(file: string, source: string): Snippet[] {
  if (extname(file) === '.css') {
    return [...source.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => ({ file, line: lineOf(source, m.index!), kind: 'comment' as const, text: unmark(m[0]) }));
  }
  const out: Snippet[] = [];
  source.split('\n').forEach((l, i) => {
    const m = /(?:^|\s)#(?!!)(.*)$/.exec(l);
    if (m) out.push({ file, line: i + 1, kind: 'comment', text: m[1]!.trim() });
  });
  return out;
}

export function snippetsOf(file: string, source: string): Snippet[] {
  return file.endsWith('.ts') ? tsSnippets(file, source) : otherSnippets(file, source);
}

/** the headings (`1`, `2.1`, ...) and numbered rules (section -> rule numbers) of the spec's text */
export function specTargets(spec: string): { headings: Set<string>; rules: Map<string, Set<string>> } {
  const headings = new Set<string>();
  const rules = new Map<string, Set<string>>();
  let section: string | null = null;
  for (const l of spec.split('\n')) {
    const top = /^##\s+(\d+)\.\s/.exec(l);
    const sub = /^###\s+(\d+\.\d+)\s/.exec(l);
    if (top) {
      section = top[1]!;
      headings.add(section);
      rules.set(section, new Set());
    } else if (sub) headings.add(sub[1]!);
    else if (section) {
      const rule = /^\s*(\d+)\.\s/.exec(l);
      if (rule) rules.get(section)!.add(rule[1]!);
    }
  }
  return { headings, rules };
}

// "spec 2.4", "spec's section 7", "spec sections 7", "spec 1 rule 5", with what follows in the same
// breath: "spec 2.4 and 8", "spec 1 rule 4, 2.8" (a bare ", 300" after a citation is a number, not one)
const CITE = /\bspec(?:'s)?\s+(?:sections?\s+)?(\d+(?:\.\d+)*)(?:,?\s+rule\s+(\d+))?((?:\s*,\s*\d+\.\d+|\s+and\s+\d+(?:\.\d+)*)*)/gi;
const RULE_ALONE = /\bspec\s+rule\s+\d+/gi;

/** a problem found in a snippet: where in its text, and what */
export interface Found {
  at: number;
  what: string;
}

/** what is wrong with the spec citations of a text */
export function citationProblems(text: string, targets: ReturnType<typeof specTargets>): Found[] {
  const out: Found[] = [];
  for (const m of text.matchAll(RULE_ALONE)) out.push({ at: m.index!, what: `"${m[0]}" names no section: write "spec N rule K" (docs/spec/spec.md)` });
  for (const m of text.matchAll(CITE)) {
    const [all, first, rule, more] = m as unknown as [string, string, string | undefined, string];
    const at = m.index!;
    if (!targets.headings.has(first)) out.push({ at, what: `"${all.trim()}": docs/spec/spec.md has no heading ${first}` });
    else if (rule && !targets.rules.get(first)?.has(rule)) out.push({ at, what: `"${all.trim()}": section ${first} of docs/spec/spec.md has no rule ${rule}` });
    for (const n of more.match(/\d+(?:\.\d+)*/g) ?? []) {
      if (!targets.headings.has(n)) out.push({ at, what: `"${all.trim()}": docs/spec/spec.md has no heading ${n}` });
    }
  }
  return out;
}

// the README, bare: not a path's last segment (deploy/README.md), not readsb's README-json.md
const README = /(?<![\w/.-])README(?![-\w])(\.md)?/g;
// a comment about the researchers' bundle, whose README sits beside its LICENSE and CREDITS
const BUNDLE_TEXTS = /\b(?:LICENSE|CREDITS|SHA256SUMS)\b/;
// in a string, only a README section or anchor is a pointer: 'README' alone is the bundle's file name
const README_SECTION = /\bREADME(?:\.md)?(?:#|\s*[,:]?\s+["\u201c])/;

/** what is wrong with a snippet's pointers at the README; `localReadme`: the snippet's folder holds a README.md */
export function readmeProblems(s: Snippet, localReadme: boolean): Found[] {
  if (s.kind === 'string') {
    const m = README_SECTION.exec(s.text);
    return m ? [{ at: m.index, what: 'points at a README section, which is in docs/ now: name the docs/ file that holds it' }] : [];
  }
  const out: Found[] = [];
  for (const m of s.text.matchAll(README)) {
    if (m[1] && localReadme) continue;
    if (BUNDLE_TEXTS.test(s.text)) continue;
    if (/(?:researchers'|bundle's)\s+$/.test(s.text.slice(0, m.index))) continue;
    out.push({ at: m.index!, what: 'points at the README, which is for users now: name the docs/ file that holds the text' });
  }
  return out;
}

// a command's output may be said to go into an ignored folder; a file there is never a source to cite
const WRITES_THERE = /(?:\binto|\bto|\bunder|--[a-z][\w-]*[ =]|\bdefault:?)\s*[`'"([]?$/i;

/** what is wrong with a comment's pointers at ignored paths (`roots`: `var`, `.bench`, ...) */
export function ignoredPathProblems(s: Snippet, roots: readonly string[]): Found[] {
  if (s.kind !== 'comment' || !roots.length) return [];
  const esc = roots.map((r) => r.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const re = new RegExp(`(?<![\\w./-])(?:${esc})/[\\w.-]+`, 'g');
  const out: Found[] = [];
  for (const m of s.text.matchAll(re)) {
    const before = s.text.slice(0, m.index).split('\n').pop()!;
    if (WRITES_THERE.test(before)) continue;
    out.push({ at: m.index!, what: `points at ${m[0]}, which git ignores (nobody else has it): say what was measured, or point at docs/` });
  }
  return out;
}

/** the folders of .gitignore (but node_modules, which npm install makes from the lock file) */
export function ignoredRoots(gitignore: string): string[] {
  return gitignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && l.endsWith('/'))
    .map((l) => l.replace(/^\//, '').replace(/\/$/, ''))
    .filter((l) => l !== 'node_modules');
}

export const SOURCE_FOLDERS = ['lib', 'schemas', 'artifacts', 'build', 'server', 'sim', 'web', 'bench', 'test', 'deploy'] as const;
const READ = /\.(?:ts|sh|conf|ya?ml|service|timer|css)$/;

/** the files a check reads: source and deploy files of the folders, test fixtures left out (third-party data) */
export function sourceTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      const rel = relative(root, p).split(sep).join('/');
      if (e.name === 'node_modules' || rel === 'test/fixtures') continue;
      if (e.isDirectory()) walk(p);
      else if (READ.test(e.name)) files.set(rel, readFileSync(p, 'utf8'));
    }
  };
  for (const f of SOURCE_FOLDERS) if (existsSync(join(root, f))) walk(join(root, f));
  return files;
}

// the checker's own words about what it checks, and the wrong citations and pointers its test plants, are not pointers
const SELF = new Set(['test/architecture/comments.ts', 'test/architecture/comments.slow.test.ts']);

/** every problem of the files, as `file:line: what` */
export function pointerProblems(files: ReadonlyMap<string, string>, spec: string, roots: readonly string[], hasReadme: (dir: string) => boolean): string[] {
  const targets = specTargets(spec);
  const out: string[] = [];
  for (const [file, source] of files) {
    const local = hasReadme(dirname(file));
    if (SELF.has(file)) continue;
    for (const s of snippetsOf(file, source)) {
      for (const p of [...citationProblems(s.text, targets), ...readmeProblems(s, local), ...ignoredPathProblems(s, roots)]) {
        out.push(`${file}:${s.line + (s.text.slice(0, p.at).match(/\n/g) ?? []).length}: ${p.what}`);
      }
    }
  }
  return out;
}

export function pointerProblemsIn(root: string): string[] {
  const spec = readFileSync(join(root, 'docs/spec/spec.md'), 'utf8');
  const roots = ignoredRoots(readFileSync(join(root, '.gitignore'), 'utf8'));
  return pointerProblems(sourceTree(root), spec, roots, (dir) => existsSync(join(root, dir, 'README.md')));
}
