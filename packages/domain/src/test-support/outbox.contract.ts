import { beforeEach, describe, expect, it } from 'vitest';
import type { NewMessage } from '../mail/message.js';
import type { Outbox } from '../mail/ports.js';

const T0 = 1_767_225_600_000;
const LEASE = 25_000;

/** A message asked for at `requestedAt`, with a token of 32 bytes like the real ones. */
function message(overrides: Partial<NewMessage> = {}): NewMessage {
  return {
    kind: 'password-reset',
    to: 'alice@example.com',
    token: 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c',
    requestedAt: T0,
    ...overrides,
  };
}

/**
 * The behaviour every `Outbox` must have. `makeOutbox` is called before each test and must return
 * an outbox over an empty store.
 */
export function describeOutboxContract(adapterName: string, makeOutbox: () => Outbox | Promise<Outbox>): void {
  describe(`Outbox contract: ${adapterName}`, () => {
    let outbox: Outbox;
    beforeEach(async () => {
      outbox = await makeOutbox();
    });

    it('stores a message due at once, with no attempts and a new id, and gives it back as it was accepted', async () => {
      const notice: NewMessage = { kind: 'email-changed', to: 'old@example.com', newEmail: 'new@example.com', requestedAt: T0 };
      const added = await outbox.add(notice);
      expect(added).toStrictEqual({ ...notice, id: expect.any(String), attempts: 0, nextAttemptAt: T0 });
      expect(added.id.length).toBeGreaterThan(0);
      expect(await outbox.claim('a', T0, T0 + LEASE, 10)).toStrictEqual([added]);
    });

    it('gives a claimed message its token back exactly', async () => {
      const added = await outbox.add(message());
      const [claimed] = await outbox.claim('a', T0, T0 + LEASE, 10);
      expect(claimed?.token).toBe(message().token);
      expect(claimed).toStrictEqual(added);
    });

    it('gives distinct ids to distinct messages', async () => {
      const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => outbox.add(message({ requestedAt: T0 + i }))));
      expect(new Set(ids.map((added) => added.id)).size).toBe(20);
    });

    it('claims only what is due, the earliest due first, at most max', async () => {
      const later = await outbox.add(message({ requestedAt: T0 + 2 }));
      const first = await outbox.add(message({ requestedAt: T0 }));
      const notYet = await outbox.add(message({ requestedAt: T0 + 10_000 }));
      expect((await outbox.claim('a', T0 + 5, T0 + LEASE, 1)).map((m) => m.id)).toEqual([first.id]);
      expect((await outbox.claim('a', T0 + 5, T0 + LEASE, 10)).map((m) => m.id)).toEqual([later.id]);
      expect(await outbox.claim('a', T0 + 5, T0 + LEASE, 10)).toEqual([]);
      expect((await outbox.claim('a', T0 + 10_000, T0 + 10_000 + LEASE, 10)).map((m) => m.id)).toEqual([notYet.id]);
    });

    it('holds a claimed message for its holder until the lease ends, then lets another claim it', async () => {
      const added = await outbox.add(message());
      expect(await outbox.claim('a', T0, T0 + LEASE, 10)).toHaveLength(1);
      expect(await outbox.claim('b', T0 + LEASE - 1, T0 + 2 * LEASE, 10)).toEqual([]);
      expect(await outbox.claim('a', T0 + LEASE - 1, T0 + 2 * LEASE, 10)).toEqual([]);
      expect((await outbox.claim('b', T0 + LEASE, T0 + 2 * LEASE, 10)).map((m) => m.id)).toEqual([added.id]);
    });

    it('removes a message for its holder only: a holder whose lease was taken over removes nothing', async () => {
      const added = await outbox.add(message());
      await outbox.claim('a', T0, T0 + LEASE, 10);
      await outbox.claim('b', T0 + LEASE, T0 + 2 * LEASE, 10);
      await outbox.remove(added.id, 'a');
      expect(await outbox.claim('c', T0 + 2 * LEASE, T0 + 3 * LEASE, 10)).toHaveLength(1);
      await outbox.remove(added.id, 'c');
      expect(await outbox.claim('d', T0 + 4 * LEASE, T0 + 5 * LEASE, 10)).toEqual([]);
    });

    it('releases a failed message for a later attempt: one more attempt, due at the time given, claimable at once then', async () => {
      const added = await outbox.add(message());
      await outbox.claim('a', T0, T0 + LEASE, 10);
      await outbox.retryLater(added.id, 'a', T0 + 5_000);
      expect(await outbox.claim('b', T0 + 4_999, T0 + LEASE, 10)).toEqual([]);
      expect(await outbox.claim('b', T0 + 5_000, T0 + 5_000 + LEASE, 10)).toStrictEqual([{ ...added, attempts: 1, nextAttemptAt: T0 + 5_000 }]);
      await outbox.retryLater(added.id, 'a', T0 + 6_000);
      expect(await outbox.claim('c', T0 + 6_000, T0 + 6_000 + LEASE, 10)).toEqual([]);
    });

    it('hands each of many messages to exactly one of many holders claiming at once', async () => {
      const added = await Promise.all(Array.from({ length: 30 }, (_, i) => outbox.add(message({ requestedAt: T0 + (i % 3) }))));
      const claims = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((holder) => outbox.claim(holder, T0 + 10, T0 + LEASE, 8)));
      const claimed = claims.flat().map((m) => m.id);
      expect(claimed).toHaveLength(new Set(claimed).size);
      const rest = await outbox.claim('f', T0 + 10, T0 + LEASE, 100);
      expect([...claimed, ...rest.map((m) => m.id)].sort()).toEqual(added.map((m) => m.id).sort());
    });
  });
}
