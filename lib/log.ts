// the log of a command: JSON lines (time, level, msg) written by pino, or one readable line per event
// when stdout is a terminal. components never see pino: they get a Log, a function of one line and,
// where they know it, its level. pino is created here, at the composition root (server/main.ts).
import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { pino } from 'pino';
import type { Specs } from './cli.ts';
import { prettyLine } from './log-pretty.ts';

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

/** a component's log: one line of text, and its level where the component knows it (info otherwise) */
export type Log = (line: string, level?: LogLevel) => void;

export interface LogConfig {
  logFormat: string;
  logLevel: string;
}

const oneOf = (values: readonly string[]) => (v: string) => (values.includes(v) ? undefined : `must be one of ${values.join(', ')}`);

export const logOptions: Specs<LogConfig> = {
  // a terminal gets what a person reads, a pipe (journald, docker, a collector) what a machine reads
  logFormat: {
    flag: 'log-format',
    env: 'CONTRAIL_LOG_FORMAT',
    kind: 'string',
    default: 'auto',
    check: oneOf(LOG_FORMATS),
    help: 'log lines on stdout: json (one object per line: time, level, msg), pretty (one readable line per event), auto (pretty when stdout is a terminal, else json)',
  },
  logLevel: {
    flag: 'log-level',
    env: 'CONTRAIL_LOG_LEVEL',
    kind: 'string',
    default: 'info',
    check: oneOf(LOG_LEVELS),
    help: `least level logged: ${LOG_LEVELS.join(', ')} (warn: only what needs an operator)`,
  },
};

/** where the lines go when not to a file descriptor: a test's sink */
export interface LogSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface Logger {
  log: Log;
  /** one event with fields beside its message (the access log, the listening line): written whatever --log-level says */
  event(msg: string, fields: object): void;
}

/**
 * `out`: a file descriptor (stdout by default) or a sink. JSON lines to a descriptor go through pino's
 * own writer: buffered while a write is under way, flushed at exit, and silent after EPIPE (a log
 * reader that went away does not take the server down with it).
 */
export function createLogger(c: LogConfig, out: LogSink | number = 1, clock: () => number = Date.now): Logger {
  const format = c.logFormat as LogFormat;
  const tty = typeof out === 'number' ? isatty(out) : out.isTTY === true;
  const pretty = format === 'pretty' || (format === 'auto' && tty);
  // a terminal is written at once: a person is watching it. a log line never throws into its caller
  // (a request handler): a terminal gone away loses the line
  const write = typeof out === 'number' ? (text: string) => void tryWrite(out, text) : (text: string) => out.write(text);
  const p = pino(
    {
      level: c.logLevel,
      // no pid or hostname: the collector that reads stdout knows the process; lines stay small
      base: null,
      timestamp: () => `,"time":"${new Date(clock()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
    },
    // pino hands a destination one whole line per event
    pretty ? { write: (line: string) => write(`${prettyLine(line)}\n`) } : typeof out === 'number' ? pino.destination({ dest: out, sync: false }) : out,
  );
  // the access log is asked for by its own flag, and the listening line tells that the server is up:
  // --log-level silences neither
  const events = p.child({}, { level: 'info' });
  return {
    log: (line, level = 'info') => p[level](line),
    event: (msg, fields) => events.info(fields, msg),
  };
}

function tryWrite(fd: number, text: string): void {
  try {
    writeSync(fd, text);
  } catch {
    // EPIPE, EIO: nobody reads the terminal any more
  }
}
