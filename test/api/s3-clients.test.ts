import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { downloadAll, waitForEnd } from '../support/flow.js';
import { jpegOf, testScene } from '../support/photos.js';
import { startS3Server } from '../support/s3-server.js';
import { sqlite, startTestServer } from '../support/server.js';

const run = promisify(execFile);

describe('standard S3 clients share the bucket with retouch (s3cmd, curl)', async () => {
  const s3 = await startS3Server();
  s3.createBucket('shared');
  const t = await startTestServer(sqlite, s3.env('shared'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-s3-clients-'));
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await s3.close();
  });
  const s3cmdConfig = path.join(dir, 's3cfg');
  const host = new URL(s3.endpoint).host;
  fs.writeFileSync(s3cmdConfig, `[default]\naccess_key = ${s3.accessKeyId}\nsecret_key = ${s3.secretAccessKey}\nhost_base = ${host}\nhost_bucket = ${host}\nuse_https = False\nsignature_v2 = False\nbucket_location = ${s3.region}\n`);
  const s3cmd = (...args: string[]) => run('s3cmd', ['-c', s3cmdConfig, ...args]);

  test("curl -T puts a photo through retouch's presigned link with an empty Content-Type; s3cmd reads what retouch delivered", async () => {
    const photo = path.join(dir, 'IMG_1.jpg');
    fs.writeFileSync(photo, await jpegOf(testScene(160, 120, 7)));
    const { project_uuid: uuid } = (await t.api.post('/v1/i2i/projects', {})).json.data;
    const links = await t.api.post(`/v1/i2i/projects/${uuid}/get_temporary_upload_links`, { files_list: [{ file_name: 'IMG_1.jpg' }] });
    const { stdout: status } = await run('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'PUT', '-H', 'Content-Type:', '-T', photo, links.json.data.files_list[0].upload_link]);
    assert.equal(status, '200');
    assert.equal((await t.api.post(`/v1/i2i/projects/${uuid}/edit`, {})).status, 200);
    assert.equal((await waitForEnd(t.api, `/v1/i2i/projects/${uuid}`)).status, 'Completed');

    const { stdout: listing } = await s3cmd('ls', `s3://shared/projects/${uuid}/i2i/`);
    assert.match(listing, new RegExp(`s3://shared/projects/${uuid}/i2i/IMG_1\\.jpg`));
    const fetched = path.join(dir, 'fetched.jpg');
    await s3cmd('get', '--force', `s3://shared/projects/${uuid}/i2i/IMG_1.jpg`, fetched);
    const delivered = await downloadAll((await t.api.get(`/v1/i2i/projects/${uuid}/get_temporary_download_links`)).json.data.files_list);
    assert.ok(fs.readFileSync(fetched).equals(delivered['IMG_1.jpg']!), 's3cmd reads the bytes the download link serves');
    const original = path.join(dir, 'original.jpg');
    await s3cmd('get', '--force', `s3://shared/projects/${uuid}/originals/IMG_1.jpg`, original);
    assert.ok(fs.readFileSync(original).equals(fs.readFileSync(photo)), 'the submitted original is what curl sent');
  });
});
