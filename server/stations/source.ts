// adapter: polls the feeder list (a file or an http(s) URL), feeds the roster, saves it.
// logs say what kind of problem happened, once per kind until it clears; they never carry the
// list's location, an error's message (both can hold an address), a UUID or an IP: only codes,
// counts and public ids.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StationKeys } from './ids.ts';
import { parseFeederDoc, type FeederList, type ParseResult } from './parse.ts';
import { isReadsbClients, parseReadsbClients } from './readsb.ts';
import type { Roster } from './roster.ts';
import type { StationStore } from './roster-file.ts';
import type { Log } from '../../lib/log.ts';

/** contrail: the feeder list of README.md; readsb: readsb's clients.json with its receivers.json beside it; auto: by content */
export type StationsFormat = 'auto' | 'contrail' | 'readsb';
export const STATIONS_FORMATS: readonly StationsFormat[] = ['auto', 'contrail', 'readsb'];

export interface StationSourceOptions {
  /** file path or http(s) URL of the feeder list */
  location: string;
  /** default auto */
  format?: StationsFormat;
  roster: Roster;
  keys: StationKeys;
  /** where the roster is saved; null keeps it in memory only */
  store: StationStore | null;
  /** unix ms */
  clock: () => number;
  log: Log;
  /** between polls; default 10 s */
  intervalMs?: number;
  /** routine saves (last_seen moving on) at most this often; new or dropped stations save at once. default 60 s */
  saveEveryMs?: number;
  /** per HTTP request; default 5 s */
  timeoutMs?: number;
  /** a bigger list is refused; default 32 MiB */
  maxBytes?: number;
  fetch?: typeof globalThis.fetch;
}

export type PollOutcome = 'applied' | 'unchanged' | 'read_failed' | 'rejected' | 'busy';

export class StationSource {
  private readonly o: Required<Omit<StationSourceOptions, 'store'>> & { store: StationStore | null };
  private readonly isUrl: boolean;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private polling = false;
  private dirty = false;
  /** a change that should reach the disk now, not at the next routine save */
  private urgent = false;
  private lastSaveMs = -Infinity;
  private lastStat = '';
  /** problem kinds already logged and not yet cleared */
  private readonly active = new Set<string>();

  constructor(opts: StationSourceOptions) {
    this.o = { intervalMs: 10_000, saveEveryMs: 60_000, timeoutMs: 5_000, maxBytes: 32 << 20, fetch: globalThis.fetch, format: 'auto', ...opts };
    this.isUrl = /^https?:\/\//i.test(opts.location);
    if (!this.isUrl && /^[a-z][a-z0-9+.-]*:\/\//i.test(opts.location)) {
      throw new Error('--stations must be a file path or an http(s) URL');
    }
  }

  /** Poll now, then every interval until stop(). */
  start(): void {
    const loop = async () => {
      await this.poll();
      if (!this.stopped) this.timer = setTimeout(loop, this.o.intervalMs);
    };
    this.stopped = false;
    void loop();
  }

  /** Stop polling and save what changed since the last save. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dirty) this.save();
  }

  /** One poll: read, parse, apply, save when due. */
  async poll(): Promise<PollOutcome> {
    if (this.polling) return 'busy';
    this.polling = true;
    try {
      return await this.pollOnce();
    } finally {
      this.polling = false;
    }
  }

  private async pollOnce(): Promise<PollOutcome> {
    const { roster, clock } = this.o;
    let outcome: PollOutcome;
    const text = await this.read().catch((e: unknown) => {
      this.problem('read', `feeder list unreadable (${codeOf(e)}); keeping the previous state`);
      return null;
    });
    if (text === null) outcome = 'read_failed';
    else if (text === undefined) outcome = 'unchanged';
    else {
      const parsed = await this.parse(text).catch((e: unknown) => {
        this.problem('read', `readsb receivers.json beside clients.json unreadable (${codeOf(e)}); keeping the previous state`);
        this.lastStat = '';
        return null;
      });
      if (parsed === null) outcome = 'read_failed';
      else if (!parsed.ok) {
        this.problem('reject', `feeder list rejected (${parsed.reason}): ${parsed.detail}; keeping the previous state`);
        // a later good read of the same bytes must be parsed again
        this.lastStat = '';
        outcome = 'rejected';
      } else {
        this.clear('read', 'reject');
        outcome = this.take(parsed.list);
      }
    }
    const now = clock();
    if (roster.prune(now) > 0) this.dirty = this.urgent = true;
    if (roster.presenceAvailable(now)) this.clear('stale');
    else this.problem('stale', `no feeder list newer than ${roster.staleAfterS} s: station presence unavailable (station_count null)`);
    if (this.dirty && (this.urgent || now - this.lastSaveMs >= this.o.saveEveryMs)) this.save();
    return outcome;
  }

