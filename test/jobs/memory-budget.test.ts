import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryBudget } from '../../src/jobs/memory-budget.js';

const tick = () => new Promise((r) => setImmediate(r));

test('tasks that fit run at once; one that does not waits until memory is given back', async () => {
  const budget = new MemoryBudget(100);
  const first = await budget.acquire(60);
  let secondIn = false;
  const second = budget.acquire(60).then((release) => {
    secondIn = true;
    return release;
  });
  await tick();
  assert.equal(secondIn, false, 'waits: 60 + 60 > 100');
  assert.equal(budget.inUse, 60);
  first();
  const release = await second;
  assert.equal(secondIn, true);
  assert.equal(budget.inUse, 60);
  release();
  release();
  assert.equal(budget.inUse, 0, 'giving back twice gives back once');
});

test('first come, first served: a small task does not overtake a waiting large one', async () => {
  const budget = new MemoryBudget(100);
  const running = await budget.acquire(50);
  const order: string[] = [];
  const large = budget.acquire(80).then((r) => {
    order.push('large');
    return r;
  });
  const small = budget.acquire(10).then((r) => {
    order.push('small');
    return r;
  });
  await tick();
  assert.deepEqual(order, [], 'the small one would fit, but the large one came first');
  running();
  (await large)();
  (await small)();
  assert.deepEqual(order, ['large', 'small']);
});

test('a task larger than the whole budget takes all of it and runs alone', async () => {
  const budget = new MemoryBudget(100);
  const huge = await budget.acquire(250);
  assert.equal(budget.inUse, 100);
  let otherIn = false;
  const other = budget.acquire(1).then((r) => {
    otherIn = true;
    return r;
  });
  await tick();
  assert.equal(otherIn, false);
  huge();
  (await other)();
  assert.equal(budget.inUse, 0);
});
