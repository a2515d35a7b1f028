import assert from 'node:assert/strict';
import os from 'node:os';
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

test('the imaging memory budget defaults to half the memory; the pixel limit to the largest RAW it holds alone', () => {
  const config = loadConfig({});
  const half = Math.floor(Math.min(os.totalmem(), process.constrainedMemory() || Infinity) / 2 ** 21);
  assert.equal(config.imagingMemoryMb, half);
  assert.equal(config.maxImageMegapixels, Math.floor((half * 2 ** 20) / 64 / 1e6), '64 bytes per pixel of a RAW development');
  const small = loadConfig({ IMAGING_MEMORY_MB: '4096' });
  assert.deepEqual([small.imagingMemoryMb, small.maxImageMegapixels], [4096, 67]);
  assert.equal(loadConfig({ IMAGING_MEMORY_MB: '4096', MAX_IMAGE_MEGAPIXELS: '150' }).maxImageMegapixels, 150);
  assert.throws(() => loadConfig({ IMAGING_MEMORY_MB: '10' }), ConfigError);
  assert.throws(() => loadConfig({ MAX_IMAGE_MEGAPIXELS: '-3' }), ConfigError);
});
