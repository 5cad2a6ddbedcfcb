// the hand-signed PUT's signature, against AWS's published S3 SigV4 examples
// (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html, "GET Object" and
// "PUT Object"), and where a PUT goes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amzDate, authorization, uriPath } from '../../../build/upload/sigv4.ts';
import { objectUrls } from '../../../build/upload/s3-put.ts';

const EXAMPLE = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const DATE = '20130524T000000Z';

test("the signature of AWS's S3 examples, byte for byte", () => {
  const get = authorization(
    {
      method: 'GET',
      path: '/test.txt',
      region: 'us-east-1',
      amzDate: DATE,
      headers: {
        host: 'examplebucket.s3.amazonaws.com',
        range: 'bytes=0-9',
        'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'x-amz-date': DATE,
      },
    },
    EXAMPLE,
  );
  assert.equal(
    get,
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  );
  const put = authorization(
    {
      method: 'PUT',
      path: `/${uriPath('test$file.text')}`,
      region: 'us-east-1',
      amzDate: DATE,
      headers: {
        host: 'examplebucket.s3.amazonaws.com',
        date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        'x-amz-content-sha256': '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
        'x-amz-date': DATE,
      },
    },
    EXAMPLE,
  );
  assert.match(
    put,
    /SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd$/,
  );
  // another secret, another day: another signing key (the cached one is not reused)
  assert.notEqual(
    authorization(
      {
        method: 'GET',
        path: '/test.txt',
        region: 'us-east-1',
        amzDate: '20130525T000000Z',
        headers: { host: 'h', 'x-amz-content-sha256': 'x', 'x-amz-date': '20130525T000000Z' },
      },
      EXAMPLE,
    ),
    get,
  );
});

test('keys are URI-encoded per segment as S3 does, and the date is in the basic ISO form', () => {
  assert.equal(uriPath('v1/airframes/4b1814'), 'v1/airframes/4b1814');
  assert.equal(uriPath("a b/c+d=e&f/(x)*!~'.tar.gz"), 'a%20b/c%2Bd%3De%26f/%28x%29%2A%21~%27.tar.gz');
  assert.equal(uriPath('ü'), '%C3%BC');
  assert.equal(amzDate(Date.UTC(2026, 10, 25, 15, 4, 5, 678)), '20261125T150405Z');
});

test('a PUT goes path-style to the endpoint, virtual-hosted to bucket.host, or to AWS by region', () => {
  const t = { endpoint: 'http://127.0.0.1:9000', bucket: 'b', region: 'us-east-1', forcePathStyle: true };
  assert.deepEqual(objectUrls(t)('pub/v1/x'), { https: false, hostname: '127.0.0.1', port: '9000', host: '127.0.0.1:9000', path: '/b/pub/v1/x' });
  assert.deepEqual(objectUrls({ ...t, endpoint: 'https://s3.example.net/base/', forcePathStyle: false })('k'), {
    https: true,
    hostname: 'b.s3.example.net',
    port: '',
    host: 'b.s3.example.net',
    path: '/base/k',
  });
  assert.deepEqual(objectUrls({ ...t, endpoint: '', region: 'eu-central-2' })('k'), {
    https: true,
    hostname: 's3.eu-central-2.amazonaws.com',
    port: '',
    host: 's3.eu-central-2.amazonaws.com',
    path: '/b/k',
  });
});
