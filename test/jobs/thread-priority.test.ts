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

test('every thread but the one that answers requests runs IMAGING_NICE levels below the process: imaging threads, libvips, libuv and V8 workers', {
  skip: (!linux && 'needs /proc') || (nice === base && 'already at the lowest priority'),
}, async () => {
  const pool = new ImagingPool(2, { budget: new MemoryBudget(2 ** 30), maxMegapixels: 100 }, 3);
  try {
    const jpeg = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 90, g: 140, b: 200 } } })
      .jpeg()
      .toBuffer();
    // Two at once, so that both threads have started and libvips has made its workers.
    await Promise.all([pool.thumbnail({ fileName: 'a.jpg', bytes: jpeg }), pool.thumbnail({ fileName: 'b.jpg', bytes: Buffer.from(jpeg) })]);
    const others = () => threads().filter((t) => t.tid !== process.pid);
    const deadline = Date.now() + 5000;
    // New threads are found by a scan once a second.
    while (Date.now() < deadline && others().some((t) => t.nice !== nice)) await new Promise((r) => setTimeout(r, 200));
    const state = others();
    assert.ok(state.filter((t) => t.name === 'libvips worker').length > 0, 'libvips has workers');
    assert.ok(state.length >= 2 + 4 + 4, `imaging, libuv and V8 threads are there: ${JSON.stringify(state)}`);
    assert.deepEqual(
      state.filter((t) => t.nice !== nice),
      [],
      'every other thread is lowered',
    );
    assert.equal(threads().find((t) => t.tid === process.pid)!.nice, base, 'the main thread keeps its priority');
  } finally {
    await pool.close();
  }
});
