// object storage behind one small interface: the S3 adapter (any S3-compatible endpoint, via
// @aws-sdk/client-s3) for real runs, wrappers in tests. credentials come from the standard AWS
// environment variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ...).
import { createReadStream } from 'node:fs';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { ObjectHeaders } from './headers.ts';

/** the bytes of one object: in memory, or a file streamed from disk */
export type Body = { data: Buffer } | { file: string; bytes: number };

export interface ObjectStore {
  /** the object's bytes, or null when it does not exist */
  get(key: string): Promise<Buffer | null>;
  /** the sha256 recorded with the object when it was put, '' when none, null when the object does not exist */
  head(key: string): Promise<string | null>;
  put(key: string, body: Body, headers: ObjectHeaders, sha256: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  /** path-style URLs (http://host/bucket/key): what most self-hosted S3 servers need */
  forcePathStyle: boolean;
}

const missing = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
};

/** the SDK client for an S3-compatible store */
export function s3Client(o: Omit<S3Options, 'bucket'>, credentials?: { accessKeyId: string; secretAccessKey: string }): S3Client {
  return new S3Client({
    endpoint: o.endpoint || undefined,
    region: o.region,
    forcePathStyle: o.forcePathStyle,
    credentials,
    // checksums only where an operation needs them: the SDK's default streams bodies as aws-chunked
    // with trailing checksums, which several S3-compatible stores keep in Content-Encoding
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function s3Store(o: S3Options, client = s3Client(o)): ObjectStore & { client: S3Client } {
  const Bucket = o.bucket;
  return {
    client,
    async get(Key) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket, Key }));
        return Buffer.from(await r.Body!.transformToByteArray());
      } catch (e) {
        if (missing(e)) return null;
        throw e;
      }
    },
    async head(Key) {
      try {
        const r = await client.send(new HeadObjectCommand({ Bucket, Key }));
        return r.Metadata?.sha256 ?? '';
      } catch (e) {
        if (missing(e)) return null;
        throw e;
      }
    },
    async put(Key, body, h, sha256) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key,
          Body: 'data' in body ? body.data : createReadStream(body.file),
          ContentLength: 'data' in body ? body.data.length : body.bytes,
          ContentType: h.contentType,
          ContentEncoding: h.contentEncoding,
          CacheControl: h.cacheControl,
          ContentDisposition: h.contentDisposition,
          // the content hash travels with the object: a re-run after an interruption skips what arrived
          Metadata: { sha256 },
        }),
      );
    },
    async delete(Key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key }));
    },
  };
}
