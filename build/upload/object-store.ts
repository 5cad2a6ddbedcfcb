// object storage behind one small interface: the S3 adapter (any S3-compatible endpoint, via
// @aws-sdk/client-s3) for real runs, wrappers in tests. credentials come from the standard AWS
// environment variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ...).
// the SDK does not retry (build/upload/retry.ts does, the same way for every request); it and the
// hand-signed PUT of small objects and CopyObject (s3-put.ts) share keep-alive agents: a socket per
// request slot, reused for the next object.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { ObjectHeaders } from './headers.ts';
import { copier, putter } from './s3-put.ts';

/** what a listing says of one stored object */
export interface Listed {
  /** without quotes: an md5 for a plain PUT on most stores, `<md5>-<parts>` for a multipart one on S3 */
  etag: string;
  bytes: number;
  /** Last-Modified, ms (whole seconds on S3) */
  modifiedMs: number;
}

/** what the store says of one object: its listing and the headers and metadata it serves it with */
interface StoredMeta extends Listed {
  contentType?: string;
  contentEncoding?: string;
  cacheControl?: string;
  contentDisposition?: string;
  /** x-amz-meta-sha256, as put */
  sha256?: string;
}

export interface ObjectStore {
  /** the object's bytes, or null when it does not exist */
  get(key: string): Promise<Buffer | null>;
  /** the object's bytes and what it is served with, or null when it does not exist */
  read(key: string): Promise<{ data: Buffer; meta: StoredMeta } | null>;
  /** what the object is served with, or null when it does not exist */
  head(key: string): Promise<StoredMeta | null>;
  /** a server-side copy of `source` to `key`, with its headers and metadata; no bytes sent */
  copy(source: string, key: string): Promise<void>;
  /** the content's sha256 travels with the object as x-amz-meta-sha256 */
  put(key: string, data: Buffer, headers: ObjectHeaders, sha256: string): Promise<void>;
  /** every object whose key starts with `prefix` */
  list(prefix: string): Promise<Map<string, Listed>>;
  delete(key: string): Promise<void>;
  /** starts a multipart upload, resolves to its id */
  createMultipart(key: string, headers: ObjectHeaders, sha256: string): Promise<string>;
  /** resolves to the part's ETag */
  putPart(key: string, uploadId: string, part: number, data: Buffer): Promise<string>;
  completeMultipart(key: string, uploadId: string, etags: readonly string[]): Promise<void>;
  abortMultipart(key: string, uploadId: string): Promise<void>;
}

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  /** path-style URLs (http://host/bucket/key): what most self-hosted S3 servers need */
  forcePathStyle: boolean;
  /** keys per ListObjectsV2 page (MaxKeys), 1..1000; S3 answers at most 1,000, its default */
  listPageKeys?: number;
}

/** S3's most keys per ListObjectsV2 page, and its default */
export const MAX_LIST_PAGE_KEYS = 1000;

const missing = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
};

const unquote = (etag: string | undefined) => (etag ?? '').replace(/"/g, '');

/** the fields GetObject and HeadObject answer alike */
interface Served {
  ContentLength?: number;
  ETag?: string;
  LastModified?: Date;
  ContentType?: string;
  ContentEncoding?: string;
  CacheControl?: string;
  ContentDisposition?: string;
  Metadata?: Record<string, string>;
}

const metaOf = (r: Served): StoredMeta => ({
  bytes: r.ContentLength ?? -1,
  etag: unquote(r.ETag),
  modifiedMs: r.LastModified?.getTime() ?? 0,
  contentType: r.ContentType,
  contentEncoding: r.ContentEncoding,
  cacheControl: r.CacheControl,
  contentDisposition: r.ContentDisposition,
  sha256: r.Metadata?.sha256,
});

export interface S3Connection {
  client: S3Client;
  agents: { http: HttpAgent; https: HttpsAgent };
}

/** the SDK client for an S3-compatible store and its keep-alive agents, `sockets` connections each */
export function s3Connection(o: Omit<S3Options, 'bucket'>, credentials?: { accessKeyId: string; secretAccessKey: string }, sockets = 8): S3Connection {
  const agent = { keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets };
  const agents = { http: new HttpAgent(agent), https: new HttpsAgent(agent) };
  const client = new S3Client({
    endpoint: o.endpoint || undefined,
    region: o.region,
    forcePathStyle: o.forcePathStyle,
    credentials,
    // one attempt per send: build/upload/retry.ts retries
    maxAttempts: 1,
    // connect within 10 s; a socket silent for 2 min is dead (a part of 8 MB at 1 Mbit/s takes ~1 min)
    requestHandler: { httpAgent: agents.http, httpsAgent: agents.https, connectionTimeout: 10_000, requestTimeout: 120_000 },
    // checksums only where an operation needs them: the SDK's default streams bodies as aws-chunked
    // with trailing checksums, which several S3-compatible stores keep in Content-Encoding
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { client, agents };
}

const objectHeaders = (h: ObjectHeaders, sha256: string) => ({
  ContentType: h.contentType,
  ContentEncoding: h.contentEncoding,
  CacheControl: h.cacheControl,
  ContentDisposition: h.contentDisposition,
  Metadata: { sha256 },
});

export function s3Store(o: S3Options, conn = s3Connection(o)): ObjectStore & { close(): void } {
  const Bucket = o.bucket;
  const client = conn.client;
  // the credentials the SDK resolved (environment, profile, SSO, instance role), refreshed as it does
  const credentials = () => client.config.credentials();
  const fastPut = putter(o, credentials, conn.agents);
  const MaxKeys = o.listPageKeys ?? MAX_LIST_PAGE_KEYS;
  return {
    close() {
      client.destroy();
      conn.agents.http.destroy();
      conn.agents.https.destroy();
    },
    async get(Key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket, Key }));
        return Buffer.from(await r.Body!.transformToByteArray());
      } catch (e) {
        if (missing(e)) return null;
        throw e;
      }
    },
    async read(Key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket, Key }));
        return { data: Buffer.from(await r.Body!.transformToByteArray()), meta: metaOf(r) };
      } catch (e) {
        if (missing(e)) return null;
        throw e;
      }
    },
    async head(Key) {
      try {
        return metaOf(await client.send(new HeadObjectCommand({ Bucket, Key })));
      } catch (e) {
        if (missing(e)) return null;
        throw e;
      }
    },
    put: fastPut,
    copy: copier(o, credentials, conn.agents),
    async list(Prefix) {
      const out = new Map<string, Listed>();
      let ContinuationToken: string | undefined;
      do {
        const r = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken, MaxKeys }));
        for (const c of r.Contents ?? []) if (c.Key) out.set(c.Key, { etag: unquote(c.ETag), bytes: c.Size ?? -1, modifiedMs: c.LastModified?.getTime() ?? 0 });
        ContinuationToken = r.IsTruncated ? r.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out;
    },
    async delete(Key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
    async createMultipart(Key, h, sha256) {
      const r = await client.send(new CreateMultipartUploadCommand({ Bucket, Key, ...objectHeaders(h, sha256) }));
      if (!r.UploadId) throw new Error(`the store started a multipart upload of ${Key} without an upload id`);
      return r.UploadId;
    },
    async putPart(Key, UploadId, PartNumber, data) {
      const r = await client.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body: data, ContentLength: data.length }));
      return unquote(r.ETag);
    },
    async completeMultipart(Key, UploadId, etags) {
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) } }),
      );
    },
    async abortMultipart(Key, UploadId) {
      await client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
    },
  };
}
