import { describe, expect, it, vi } from 'vitest';
import { crossing, holdNextCall } from './hold.js';

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

describe('crossing', () => {
  it('runs the second request while the first is held, then lets the first go on and settles as it does', async () => {
    const counter = new Counter();
    const order: string[] = [];
    const first = async () => (order.push('first starts'), await counter.add(1));
    const second = async () => (order.push('second runs'), await counter.add(10));
    expect(await crossing(holdNextCall(counter, 'add'), first, second)).toBe(11);
    expect(order).toEqual(['first starts', 'second runs']);
  });

  it('fails at once when the first request settles without reaching the hold', async () => {
    const counter = new Counter();
    const second = vi.fn(async () => undefined);
    await expect(crossing(holdNextCall(counter, 'add'), async () => 'done', second)).rejects.toThrow(/without reaching the hold/);
    await expect(crossing(holdNextCall(counter, 'add'), () => Promise.reject(new Error('refused')), second)).rejects.toThrow('refused');
    expect(second).not.toHaveBeenCalled();
  });
});
