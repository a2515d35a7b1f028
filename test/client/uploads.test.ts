import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { RetouchClient } from '../../src/client/api.js';
import { MIN_PART_SIZE, partRanges, TransferError, Uploader, type UploadTransport } from '../../src/client/uploads.js';
import { type LocalPhoto, nodeTransport } from '../../src/cli/client/transport.js';
import { storageKeys } from '../../src/domain/storage-keys.js';
import { sqlite, startTestServer } from '../support/server.js';

const MiB = 1024 * 1024;

function photoOnDisk(name: string, bytes: Buffer): LocalPhoto {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-upload-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return { name, size: bytes.length, mtimeMs: 0, path: file };
}

/** The disk transport, with a say in each PUT: `refuse` answers instead of sending when it returns an error. */
function recording(refuse: (url: string, attempt: number) => TransferError | null) {
  const puts: string[] = [];
  const flight = { now: 0, most: 0 };
  const transport: UploadTransport<LocalPhoto> = {
    async put(url, file, range, onSent) {
      puts.push(url);
      flight.most = Math.max(flight.most, ++flight.now);
      try {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const refusal = refuse(url, puts.filter((u) => u === url).length);
        if (refusal) throw refusal;
        return await nodeTransport.put(url, file, range, onSent);
      } finally {
        flight.now--;
      }
    },
  };
  return { transport, puts, flight };
}

const partOf = (url: string) => Number(new URL(url).searchParams.get('partNumber'));

describe('partRanges', () => {
  test('16 MB parts by default, at least 5 MB, at most 10000 parts, and one empty part for an empty file', () => {
    assert.deepEqual(partRanges(40 * MiB), [
      { start: 0, end: 16 * MiB },
      { start: 16 * MiB, end: 32 * MiB },
      { start: 32 * MiB, end: 40 * MiB },
    ]);
    assert.equal(partRanges(12 * MiB, 1)[0]!.end, MIN_PART_SIZE, 'never under the 5 MB minimum');
    const huge = partRanges(200_000 * MiB);
    assert.equal(huge.length, 10_000);
    assert.equal(huge.at(-1)!.end, 200_000 * MiB);
    assert.deepEqual(partRanges(0), [{ start: 0, end: 0 }]);
  });
});

describe('Uploader against a server', async () => {
  const server = await startTestServer(sqlite);
  const client = new RetouchClient(server.url, server.api.apiKey!);
  // What the links wrote, before a submit seals it into the originals.
  const stored = (uuid: string, name: string) => server.server.services.blobs.read(storageKeys.upload(uuid, name));

  test('a large file goes up in parts; a failed part is tried again and the file arrives whole', async () => {
    const uuid = await client.createProject('i2i');
    const bytes = crypto.randomBytes(11 * MiB);
    const photo = photoOnDisk('IMG_1.CR2', bytes);
    const { transport, puts } = recording((url, attempt) => (partOf(url) === 2 && attempt === 1 ? new TransferError(503, 'storage busy') : null));
    const progress: number[] = [];
    const uploader = new Uploader(client, 'i2i', uuid, transport, {
      multipartThreshold: MiB,
      partSize: 5 * MiB,
      retryDelayMs: () => 0,
      onProgress: (p) => progress.push(p.sent),
    });
    const [result] = await uploader.upload([photo]);
    assert.equal(result!.state, 'done', result!.error);
    assert.deepEqual(puts.map(partOf).sort(), [1, 2, 2, 3], 'three parts, the second twice');
    assert.ok((await stored(uuid, 'IMG_1.CR2')).equals(bytes));
    assert.equal(progress.at(-1), bytes.length);
  });

  test('a part that keeps failing fails its file; uploading it again sends only the missing part', async () => {
    const uuid = await client.createProject('i2i');
    const bytes = crypto.randomBytes(11 * MiB);
    const photo = photoOnDisk('IMG_2.CR2', bytes);
    let down = true;
    const { transport, puts } = recording((url) => (down && partOf(url) === 3 ? new TransferError(0, 'upload of IMG_2.CR2 failed: ECONNRESET') : null));
    const uploader = new Uploader(client, 'i2i', uuid, transport, { multipartThreshold: MiB, partSize: 5 * MiB, retryDelayMs: () => 0 });
    const [failed] = await uploader.upload([photo]);
    assert.equal(failed!.state, 'failed');
    assert.equal(failed!.error, 'upload of IMG_2.CR2 failed: ECONNRESET');
    assert.deepEqual(puts.map(partOf).sort(), [1, 2, 3, 3, 3], 'three tries of part 3');
    down = false;
    puts.length = 0;
    const [done] = await uploader.upload([photo]);
    assert.equal(done!.state, 'done', done!.error);
    assert.deepEqual(puts.map(partOf), [3]);
    assert.ok((await stored(uuid, 'IMG_2.CR2')).equals(bytes));
  });

  test('a refusal is not tried again; small files go up in one PUT each, several at once', async () => {
    const uuid = await client.createProject('i2i');
    const photos = ['A.jpg', 'B.jpg', 'C.jpg'].map((name) => photoOnDisk(name, crypto.randomBytes(1000)));
    const { transport, puts, flight } = recording((url) => (url.includes('/B.jpg?') ? new TransferError(403, 'upload of B.jpg was refused: 403 The signature of this link is not valid.') : null));
    const results = await new Uploader(client, 'i2i', uuid, transport, { retryDelayMs: () => 0 }).upload(photos);
    assert.deepEqual(
      results.map((r) => r.state),
      ['done', 'failed', 'done'],
    );
    assert.equal(puts.filter((u) => u.includes('/B.jpg?')).length, 1);
    assert.ok(puts.every((u) => !u.includes('partNumber')));
    assert.equal(flight.most, 3, 'the three PUTs were in flight together');
    assert.ok((await stored(uuid, 'C.jpg')).equals(fs.readFileSync(photos[2]!.path)));
  });
});
