// `npm run --silent upload -- --help`: upload the published artifact tree and the bundles to an
// S3-compatible bucket. credentials from the standard AWS environment variables.
import { ConfigError, runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { MAX_LIST_PAGE_KEYS, s3Connection, s3Store } from './object-store.ts';
import { AfterSwitch, DEFAULT_MULTIPART_BYTES, DEFAULT_PART_BYTES, Interrupted, upload } from './upload.ts';
import { DEFAULT_RETRY } from './retry.ts';
import { MIN_PART_BYTES } from './multipart.ts';
import { installed } from '../../lib/install.ts';

export interface PublishConfig {
  artifacts: string;
  bundles: string;
  endpoint: string;
  bucket: string;
  prefix: string;
  region: string;
  pathStyle: boolean;
  graceHours: number;
  concurrency: number;
  retries: number;
  multipartMb: number;
  partMb: number;
  urlMirror: boolean;
  listPageKeys: number;
}

const MIB = 1024 * 1024;
// S3's sizes: parts of 5 MiB to 5 GiB, one PUT of at most 5 GiB
const partSize = (v: number) => (v >= MIN_PART_BYTES / MIB && v <= 5120 ? undefined : "must be 5..5120 (S3's part sizes, in MiB)");

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const PUBLISH_SPECS: Specs<PublishConfig> = {
  artifacts: {
    flag: 'artifacts',
    env: 'CONTRAIL_ARTIFACTS',
    kind: 'string',
    default: installed('var/artifacts'),
    help: 'artifact tree root; its `current` version is uploaded',
    check: (v) => (v ? undefined : 'must not be empty'),
  },
  bundles: {
    flag: 'bundles',
    env: 'CONTRAIL_BUNDLES',
    kind: 'string',
    default: installed('var/bundles'),
    help: "researchers' data written by the nightly (index.json, log/, tables/, README ...); '' to upload the tree only",
  },
  // empty: AWS itself; set it for any other S3-compatible store (MinIO, Ceph, R2, s3rver)
  endpoint: { flag: 'endpoint', env: 'CONTRAIL_S3_ENDPOINT', kind: 'string', default: '', help: 'S3 endpoint URL, e.g. https://s3.example.net; empty for AWS' },
  bucket: {
    flag: 'bucket',
    env: 'CONTRAIL_S3_BUCKET',
    kind: 'string',
    default: '',
    help: 'bucket name (required)',
    check: (v) => (v === '' || BUCKET_NAME.test(v) ? undefined : 'expected a bucket name: 3-63 lower-case letters, digits, dots, hyphens'),
  },
  prefix: {
    flag: 'prefix',
    env: 'CONTRAIL_S3_PREFIX',
    kind: 'string',
    default: '',
    help: 'key prefix inside the bucket (no leading or trailing slash); empty for the bucket root',
    check: (v) => (v === '' || /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(v) ? undefined : 'use path segments without leading, trailing or double slashes'),
  },
  region: { flag: 'region', env: 'AWS_REGION', kind: 'string', default: 'us-east-1', help: 'region (most S3-compatible stores accept any)' },
  pathStyle: {
    flag: 'path-style',
    env: 'CONTRAIL_S3_PATH_STYLE',
    kind: 'bool',
    default: true,
    help: 'path-style URLs (endpoint/bucket/key); --no-path-style for virtual-hosted buckets',
  },
  // a CDN or a reader holding yesterday's manifest may still ask for an object for a while
  graceHours: {
    flag: 'grace-hours',
    env: 'CONTRAIL_S3_GRACE_HOURS',
    kind: 'number',
    default: 48,
    help: 'hours an object that left the tree stays in the bucket before it is deleted',
    check: (v) => (v >= 0 ? undefined : 'must be 0 or more'),
  },
  // measured against s3rver on loopback (docs/perf-log/upload.md, bench/upload.ts): 1 in flight ~250 objects/s, 8 and
  // 32 ~650 (CPU-bound there); over a real network each request also waits a round trip: 64 in
  // flight at 30 ms is ~2,000 objects/s, under S3's 3,500 PUT/s per prefix
  concurrency: {
    flag: 'concurrency',
    env: 'CONTRAIL_S3_CONCURRENCY',
    kind: 'int',
    default: 64,
    help: 'requests in flight at most, each on its own keep-alive connection',
    check: (v) => (v >= 1 && v <= 256 ? undefined : 'must be 1..256'),
  },
  retries: {
    flag: 'retries',
    env: 'CONTRAIL_S3_RETRIES',
    kind: 'int',
    default: DEFAULT_RETRY.retries,
    help: 'retries of a request on throttling (503 SlowDown, 429), other 5xx, timeouts and dropped connections, with exponential back-off and jitter (0.1 s doubling, at most 20 s)',
    check: (v) => (v >= 0 && v <= 20 ? undefined : 'must be 0..20'),
  },
  multipartMb: {
    flag: 'multipart-mb',
    env: 'CONTRAIL_S3_MULTIPART_MB',
    kind: 'number',
    default: DEFAULT_MULTIPART_BYTES / MIB,
    help: 'files of this many MiB or more (large Parquet files) go up in parts',
    check: partSize,
  },
  partMb: {
    flag: 'part-mb',
    env: 'CONTRAIL_S3_PART_MB',
    kind: 'number',
    default: DEFAULT_PART_BYTES / MIB,
    help: 'MiB per part of a multipart upload (more when a file would need over 10,000 parts)',
    check: partSize,
  },
  // on: an operator who puts a CDN or a plain object-store origin in front of the bucket expects an
  // object at each URL path (spec 8); the cost is a server-side copy per changed object (docs/api.md)
  urlMirror: {
    flag: 'url-mirror',
    env: 'CONTRAIL_S3_URL_MIRROR',
    kind: 'bool',
    default: true,
    help: 'after the manifest, copy each changed object (server-side) to <prefix>/<url path> too, for origins that serve a URL as it is; --no-url-mirror to keep the stored keys only (and delete a mirror an earlier run kept)',
  },
  // S3's own page (its maximum); a smaller one costs a request per page, and lets a test page a small bucket
  listPageKeys: {
    flag: 'list-page-keys',
    env: 'CONTRAIL_S3_LIST_PAGE_KEYS',
    kind: 'int',
    default: MAX_LIST_PAGE_KEYS,
    help: 'keys per page of a bucket listing (ListObjectsV2 MaxKeys)',
    check: (v) => (v >= 1 && v <= MAX_LIST_PAGE_KEYS ? undefined : `must be 1..${MAX_LIST_PAGE_KEYS} (S3 answers at most ${MAX_LIST_PAGE_KEYS} keys a page)`),
  },
};

const USAGE = `Usage: npm run --silent upload -- [options]

Uploads the published artifact tree (--artifacts, its current version) and the researchers'
bundles (--bundles) to an S3-compatible bucket, each object under <prefix>/o/<url path>/<sha256>-<bytes>
(never over an object the bucket's manifest names; deploy/README.md). Only objects whose sha256 or
stored size changed since the manifest in the bucket are sent, --concurrency at a time over keep-alive
connections, files from --multipart-mb in parts; throttling, 5xx and dropped connections are retried
(--retries); <prefix>/manifest.json is written last, the switch to the new build. Objects it no longer
names are deleted after --grace-hours. With --url-mirror (the default) each changed object is then
copied, server-side, to <prefix>/<url path> too, for a CDN or a glob that reads URL paths as they are;
while it copies, those paths mix the two builds (each object whole); the manifest's keys never do.
Progress (objects done/total, MB, rate) is printed every 2 s on stderr.
Interrupted (Ctrl-C, SIGTERM, a kill, a failure) before the manifest, the bucket's manifest still
names the previous build whole; after it (among the mirror's copies or the deletes), the new one.
Either way run it again: what already arrived is not sent again.
Exit codes: 0 done, 1 failed, 2 bad options, 130 interrupted.
Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or AWS_PROFILE), as for any AWS tool.`;

export const uploadCommand: Command<PublishConfig> = {
  name: 'upload',
  usage: USAGE,
  specs: PUBLISH_SPECS,
  check: (c) => {
    // checked after --help: the default is empty
    if (!c.bucket) throw new ConfigError('--bucket (or CONTRAIL_S3_BUCKET) is required');
    if (c.endpoint && !/^https?:\/\/[^\s/]+/.test(c.endpoint)) throw new ConfigError(`--endpoint: expected an http(s) URL, got ${JSON.stringify(c.endpoint)}`);
  },
  run: async (c) => {
    const o = { endpoint: c.endpoint, bucket: c.bucket, region: c.region, forcePathStyle: c.pathStyle, listPageKeys: c.listPageKeys };
    const store = s3Store(o, s3Connection(o, undefined, c.concurrency));
    // the first Ctrl-C or SIGTERM stops taking new objects and lets those in flight land; a second one kills
    const stop = new AbortController();
    const onSignal = () => {
      console.error('upload: stopping after the requests in flight (again to kill)');
      stop.abort();
    };
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    try {
      await upload({
        root: c.artifacts,
        bundles: c.bundles,
        store,
        prefix: c.prefix,
        nowMs: Date.now(),
        graceMs: c.graceHours * 3600_000,
        concurrency: c.concurrency,
        retry: { ...DEFAULT_RETRY, retries: c.retries },
        multipartBytes: c.multipartMb * MIB,
        partBytes: c.partMb * MIB,
        urlMirror: c.urlMirror,
        signal: stop.signal,
        say: (l) => console.error(l),
        clock: Date.now,
      });
      return 0;
    } catch (e) {
      if (!(e instanceof Interrupted)) throw e;
      console.error(`upload: ${e.message}`);
      return 130;
    } finally {
      store.close();
    }
  },
  onFailure: (e) =>
    e instanceof AfterSwitch
      ? 'run again to finish the url mirror and the deletes'
      : 'the remote manifest is unchanged; run again to finish (what arrived is not sent again)',
};

runAsMain(import.meta.url, () => runCommand(uploadCommand, process.argv.slice(2)));
