// text from outside (a feed's bytes, a parser's message quoting them) made safe for a log line:
// control and other non-printing characters become \xNN / \uNNNN escapes, so a bad feed can
// neither forge log lines (\n) nor drive a terminal (ESC sequences).

/** escapes C0/C1 controls, DEL, and Unicode line/paragraph separators; printable text is unchanged */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
