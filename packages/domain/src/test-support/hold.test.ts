import { describe, expect, it } from 'vitest';
import { holdNextCall } from './hold.js';

class Counter {
  count = 0;
  async add(by: number): Promise<number> {
    this.count += by;
    return this.count;
  }
}

describe('holdNextCall', () => {
  it('holds the next call before it runs, with its arguments, until released; later calls run at once', async () => {
    const counter = new Counter();
    const held = holdNextCall(counter, 'add');
    const first = counter.add(1);
    expect(await held.reached).toEqual([1]);
    expect(await counter.add(10)).toBe(10);
    expect(counter.count).toBe(10);
    held.release();
    expect(await first).toBe(11);
  });

  it('puts the method back as it was, on an instance (a prototype method) and on a plain object (its own)', async () => {
    const counter = new Counter();
    holdNextCall(counter, 'add').release();
    await counter.add(1);
    expect(Object.prototype.hasOwnProperty.call(counter, 'add')).toBe(false);
    const plain = { add: async (by: number) => by };
    const original = plain.add;
    holdNextCall(plain, 'add').release();
    await plain.add(1);
    expect(plain.add).toBe(original);
  });

  it('stacks: each hold takes one call, in the order the calls come', async () => {
    const counter = new Counter();
    const one = holdNextCall(counter, 'add');
    const two = holdNextCall(counter, 'add');
    const a = counter.add(1);
    const b = counter.add(2);
    expect([await two.reached, await one.reached]).toEqual([[1], [2]]);
    one.release();
    expect(await b).toBe(2);
    two.release();
    expect(await a).toBe(3);
  });
});
