// the upload's hot paths: one PUT of a small object, and the url mirror's CopyObject
// (url-mirror.ts), signed with SigV4 (sigv4.ts) and sent over node:http(s) on the store's keep-alive
// agent. the AWS SDK costs about 1.1-1.6 ms of CPU per request here against 0.25-0.3 ms for this
// (bench/upload.ts, docs/perf-log/upload.md); every other request (GET, list, delete, multipart) goes
// through the SDK. errors carry the SDK's shape (name = the S3 error code,
// $metadata.httpStatusCode) so retry.ts treats both alike.
import { request as httpRequest, type Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import { amzDate, authorization, sha256Hex, uriPath, type Credentials } from './sigv4.ts';
import type { ObjectHeaders } from './headers.ts';

export interface PutTarget {
  /** '' for AWS itself */
  endpoint: string;
  bucket: string;
  region: string;
  forcePathStyle: boolean;
}

/**
 * Where an object's PUT goes: path-style http://host/bucket/key or virtual-hosted
 * http://bucket.host/key. The endpoint is parsed once, here, not per object.
 */
export function objectUrls(t: PutTarget): (key: string) => { https: boolean; hostname: string; port: string; host: string; path: string } {
  const base = new URL(t.endpoint || `https://s3.${t.region}.amazonaws.com`);
  const host = t.forcePathStyle ? base.host : `${t.bucket}.${base.host}`;
  const hostname = t.forcePathStyle ? base.hostname : `${t.bucket}.${base.hostname}`;
  const root = base.pathname.replace(/\/$/, '') + (t.forcePathStyle ? `/${t.bucket}` : '');
  const https = base.protocol === 'https:';
  return (key) => ({ https, hostname, port: base.port, host, path: `${root}/${uriPath(key)}` });
}

/** an error in the SDK's shape, from an S3 error answer */
function s3Error(status: number, body: string): Error {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  return Object.assign(new Error(message ?? `HTTP ${status}`), { name: code ?? `Http${status}`, $metadata: { httpStatusCode: status } });
}

export interface Putter {
  (key: string, data: Buffer, h: ObjectHeaders, sha256: string): Promise<void>;
}

/** a server-side copy of `source` to `key`, its headers and metadata with it (CopyObject's COPY directive) */
export interface Copier {
  (source: string, key: string): Promise<void>;
}

type Agents = { http: HttpAgent; https: HttpsAgent };

/** one signed PUT to `key` with these headers (all signed but cache-control); resolves to the answer's body */
function signedPut(t: PutTarget, credentials: () => Promise<Credentials>, agents: Agents, timeoutMs: number, now: () => number) {
  const urlOf = objectUrls(t);
  return async (key: string, data: Buffer, extra: Record<string, string>, cacheControl?: string): Promise<string> => {
    const u = urlOf(key);
    const creds = await credentials();
    const date = amzDate(now());
    const headers: Record<string, string> = {
      host: u.host,
      'content-length': String(data.length),
      'x-amz-content-sha256': sha256Hex(data),
      'x-amz-date': date,
      ...extra,
    };
    if (creds.sessionToken) headers['x-amz-security-token'] = creds.sessionToken;
    headers.authorization = authorization({ method: 'PUT', path: u.path, headers, region: t.region, amzDate: date }, creds);
    // not signed, as the SDK does not sign it: a proxy on the way may rewrite it
    if (cacheControl) headers['cache-control'] = cacheControl;
    const send = u.https ? httpsRequest : httpRequest;
    return new Promise<string>((resolve, reject) => {
      const req = send(
        {
          hostname: u.hostname,
          port: u.port || undefined,
          method: 'PUT',
          path: u.path,
          headers,
          agent: u.https ? agents.https : agents.http,
          timeout: timeoutMs,
        },
        (res) => {
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks).toString('utf8');
            if (status >= 200 && status < 300) resolve(body);
            else reject(s3Error(status, body));
          });
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer in ${timeoutMs} ms`), { name: 'TimeoutError' })));
      req.on('error', reject);
      req.end(data);
    });
  };
}

export function putter(t: PutTarget, credentials: () => Promise<Credentials>, agents: Agents, timeoutMs = 120_000, now = Date.now): Putter {
  const put = signedPut(t, credentials, agents, timeoutMs, now);
  return async (key, data, h, sha256) => {
    const headers: Record<string, string> = { 'content-type': h.contentType, 'x-amz-meta-sha256': sha256 };
    if (h.contentEncoding) headers['content-encoding'] = h.contentEncoding;
    if (h.contentDisposition) headers['content-disposition'] = h.contentDisposition;
    await put(key, data, headers, h.cacheControl);
  };
}

const EMPTY = Buffer.alloc(0);

/**
 * CopyObject, no bytes sent: the object at `source` with its headers and metadata. keys are [A-Za-z0-9._/=-] (artifacts/keys.ts, the bundles' day= folders): encodeURI leaves them as they are,
 * which S3 and s3rver (it decodeURIs the header, so %3D would stay %3D) both read.
 */
export function copier(t: PutTarget, credentials: () => Promise<Credentials>, agents: Agents, timeoutMs = 120_000, now = Date.now): Copier {
  const put = signedPut(t, credentials, agents, timeoutMs, now);
  return async (source, key) => {
    const body = await put(key, EMPTY, { 'x-amz-copy-source': encodeURI(`${t.bucket}/${source}`) });
    // S3 may answer 200 and put the error in the body when it fails during the copy
    if (!body.includes('<CopyObjectResult')) throw s3Error(/<Code>/.test(body) ? 500 : 502, body || 'an empty answer to a copy');
  };
}
