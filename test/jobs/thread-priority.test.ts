import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { test } from 'node:test';
import sharp from '../../src/imaging/sharp.js';
import { ImagingPool } from '../../src/jobs/imaging-pool.js';
import { MemoryBudget } from '../../src/jobs/memory-budget.js';

interface ThreadState {
  tid: number;
  name: string;
  nice: number;
}

/** Every thread of this process with its name and nice value (/proc/self/task/<tid>/stat: the name is in parentheses and may hold spaces). */
function threads(): ThreadState[] {
  return fs.readdirSync('/proc/self/task').flatMap((t) => {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // After the name: state is field 3, nice field 19.
      return [{ tid: Number(t), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), nice: Number(fields[19 - 3]) }];
    } catch {
      return [];
    }
  });
}

const linux = fs.existsSync('/proc/thread-self');
/** The test's own priority (it may itself run under nice), and three steps below it. */
const base = os.getPriority();
const nice = Math.min(19, base + 3);

test('imaging threads and libvips workers run IMAGING_NICE levels below the process; the thread that answers requests keeps its priority', {
  skip: (!linux && 'needs /proc') || (nice === base && 'already at the lowest priority'),
}, async () => {
  const before = new Set(threads().map((t) => t.tid));
  const pool = new ImagingPool(2, { budget: new MemoryBudget(2 ** 30), maxMegapixels: 100 }, 3);
  try {
    const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 140, b: 200 } } })
      .jpeg()
      .toBuffer();
    // Two at once, so that both threads have started and libvips has made its workers.
    await Promise.all([pool.thumbnail({ fileName: 'a.jpg', bytes: jpeg }), pool.thumbnail({ fileName: 'b.jpg', bytes: Buffer.from(jpeg) })]);
    const deadline = Date.now() + 5000;
    let state = threads();
    // libvips' workers are found by a scan once a second.
    while (Date.now() < deadline && state.some((t) => t.name === 'libvips worker' && t.nice !== nice)) {
      await new Promise((r) => setTimeout(r, 200));
      state = threads();
    }
    const vips = state.filter((t) => t.name === 'libvips worker');
    assert.ok(vips.length > 0, 'libvips has workers');
    assert.deepEqual(
      vips.filter((t) => t.nice !== nice),
      [],
      'every libvips worker is lowered',
    );
    const lowered = state.filter((t) => !before.has(t.tid) && t.name !== 'libvips worker' && t.nice === nice);
    assert.ok(lowered.length >= 2, `the two imaging threads are lowered: ${JSON.stringify(state)}`);
    assert.equal(state.find((t) => t.tid === process.pid)!.nice, base, 'the main thread keeps its priority');
  } finally {
    await pool.close();
  }
});
