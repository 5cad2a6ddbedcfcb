// the published artifact tree as the live server sees it: follows `current` (checked every few
// seconds), serves objects as stored (gzip), and keeps the small in-memory tables of a version
// (routes table, code lookups, estimate accuracy) swapped in one assignment when a build lands;
// builds the route documents of catalog-only callsigns the build wrote no file for (docs/api.md).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { keys } from '../../artifacts/keys.ts';
import { storedFileOf } from '../../artifacts/segments.ts';
import { currentHeader, readObject, type VersionHeader } from '../../artifacts/tree.ts';
import { artifactUnavailable } from '../../lib/errors.ts';
import { decodeLookup, decodeRoutesTable, routeEntryOf, type Lookup, type ServedRoutes } from '../../artifacts/meta.ts';
import type { RouteSource } from '../../artifacts/routes-table.ts';
import { catalogRouteDoc, decodeCatalogRoutes, type CatalogRoutesDoc } from '../../artifacts/catalog-routes.ts';
import { servedAccuracy } from '../../artifacts/estimate-accuracy.ts';
import type { Accuracy } from '../../lib/estimate/accuracy.ts';
import type { FlowField } from '../../lib/estimate/flow.ts';
import type { PathSet } from '../../lib/estimate/paths.ts';
import { learnedOf } from '../../artifacts/learned.ts';
import { problems } from '../../schemas/index.ts';
import type { Log } from '../../lib/log.ts';

export interface Loaded {
  version: VersionHeader;
  /** callsign -> [org, dst, route_source] (meta/routes) */
  routes: ServedRoutes;
  /** small code lookups written by the build (meta/lookup), or null in a tree without one */
  lookup: Lookup | null;
  /** what the routes table does not say of the catalog-only routes (meta/catalog-routes), or null in a tree without one */
  catalogRoutes: CatalogRoutesDoc | null;
  /** the latest night's estimate accuracy for the method in use, or null */
  accuracy: Accuracy | null;
  /** the traffic flow estimates follow after the hold (meta/flow), or null in a tree without one */
  flow: FlowField | null;
  /** the traffic paths estimates follow after the hold (meta/paths), or null in a tree without them */
  paths: PathSet | null;
}

export class HistoryStore {
  private loaded: Loaded | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly cache = new Map<string, Buffer | null>();
  private cacheBytes = 0;

  constructor(
    readonly root: string,
    private readonly log: Log = () => {},
    /** bytes of gzip objects kept in memory (least recently used dropped first) */
    private readonly cacheLimit = 64 * 1024 * 1024,
  ) {}

  /** Load the published version now and re-check every `everyMs`. */
  start(everyMs = 5000): this {
    this.refresh();
    if (everyMs > 0) {
      this.timer = setInterval(() => this.refresh(), everyMs);
      this.timer.unref();
    }
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Swap in the published version when it changed. Returns true when a new version was loaded. */
  refresh(): boolean {
    if (!this.root) return false;
    let v: VersionHeader | null;
    try {
      v = currentHeader(this.root);
    } catch (e) {
      // a transient fault (EMFILE, EACCES, EIO) is not "nothing published": keep serving what is loaded
      this.log(`artifacts: cannot read ${this.root} (${(e as Error).message}); still serving ${this.loaded?.version.id ?? 'nothing'}`, 'warn');
      return false;
    }
    if (!v) {
      if (this.loaded) this.log(`artifacts: nothing published under ${this.root} any more; history routes answer 503`, 'warn');
      this.loaded = null;
      return false;
    }
    if (this.loaded?.version.id === v.id) return false;
    try {
      const next: Loaded = {
        version: v,
        routes: decodeRoutesTable(readObject(v.dir, keys.routesTable()) ?? {}),
        lookup: nullOr(readObject(v.dir, keys.lookup()), decodeLookup),
        catalogRoutes: nullOr(readObject(v.dir, keys.catalogRoutes()), decodeCatalogRoutes),
        accuracy: servedAccuracy(readObject(v.dir, keys.accuracy()), (m) => this.log(`artifacts: build ${v.id}: estimate accuracy ${m}`, 'warn')),
        ...learnedOf(v.dir, (m) => this.log(`artifacts: build ${v.id}: ${m}`, 'warn')),
      };
      this.loaded = next;
      this.cache.clear();
      this.cacheBytes = 0;
      this.log(`artifacts: serving build ${v.id} (archive through ${v.header.archive_through ?? 'none'}, window ${v.header.window_days} days)`);
      return true;
    } catch (e) {
      this.log(`artifacts: build ${v.id} is unreadable (${(e as Error).message}); still serving ${this.loaded?.version.id ?? 'nothing'}`, 'warn');
      return false;
    }
  }

  get current(): Loaded | null {
    return this.loaded;
  }

  /** The loaded version, or a 503 artifact_unavailable. */
  require(): Loaded {
    if (!this.loaded) throw artifactUnavailable('no history build is published yet; run the nightly build (npm run nightly)');
    return this.loaded;
  }

  /**
   * The routes-table entry of a callsign: as broadcast (EZY012), else in the catalog's spelling
   * (EZY12: leading zeros of the number dropped), which is how catalog-only entries are keyed.
   */
  route(callsign: string): { key: string; entry: readonly [string, string, RouteSource] } | null {
    return routeEntryOf(this.require().routes, callsign);
  }

  /**
   * The gzip bytes of v1/route/<key>: the stored object, else, for a catalog-only route the build
   * wrote no file for (the nightly's --catalog-route-files off), the document it would have written,
   * built from the routes table and meta/catalog-routes (artifacts/catalog-routes.ts) and cached as
   * an object is; null when neither.
   */
  routeObject(key: string): Buffer | null {
    const stored = this.object(keys.route(key));
    if (stored) return stored;
    const l = this.require();
    const entry = l.routes.get(key);
    // a heard callsign always has its file: only a catalog-sourced entry without one is built here
    if (!entry || entry[2] !== 'catalog' || !l.catalogRoutes) return null;
    const gz = gzipSync(JSON.stringify(catalogRouteDoc(key, entry, l.catalogRoutes)));
    if (this.loaded === l) this.remember(keys.route(key), gz);
    return gz;
  }

  archiveThrough(): string | null {
    return this.loaded?.version.header.archive_through ?? null;
  }

  /**
   * The stored gzip bytes of a key, or null when the build has no such object. read synchronously
   * (small objects, the hot ones cached): handlers answer at once (server/http/types.ts).
   */
  object(key: string): Buffer | null {
    const l = this.require();
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    let bytes: Buffer | null;
    try {
      // a closed day of flights or movements is read through the version's segment link (artifacts/segments.ts)
      bytes = readFileSync(join(l.version.dir, storedFileOf(key, l.version.header.segments)));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // no such object (or a key that runs through an object, e.g. <airframe>.gz/...): not there
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      bytes = null;
    }
    if (this.loaded === l && bytes) this.remember(key, bytes);
    return bytes;
  }

  private remember(key: string, bytes: Buffer): void {
    this.cache.set(key, bytes);
    this.cacheBytes += bytes.length;
    for (const [k, v] of this.cache) {
      if (this.cacheBytes <= this.cacheLimit) break;
      this.cache.delete(k);
      this.cacheBytes -= v?.length ?? 0;
    }
  }
}

const nullOr = <T>(doc: unknown, decode: (d: unknown) => T): T | null => (doc === null ? null : decode(doc));