  /** the list in the configured format (auto: readsb's clients.json by its `clients` array, else ours) */
  private async parse(text: string): Promise<ParseResult> {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return { ok: false, reason: 'not_json', detail: 'the feeder list is not JSON' };
    }
    const readsb = this.o.format === 'readsb' || (this.o.format === 'auto' && isReadsbClients(doc));
    if (!readsb) return parseFeederDoc(doc, this.o.keys);
    return parseReadsbClients(doc, await this.readText(receiversBeside(this.o.location)), this.o.keys);
  }

  private take(list: FeederList): PollOutcome {
    for (const k of [...this.active]) if (k.startsWith('skip:') && !list.skipped[k.slice(5) as keyof FeederList['skipped']]) this.active.delete(k);
    for (const [reason, n] of Object.entries(list.skipped)) {
      this.problem(`skip:${reason}`, `feeder list: ${n} entr${n === 1 ? 'y' : 'ies'} skipped (${reason})`);
    }
    if (list.ignoredFields > 0) this.problem('fields', `feeder list: ${list.ignoredFields} malformed optional field(s) read as absent`);
    else this.active.delete('fields');
    const r = this.o.roster.apply(list, this.o.clock(), (k) => this.o.keys.publicId(k));
    if (!r.applied) {
      if (r.reason === 'older_than_current') this.problem('older', 'feeder list is older than the one already taken; ignored');
      return 'unchanged';
    }
    this.active.delete('older');
    if (r.added.length > 0) {
      const ids = r.added;
      this.o.log(`stations: new station${ids.length === 1 ? '' : 's'} ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ` and ${ids.length - 20} more` : ''}`);
    }
    if (r.dropped > 0) this.o.log(`stations: ${r.dropped} station(s) not seen for ${this.o.roster.retentionS / 86_400} days left the roster`);
    this.dirty = true;
    if (r.urgent) this.urgent = true;
    return 'applied';
  }

  /** The list's text; undefined when a file has not changed since the last read. */
  private async read(): Promise<string | undefined> {
    const { location, maxBytes } = this.o;
    if (!this.isUrl) {
      const st = await stat(location);
      if (st.size > maxBytes) throw Object.assign(new Error('too big'), { code: 'TOO_BIG' });
      const sig = `${st.mtimeMs}:${st.size}:${st.ino}`;
      if (sig === this.lastStat) return undefined;
      const text = await readFile(location, 'utf8');
      this.lastStat = sig;
      return text;
    }
    return this.readText(location);
  }

  /** the whole text of a file or URL, refused past maxBytes */
  private async readText(location: string): Promise<string> {
    const { maxBytes } = this.o;
    if (!this.isUrl) {
      const st = await stat(location);
      if (st.size > maxBytes) throw Object.assign(new Error('too big'), { code: 'TOO_BIG' });
      return readFile(location, 'utf8');
    }
    const res = await this.o.fetch(location, { signal: AbortSignal.timeout(this.o.timeoutMs), headers: { accept: 'application/json' } });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw Object.assign(new Error('status'), { code: `HTTP_${res.status}` });
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await res.body?.cancel();
      throw Object.assign(new Error('too big'), { code: 'TOO_BIG' });
    }
    const buf = Buffer.from(await res.arrayBuffer());
    if (buf.length > maxBytes) throw Object.assign(new Error('too big'), { code: 'TOO_BIG' });
    return buf.toString('utf8');
  }

  private save(): void {
    if (!this.o.store) {
      this.dirty = this.urgent = false;
      return;
    }
    try {
      this.o.store.save(this.o.roster.saved(), this.o.keys);
      this.dirty = this.urgent = false;
      this.lastSaveMs = this.o.clock();
      this.clear('save');
    } catch (e) {
      this.problem('save', `cannot save the roster in --state (${codeOf(e)}); will retry`);
    }
  }

  private problem(kind: string, text: string): void {
    if (this.active.has(kind)) return;
    this.active.add(kind);
    this.o.log(`stations: ${text}`, 'warn');
  }

  private clear(...kinds: string[]): void {
    let was = false;
    for (const k of kinds) was = this.active.delete(k) || was;
    if (!was) return;
    if (kinds.includes('stale')) this.o.log('stations: feeder list fresh again; station presence available');
    else if (kinds.includes('save')) this.o.log('stations: roster saved again');
    else this.o.log('stations: feeder list readable again');
  }
}

/** readsb writes receivers.json into the same folder as clients.json (its --write-json) */
export function receiversBeside(location: string): string {
  if (/^https?:\/\//i.test(location)) return new URL('receivers.json', location).toString();
  return join(dirname(location), 'receivers.json');
}

// an error's code only (ENOENT, HTTP_503, TimeoutError): messages may name the path, the host or an address
function codeOf(e: unknown): string {
  const x = e as { code?: unknown; name?: unknown; cause?: { code?: unknown } } | null;
  if (x && typeof x.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(x.code)) return x.code;
  if (x?.cause && typeof x.cause.code === 'string' && /^[A-Z0-9_]{1,40}$/.test(x.cause.code)) return x.cause.code;
  if (x && typeof x.name === 'string' && /^[A-Za-z]{1,40}$/.test(x.name)) return x.name;
  return 'error';
}
