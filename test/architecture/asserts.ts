// every assert.ok (and assert used as a function) in the tests carries its own message. without one,
// Node builds the message from the failing line of the source; under tsx the reported line is the
// transformed code's, which can lie past the end of the .ts file, and Node's reader then loops at
// the end of the file for ever: a failing test near the end of a file spun at full CPU instead of
// failing (test/server/ingest/source.slow.test.ts, 2026-11-26), and a red CI run would hang to its limit.
import ts from 'typescript';

/** `line:column` of each assert.ok(x) or assert(x) called with no message in a source text */
export function messageLessAsserts(fileName: string, text: string): string[] {
  const src = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && node.arguments.length < 2) {
      const e = node.expression;
      const ok =
        (ts.isPropertyAccessExpression(e) && e.name.text === 'ok' && e.expression.getText(src) === 'assert') || (ts.isIdentifier(e) && e.text === 'assert');
      if (ok) {
        const { line, character } = src.getLineAndCharacterOfPosition(node.getStart(src));
        out.push(`${line + 1}:${character + 1}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}
