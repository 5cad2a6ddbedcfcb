// `npm run --silent upload -- --help`: upload the published artifact tree and the bundles to an
// S3-compatible bucket. credentials from the standard AWS environment variables.
import { ConfigError, runAsMain, runCommand, type Command, type Specs } from '../../lib/cli.ts';
import { s3Store } from './object-store.ts';
import { upload } from './upload.ts';
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
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const PUBLISH_SPECS: Specs<PublishConfig> = {
  artifacts: { flag: 'artifacts', env: 'CONTRAIL_ARTIFACTS', kind: 'string', default: installed('var/artifacts'), help: 'artifact tree root; its `current` version is uploaded', check: (v) => (v ? undefined : 'must not be empty') },
  bundles: { flag: 'bundles', env: 'CONTRAIL_BUNDLES', kind: 'string', default: installed('var/bundles'), help: "bundles folder written by the nightly (index.json, daily/, rolling/); '' to upload the tree only" },
  // empty: AWS itself; set it for any other S3-compatible store (MinIO, Ceph, R2, s3rver)
  endpoint: { flag: 'endpoint', env: 'CONTRAIL_S3_ENDPOINT', kind: 'string', default: '', help: 'S3 endpoint URL, e.g. https://s3.example.net; empty for AWS' },
  bucket: { flag: 'bucket', env: 'CONTRAIL_S3_BUCKET', kind: 'string', default: '', help: 'bucket name (required)', check: (v) => (v === '' || BUCKET_NAME.test(v) ? undefined : 'expected a bucket name: 3-63 lower-case letters, digits, dots, hyphens') },
  prefix: { flag: 'prefix', env: 'CONTRAIL_S3_PREFIX', kind: 'string', default: '', help: 'key prefix inside the bucket (no leading or trailing slash); empty for the bucket root', check: (v) => (v === '' || /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(v) ? undefined : 'use path segments without leading, trailing or double slashes') },
  region: { flag: 'region', env: 'AWS_REGION', kind: 'string', default: 'us-east-1', help: 'region (most S3-compatible stores accept any)' },
  pathStyle: { flag: 'path-style', env: 'CONTRAIL_S3_PATH_STYLE', kind: 'bool', default: true, help: 'path-style URLs (endpoint/bucket/key); --no-path-style for virtual-hosted buckets' },
  // a CDN or a reader holding yesterday's manifest may still ask for an object for a while
  graceHours: { flag: 'grace-hours', env: 'CONTRAIL_S3_GRACE_HOURS', kind: 'number', default: 48, help: 'hours an object that left the tree stays in the bucket before it is deleted', check: (v) => (v >= 0 ? undefined : 'must be 0 or more') },
  concurrency: { flag: 'concurrency', env: 'CONTRAIL_S3_CONCURRENCY', kind: 'int', default: 8, help: 'objects sent in parallel', check: (v) => (v >= 1 && v <= 64 ? undefined : 'must be 1..64') },
};

const USAGE = `Usage: npm run --silent upload -- [options]

Uploads the published artifact tree (--artifacts, its current version) and the researchers'
bundles (--bundles) to an S3-compatible bucket. Only objects whose sha256 changed since the last
upload are sent; <prefix>/manifest.json is written last. Objects that left the tree are deleted
after --grace-hours. Interrupted, run it again: what already arrived is not sent again.
Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or AWS_PROFILE), as for any AWS tool.`;

const uploadCommand: Command<PublishConfig> = {
  name: 'upload',
  usage: USAGE,
  specs: PUBLISH_SPECS,
  check: (c) => {
    // checked after --help: the default is empty
    if (!c.bucket) throw new ConfigError('--bucket (or CONTRAIL_S3_BUCKET) is required');
    if (c.endpoint && !/^https?:\/\/[^\s/]+/.test(c.endpoint)) throw new ConfigError(`--endpoint: expected an http(s) URL, got ${JSON.stringify(c.endpoint)}`);
  },
  run: async (c) => {
    const store = s3Store({ endpoint: c.endpoint, bucket: c.bucket, region: c.region, forcePathStyle: c.pathStyle });
    await upload({
      root: c.artifacts, bundles: c.bundles, store, prefix: c.prefix, nowMs: Date.now(), graceMs: c.graceHours * 3600_000,
      concurrency: c.concurrency, say: (l) => console.error(l), clock: Date.now,
    });
    store.client.destroy();
    return 0;
  },
  onFailure: () => 'the remote manifest is unchanged; run again to finish (what arrived is not sent again)',
};

runAsMain(import.meta.url, () => runCommand(uploadCommand, process.argv.slice(2)));
