// one typed configuration object per command, resolved once at start-up from
// defaults < environment variables < flags, with --help generated from the same table.

type OptionKind = 'string' | 'int' | 'number' | 'bool' | 'list';

interface OptionSpec<T> {
  /** flag name without dashes, e.g. `port` for --port */
  flag: string;
  /** environment variable, e.g. CONTRAIL_PORT */
  env: string;
  kind: OptionKind;
  default: T;
  /** one line for --help */
  help: string;
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
  for (const key of Object.keys(specs) as (keyof C)[]) {
    const problem = specs[key].check?.(config[key]);
    if (problem) throw new ConfigError(`--${specs[key].flag}: ${problem}`);
  }
  return { config, help, rest };
}

/** The --help text: usage, then one line per option with its env variable and default. */
export function helpText<C>(usage: string, specs: Specs<C>): string {
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
