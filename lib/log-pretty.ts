// one pino JSON line as a person reads it in a terminal: `14:05:09.123Z WARN  feed: ... key=value`.
// (pino-pretty would do it with a dozen packages; this is the little the server's lines need.)
import { escapeControl } from './log-text.ts';

const SIMPLE = /^[\w.:/@+-]*$/;

/** a field's value: bare when it is one plain token, else JSON (quoted, escaped) */
const valueText = (v: unknown): string =>
  typeof v === 'number' || typeof v === 'boolean' || (typeof v === 'string' && v !== '' && SIMPLE.test(v)) ? String(v) : (JSON.stringify(v) ?? 'undefined');

export function prettyLine(json: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return escapeControl(json.trimEnd());
  }
  const { time, level, msg, ...rest } = o;
  const clock = typeof time === 'string' ? time.slice(11) : String(time ?? '');
  const fields = Object.entries(rest).map(([k, v]) => `${k}=${valueText(v)}`);
  // a message's own line breaks (a stack) stay: a terminal shows them as they were meant
  const text = typeof msg === 'string' ? msg.replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (c) => escapeControl(c)) : '';
  return [
    clock,
    String(level ?? '')
      .toUpperCase()
      .padEnd(5),
    text,
    ...fields,
  ]
    .filter((s) => s !== '')
    .join(' ');
}
