import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration: the S3 blob store', () => {
  test('no S3_BUCKET: the embedded store', () => {
    assert.equal(loadConfig({ AWS_REGION: 'eu-west-1' }).s3, null);
  });

  test('S3_BUCKET selects S3; the standard AWS variables, a path-style endpoint and a prefix', () => {
    const config = loadConfig({
      S3_BUCKET: 'photos',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKID',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: '/studio/retouch/',
    });
    assert.deepEqual(config.s3, {
      bucket: 'photos',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      prefix: 'studio/retouch/',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    });
    assert.deepEqual(loadConfig({ S3_BUCKET: 'photos' }).s3, {
      bucket: 'photos',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      prefix: '',
      credentials: undefined,
    });
  });

  test('half a key pair or an endpoint that is not a URL is refused at start', () => {
    assert.throws(() => loadConfig({ S3_BUCKET: 'photos', AWS_ACCESS_KEY_ID: 'AKID' }), ConfigError);
    assert.throws(() => loadConfig({ S3_BUCKET: 'photos', AWS_ENDPOINT_URL_S3: 'minio:9000' }), /AWS_ENDPOINT_URL_S3 must be an http\(s\) URL/);
  });
});
