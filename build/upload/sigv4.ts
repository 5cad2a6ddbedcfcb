// AWS Signature Version 4 for one S3 request (pure): the Authorization header of a request whose
// headers are all signed. checked against AWS's published S3 examples (test/build/upload/sigv4.test.ts).
// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
import { createHash, createHmac } from 'node:crypto';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignInput {
  method: string;
  /** the path as sent, already URI-encoded (uriPath) */
  path: string;
  /** lower-case names; must include host, x-amz-date and x-amz-content-sha256 */
  headers: Record<string, string>;
  region: string;
  /** yyyymmddThhmmssZ, the x-amz-date header */
  amzDate: string;
}

export const sha256Hex = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();

/** S3's URI encoding of a key: every byte but A-Z a-z 0-9 - . _ ~ and '/' as %XX */
export function uriPath(key: string): string {
  return key
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
}

/** yyyymmddThhmmssZ */
export const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

// the signing key changes once a day: derive it once per day and secret
let cached: { scope: string; secret: string; key: Buffer } | null = null;
function signingKey(secret: string, day: string, region: string): Buffer {
  const scope = `${day}/${region}/s3`;
  if (cached?.scope !== scope || cached.secret !== secret)
    cached = { scope, secret, key: hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), 's3'), 'aws4_request') };
  return cached.key;
}

/** The Authorization header value; the request's query string must be empty. */
export function authorization(r: SignInput, creds: Credentials): string {
  const names = Object.keys(r.headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${r.headers[n]!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signed = names.join(';');
  const canonical = [r.method, r.path, '', canonicalHeaders, signed, r.headers['x-amz-content-sha256']].join('\n');
  const day = r.amzDate.slice(0, 8);
  const scope = `${day}/${r.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', r.amzDate, scope, sha256Hex(canonical)].join('\n');
  const signature = createHmac('sha256', signingKey(creds.secretAccessKey, day, r.region))
    .update(toSign)
    .digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signed}, Signature=${signature}`;
}
