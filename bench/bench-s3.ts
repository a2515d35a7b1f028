import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3Server } from '../test/support/s3-server.js';
import { curlPut, makeUploadFile, peakRssMiB, startRetouch, uploadLinkOf } from './bench-upload.js';
import type { Section } from './report.js';
import { ensureDebianTool, fixed, median } from './tools.js';

const FILE_BYTES = 256 * 1024 * 1024;
const RUNS = 5;

/**
 * Presigned PUT of the same 256 MiB file (curl -T, loopback) to the embedded store (retouch
 * serves the link) and to an S3 bucket (the link points at the S3-protocol server the tests
 * use; retouch only signs it), alternating.
 */
export async function benchS3(): Promise<Section> {
  ensureDebianTool('curl', 'curl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retouch-bench-s3-'));
  const s3 = await startS3Server();
  s3.createBucket('bench');
  const embedded = await startRetouch(path.join(dir, 'embedded'));
  const onS3 = await startRetouch(path.join(dir, 's3'), s3.env('bench'));
  try {
    const file = makeUploadFile(dir, FILE_BYTES);
    const links = { embedded: (await uploadLinkOf(embedded, 'IMG_0001.CR2')).uploadLink, s3: (await uploadLinkOf(onS3, 'IMG_0001.CR2')).uploadLink };
    const times = { embedded: [] as number[], s3: [] as number[] };
    const load: number[] = [];
    await curlPut(file, links.embedded);
    await curlPut(file, links.s3);
    for (let i = 0; i < RUNS; i++) {
      load.push(os.loadavg()[0]!);
      times.embedded.push(await curlPut(file, links.embedded));
      times.s3.push(await curlPut(file, links.s3));
    }
    const mbps = (seconds: number) => FILE_BYTES / 1e6 / seconds;
    const [ours, bucket] = [mbps(median(times.embedded)), mbps(median(times.s3))];
    return {
      title: 'Presigned PUT of 256 MiB: embedded store vs S3 bucket (loopback, curl -T)',
      columns: ['store', 'median MB/s', 'runs (s)', 'retouch peak RSS (MiB)'],
      rows: [
        ['embedded (retouch /storage)', fixed(ours, 0), times.embedded.map((s) => fixed(s)).join(', '), fixed(peakRssMiB(embedded.child.pid!), 0)],
        ['S3 (test S3-protocol server)', fixed(bucket, 0), times.s3.map((s) => fixed(s)).join(', '), fixed(peakRssMiB(onS3.child.pid!), 0)],
      ],
      notes: [
        `ratio S3 / embedded = ${fixed(bucket / ours)}; ${RUNS} alternating runs after one warm-up each; 1-minute load average ${load.map((l) => fixed(l)).join(', ')}`,
        'with S3 the bytes go to the bucket, not through retouch (its RSS stays that of an idle server); the S3 side is the in-memory test server, so this measures the path, not AWS',
      ],
    };
  } finally {
    embedded.child.kill('SIGTERM');
    onS3.child.kill('SIGTERM');
    await s3.close();
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
