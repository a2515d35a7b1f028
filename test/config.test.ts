import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.js';

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
