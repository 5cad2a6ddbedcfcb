// one typed configuration object per command, resolved once at start-up from
// defaults < environment variables < flags, with --help generated from the same table; and the
// one runner every command uses (runCommand): --help, stray arguments, exit codes, failures.
import { pathToFileURL } from 'node:url';

type OptionKind = 'string' | 'int' | 'number' | 'bool' | 'list';

export interface OptionSpec<T> {
  /** flag name without dashes, e.g. `port` for --port */
  flag: string;
  /** environment variable, e.g. CONTRAIL_PORT */
  env: string;
  kind: OptionKind;
  default: T;
  /** one line for --help */
  help: string;
  /** the longer text docs/operating.md shows instead of `help` (npm run docs); --help stays one line */
  doc?: string;
  /** what docs/operating.md shows as the default where the value depends on the machine (a core count) */
  docDefault?: string;
  /** extra validation; return an error message or undefined */
  check?: (value: T) => string | undefined;
}

export type Specs<C> = { [K in keyof C]: OptionSpec<C[K]> };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function convert(kind: OptionKind, raw: string, where: string): unknown {
  switch (kind) {
    case 'string':
      return raw;
    case 'int': {
      if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${where}: expected an integer, got ${JSON.stringify(raw)}`);
      return Number.parseInt(raw, 10);
    }
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new ConfigError(`${where}: expected a number, got ${JSON.stringify(raw)}`);
      return n;
    }
    case 'bool': {
      const v = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on', ''].includes(v)) return true;
      if (['0', 'false', 'no', 'off'].includes(v)) return false;
      throw new ConfigError(`${where}: expected true or false, got ${JSON.stringify(raw)}`);
    }
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
  }
}

export interface Parsed<C> {
  config: C;
  help: boolean;
  /** positional arguments, in order */
  rest: string[];
}

/** a check for a string option that is an http(s) URL or empty (empty: the command derives one) */
export function httpUrlOrEmpty(v: string): string | undefined {
  return v === '' || /^https?:\/\/[^\s/]+/.test(v) ? undefined : 'must be an http(s) URL or empty';
}

/** Resolve a config from argv and env. Throws ConfigError with a message that says the fix. */
export function parseConfig<C>(specs: Specs<C>, argv: string[], env: NodeJS.ProcessEnv = process.env): Parsed<C> {
  const config = {} as C;
  const byFlag = new Map<string, keyof C>();
  for (const key of Object.keys(specs) as (keyof C)[]) {
    const spec = specs[key];
    byFlag.set(spec.flag, key);
    const raw = env[spec.env];
    config[key] = raw === undefined ? spec.default : (convert(spec.kind, raw, `environment ${spec.env}`) as C[keyof C]);
  }
  let help = false;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      rest.push(arg);
      continue;
    }
    let name = arg.slice(2);
    let value: string | undefined;
    const eq = name.indexOf('=');
    if (eq >= 0) {
      value = name.slice(eq + 1);
      name = name.slice(0, eq);
    }
    let negated = false;
    let key = byFlag.get(name);
    if (key === undefined && name.startsWith('no-') && specs[byFlag.get(name.slice(3)) as keyof C]?.kind === 'bool') {
      key = byFlag.get(name.slice(3));
      negated = true;
    }
    if (key === undefined) throw new ConfigError(`unknown flag --${name} (see --help)`);
    const spec = specs[key];
    if (spec.kind === 'bool' && value === undefined) {
      config[key] = !negated as C[keyof C];
      continue;
    }
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new ConfigError(`flag --${name} needs a value (see --help)`);
    }
    config[key] = convert(spec.kind, value, `flag --${name}`) as C[keyof C];
  }
  // --help answers even when a required setting is missing
  if (help) return { config, help, rest };
  for (const key of Object.keys(specs) as (keyof C)[]) {
    const problem = specs[key].check?.(config[key]);
    if (problem) throw new ConfigError(`--${specs[key].flag}: ${problem}`);
  }
  return { config, help, rest };
}

/** The --help text: usage, then one line per option with its env variable and default. */
function helpText<C>(usage: string, specs: Specs<C>): string {
  const lines = [usage, '', 'Options (flag, environment variable, default):'];
  for (const key of Object.keys(specs) as (keyof C)[]) {
    const s = specs[key];
    const arg = s.kind === 'bool' ? '' : s.kind === 'list' ? ' <a,b,...>' : ` <${s.kind}>`;
    const dflt = Array.isArray(s.default) ? s.default.join(',') : String(s.default);
    lines.push(`  --${s.flag}${arg}`, `      ${s.help}`, `      env ${s.env}; default: ${dflt === '' ? '(none)' : dflt}`);
  }
  lines.push('  --help', '      show this help and exit');
  return lines.join('\n');
}

/** one command-line program: its options and what it does once they are resolved */
export interface Command<C> {
  /** what its messages start with, e.g. `nightly` */
  name: string;
  /** the first lines of --help */
  usage: string;
  specs: Specs<C>;
  /** checks across options or of required ones, after --help; throws ConfigError */
  check?: (c: C) => void;
  /** the work; resolves to the exit code, or RUNNING for a process that stays up (a server, a live loop) */
  run: (c: C) => Promise<number | typeof RUNNING>;
  /** a last line for a failure, e.g. what state it left behind; null for none */
  onFailure?: (e: unknown) => string | null;
}

export const RUNNING = 'running';

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
}
const stdio: Io = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) };

/**
 * Resolve the options (defaults, environment, flags), answer --help, refuse stray arguments, check,
 * run. Exit codes: 0 done, 2 a configuration problem (the message names the setting and the fix),
 * 1 a failure (with the stack: it is what an operator reads in cron mail).
 */
export async function runCommand<C>(cmd: Command<C>, argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = stdio): Promise<number | typeof RUNNING> {
  let config: C;
  try {
    const p = parseConfig(cmd.specs, argv, env);
    if (p.help) {
      io.out(helpText(cmd.usage, cmd.specs));
      return 0;
    }
    if (p.rest.length) throw new ConfigError(`unexpected argument ${JSON.stringify(p.rest[0])} (see --help)`);
    cmd.check?.(p.config);
    config = p.config;
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(`${cmd.name}: ${e.message}`);
    return 2;
  }
  try {
    return await cmd.run(config);
  } catch (e) {
    if (e instanceof ConfigError) {
      io.err(`${cmd.name}: ${e.message}`);
      return 2;
    }
    io.err(`${cmd.name}: failed: ${(e as Error)?.stack ?? e}`);
    const last = cmd.onFailure?.(e);
    if (last) io.err(`${cmd.name}: ${last}`);
    return 1;
  }
}

/** A program of subcommands (`sim live ...`): an unknown or missing one prints the usage and exits 2. */
export async function runSubcommand(
  name: string,
  usage: string,
  commands: Record<string, Command<any>>,
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = stdio,
): Promise<number | typeof RUNNING> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h') {
    io.out(usage);
    return 0;
  }
  const cmd = sub !== undefined && Object.hasOwn(commands, sub) ? commands[sub] : undefined;
  if (!cmd) {
    io.err(`${name}: ${sub === undefined ? 'a command is required' : `unknown command ${JSON.stringify(sub)}`}\n${usage}`);
    return 2;
  }
  return runCommand(cmd, rest, env, io);
}

/** true when the module with this import.meta.url is the script node was started with */
const isEntry = (metaUrl: string) => !!process.argv[1] && metaUrl === pathToFileURL(process.argv[1]).href;

/** The entry-point idiom: when `metaUrl` is the started script, run and exit with the code (unless it keeps running). */
export function runAsMain(metaUrl: string, start: () => Promise<number | typeof RUNNING>): void {
  if (!isEntry(metaUrl)) return;
  start().then((code) => {
    if (code !== RUNNING) process.exit(code);
  });
}
