import type { Logger } from '@inkwell/adapters-http';
import { isDomainError, type Clock, type DeliveryOutcome, type Outbox, type OutboxMessage } from '@inkwell/domain';
import { randomBytes, randomInt } from 'node:crypto';
import { SmtpFailure } from './adapters/smtp-mail-sender.js';

/** How a process delivers the outbox's messages. */
export interface DeliveryTiming {
  /**
   * How long a claimed message is this process's alone, counted by the outbox from when it grants
   * (or renews) the lease. A process that dies holding one lets another take it once this has
   * passed (plus at most one poll): 25 s, so within 30 s; unless it died past its send's point of
   * no return, whose lease covers the wait for the mail server's answer besides (`commit`).
   */
  readonly leaseMs: number;
  /** How often the lease of a message being delivered is renewed: a send may take far longer than a lease (RFC 5321 gives the last reply 10 minutes). */
  readonly renewEveryMs: number;
  /**
   * How long before its lease could end a delivery stops when it could not renew the lease (the
   * store did not answer): it then sends nothing more, so that no other process can take the
   * message while this one may still send it.
   */
  readonly leaseMarginMs: number;
  /** How often it looks for due messages: those other processes added, and retries coming due. */
  readonly pollMs: number;
  /**
   * How long after a message is added in this process the loop looks for it, at most: a random
   * wait from 0 to this, so that the work a delivery costs does not follow the request that asked
   * for it at a time a client can predict (what follows a reset request must not tell whether
   * an account has the address).
   */
  readonly wakeJitterMs: number;
  /** Messages it delivers at once. */
  readonly concurrency: number;
  /** How long `stop` waits for the deliveries in flight before it calls them off. */
  readonly stopGraceMs: number;
}

/**
 * 25 s leases renewed every 5 s and given up 5 s before they could end, a look every second and
 * within a second of a message added here, four at once; a stop waits 10 s at most, as for
 * requests in flight.
 */
export const DEFAULT_DELIVERY_TIMING: DeliveryTiming = {
  leaseMs: 25_000,
  renewEveryMs: 5_000,
  leaseMarginMs: 5_000,
  pollMs: 1_000,
  wakeJitterMs: 1_000,
  concurrency: 4,
  stopGraceMs: 10_000,
};

/** What the loop needs: where messages wait, how one is delivered, the time, and where to say what happened. */
export interface DeliveryLoopOptions {
  readonly outbox: Outbox;
  /**
   * Delivers one message this process holds, and moves it on in the outbox (`deliverMessage`);
   * `lease` aborts once the loop can no longer count on its lease of the message. `commit`, asked
   * at the send's point of no return, resolves once the lease covers `holdMs` more (the rest of
   * the send) and rejects (aborting `lease`) when that could not be had in time. `sent` is called
   * once the mail server accepted the mail: from then on the message must only be removed, never
   * handed to another holder.
   */
  readonly deliver: (message: OutboxMessage, holder: string, lease: AbortSignal, commit: (holdMs: number) => Promise<void>, sent: () => void) => Promise<DeliveryOutcome>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly timing?: Partial<DeliveryTiming>;
}

/** The loop that delivers mail from one process. */
export interface DeliveryLoop {
  /** The name this process claims messages under, new for every loop. */
  readonly holder: string;
  /** Starts looking for due messages: at once, then every `pollMs`. */
  start(): void;
  /** Looks at once, rather than at the next poll. */
  wake(): void;
  /** Looks within `wakeJitterMs`, at a random moment, rather than at the next poll: a message was just added in this process. */
  wakeSoon(): void;
  /** Claims nothing more from now on; the deliveries in flight go on. */
  stopClaiming(): void;
  /**
   * Stops claiming, and resolves once the deliveries in flight have finished, or after
   * `stopGraceMs` (with a warning), when it calls them off: a message still in flight then is
   * left to its lease, but one past its point of no return is handed back, due at once (its long
   * lease would keep it from everyone for the mail server's 10 minutes).
   */
  stop(): Promise<void>;
}

/** How many times a hand-back is tried while the store fails. */
const HAND_BACK_TRIES = 5;

/** Why a delivery's lease was given up. */
class LeaseLost extends Error {
  override readonly name = 'LeaseLost';
}

/**
 * The delivery loop every process runs: it claims due messages under its own holder name with a
 * lease (so one process sends a message at a time, and a dead process's messages are taken over
 * once their lease ends), hands each to `deliver`, and logs what became of it, never with its
 * token or its address. It looks every `pollMs` and whenever `wake` says a message was added
 * here, and claims again as soon as a delivery ends, while it has room. A store that fails is
 * logged once per outage; the loop goes on looking.
 *
 * While a message is being delivered its lease is renewed every `renewEveryMs`, so a send outlives
 * the lease however slow the mail server is. The loop counts how long it may still rely on the
 * lease from before it asked (for the claim or the last renewal that succeeded), on this process's
 * monotonic clock: once a renewal says another holder has the message, or once the lease could
 * end within `leaseMarginMs` without a renewal having succeeded (the store is unreachable or too
 * slow), the delivery's `lease` aborts, and it sends nothing more. A message this process is still
 * delivering is never delivered a second time, should a claim of this process get it again.
 *
 * A send's point of no return (the end of SMTP's DATA, past which the server may accept the mail
 * however the sender then fares) is gated: the sender asks `commit(holdMs)` first, and the loop
 * asks the store for one lease covering `holdMs` (the sender's wait for the answer) plus
 * `leaseMs` (to record the outcome), counted from before it asked. Only when the store grants it
 * before the current lease could end within `leaseMarginMs` does the end go; otherwise `lease`
 * aborts and the send stops without it, so the server has nothing and the next holder sends the
 * mail once. Past that point renewals stop (the long lease already covers the send, and a renewal
 * never shortens it) and `lease` aborts only once the long lease could end, by when the sender
 * has given up. So while this process is alive and running, no other holder gets a message whose
 * mail the server may still accept from it.
 */
export function createDeliveryLoop(options: DeliveryLoopOptions): DeliveryLoop {
  const timing = { ...DEFAULT_DELIVERY_TIMING, ...options.timing };
  const { outbox, clock, logger } = options;
  const holder = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const inFlight = new Map<string, { readonly done: Promise<void>; readonly lease: AbortController; readonly committed: () => boolean; readonly sent: () => boolean }>();
  /** Hand-backs still trying to reach the store: `stop` waits for them. */
  const handingBack = new Set<Promise<void>>();
  /** How long to wait between two tries of a write the store failed (a hand-back, a removal, a commit). */
  const retryMs = Math.min(timing.renewEveryMs, 1_000);
  /** Waits `retryMs`, or until `signal` aborts. */
  const pause = (signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, retryMs).unref();
      signal?.addEventListener('abort', done, { once: true });
    });
  let started = false;
  let claiming: Promise<void> | undefined;
  let claimAgain = false;
  let stopped = false;
  let storeFailing = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(look, timing.pollMs).unref();
  };

  /**
   * Renews `message`'s lease while it is delivered; aborts `lease` when the lease cannot be counted
   * on. `commit` takes the long lease of the send's point of no return; `release` stops it all.
   */
  const keepLease = (message: OutboxMessage, askedAt: number, lease: AbortController) => {
    let heldUntil = askedAt + timing.leaseMs;
    let renewing = false;
    let committed = false;
    let deadline: NodeJS.Timeout | undefined;
    const giveUp = (reason: string) => {
      if (!lease.signal.aborted) lease.abort(new LeaseLost(reason));
    };
    const armDeadline = () => {
      clearTimeout(deadline);
      deadline = setTimeout(() => giveUp('could not be renewed in time'), Math.max(0, heldUntil - timing.leaseMarginMs - performance.now())).unref();
    };
    const renew = async () => {
      if (renewing || committed || lease.signal.aborted) return;
      renewing = true;
      const asked = performance.now();
      try {
        if (await outbox.renew(message.id, holder, clock.now(), timing.leaseMs)) {
          heldUntil = Math.max(heldUntil, asked + timing.leaseMs);
          armDeadline();
        } else giveUp('taken over by another holder');
      } catch {
        // The store did not answer: the deadline decides, and the next tick tries again.
      } finally {
        renewing = false;
      }
    };
    armDeadline();
    const ticker = setInterval(() => void renew(), timing.renewEveryMs).unref();

    /**
     * One lease for the rest of the send, asked of the store until it answers or the current lease
     * could end within its margin (the deadline aborts `lease`): a grant that comes later counts for
     * nothing here, and the message is handed back, since nothing of the send's end went out. The
     * short renewals stop at the question: it is the renewal now, and the deadline stays where the
     * last of them put it.
     */
    const commit = async (holdMs: number): Promise<void> => {
      const longMs = holdMs + timing.leaseMs;
      clearInterval(ticker);
      for (;;) {
        lease.signal.throwIfAborted();
        const asked = performance.now();
        let granted: boolean;
        try {
          granted = await untilAborted(outbox.renew(message.id, holder, clock.now(), longMs), lease.signal);
        } catch {
          lease.signal.throwIfAborted();
          // The store failed at once: ask again shortly, while the deadline allows.
          await pause(lease.signal);
          continue;
        }
        if (!granted) giveUp('taken over by another holder');
        lease.signal.throwIfAborted();
        committed = true;
        heldUntil = Math.max(heldUntil, asked + longMs);
        armDeadline();
        return;
      }
    };
    return {
      commit: async (holdMs: number) => {
        // A long lease the store may still grant, or granted too late, is given back: from the
        // abort itself, so that a stop, which aborts, finds the hand-back under way and waits for it.
        const lost = () => void handBack(message.id);
        lease.signal.addEventListener('abort', lost, { once: true });
        try {
          await commit(holdMs);
        } finally {
          lease.signal.removeEventListener('abort', lost);
        }
      },
      committed: () => committed,
      release: () => {
        clearInterval(ticker);
        clearTimeout(deadline);
      },
    };
  };

  /**
   * Makes a message this process holds due at once for whoever claims it next, trying
   * `HAND_BACK_TRIES` times while the store fails (a long lease it granted would otherwise keep the
   * message from everyone for the mail server's 10 minutes); past them it is left to its lease.
   * `stop` waits for it.
   */
  const handBack = (id: string): Promise<void> => {
    const trying = (async () => {
      for (let tries = 1; ; tries++) {
        try {
          await outbox.retryLater(id, holder, clock.now());
          return;
        } catch {
          if (tries >= HAND_BACK_TRIES) return;
          await pause();
        }
      }
    })();
    handingBack.add(trying);
    void trying.finally(() => handingBack.delete(trying));
    return trying;
  };

  /**
   * Removes a message whose mail the server accepted, trying again while the store fails and the
   * lease lasts (the long lease of its point of no return, or renewed): whoever held it next would
   * send the mail again. Resolves whether it was removed.
   */
  const removeSent = async (id: string, lease: AbortSignal): Promise<boolean> => {
    while (!lease.aborted) {
      try {
        await outbox.remove(id, holder);
        return true;
      } catch {
        await pause(lease);
      }
    }
    return false;
  };

  const deliver = (message: OutboxMessage, askedAt: number) => {
    const lease = new AbortController();
    const { commit, committed, release } = keepLease(message, askedAt, lease);
    let sent = false;
    const done = options
      .deliver(message, holder, lease.signal, commit, () => (sent = true))
      .then(
        (outcome) => logOutcome(logger, message, outcome),
        async (error: unknown) => {
          if (sent && (await removeSent(message.id, lease.signal))) return logOutcome(logger, message, { status: 'sent' });
          logger.warn(
            { messageId: message.id, kind: message.kind, error: describe(error) },
            sent
              ? 'mail: sent, but the store did not let it be removed; whoever holds it once its lease ends sends it again'
              : 'mail: delivery failed on the store; the message is tried again once its lease ends',
          );
        },
      )
      .finally(() => {
        release();
        inFlight.delete(message.id);
        look();
      });
    inFlight.set(message.id, { done, lease, committed, sent: () => sent });
  };

  /**
   * Claims one message, and looks again at once when it got one: a message's lease is counted
   * from before its own claim was asked, and its renewals start with its delivery, so a claim of
   * several at a time would start the last one's delivery several round trips into its lease.
   */
  async function claim(): Promise<void> {
    if (timing.concurrency - inFlight.size <= 0) return;
    const askedAt = performance.now();
    let claimed: OutboxMessage[];
    try {
      claimed = await outbox.claim(holder, clock.now(), timing.leaseMs, 1);
    } catch (error) {
      if (!storeFailing) logger.warn({ error: describe(error) }, 'mail: cannot claim messages; trying again every poll');
      storeFailing = true;
      return;
    }
    if (storeFailing) logger.info({}, 'mail: claiming messages again');
    storeFailing = false;
    // Claimed means held: deliver it even if the loop stopped meanwhile, within the stop's grace;
    // one still being delivered here (its lease ran out, and this claim got it back) goes on as it is.
    for (const message of claimed) if (!inFlight.has(message.id)) deliver(message, askedAt);
    if (claimed.length > 0) claimAgain = true;
  }

  function look(): void {
    if (!started || stopped) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claimAgain = false;
    claiming = claim().finally(() => {
      claiming = undefined;
      if (claimAgain) look();
      else schedule();
    });
  }

  return {
    holder,
    start() {
      if (started) return;
      started = true;
      look();
    },
    wake: look,
    wakeSoon() {
      setTimeout(look, randomInt(timing.wakeJitterMs + 1)).unref();
    },
    stopClaiming() {
      stopped = true;
      clearTimeout(timer);
    },
    async stop() {
      this.stopClaiming();
      const graceOver = Symbol('grace over');
      let graceTimer: NodeJS.Timeout | undefined;
      const grace = new Promise<typeof graceOver>((resolve) => (graceTimer = setTimeout(() => resolve(graceOver), timing.stopGraceMs)));
      // A claim under way may add deliveries once it resolves, so it is waited for first.
      const settled = (async () => {
        while (claiming || inFlight.size > 0) {
          await claiming;
          await Promise.all([...inFlight.values()].map((delivery) => delivery.done));
        }
      })();
      const result = await Promise.race([settled, grace]);
      clearTimeout(graceTimer);
      if (result === graceOver) {
        logger.warn({ inFlight: inFlight.size, graceMs: timing.stopGraceMs }, 'mail: stopping with deliveries in flight; they are called off, and their messages tried again once their lease ends');
        // Past its point of no return a message is handed back, unless the server accepted its
        // mail: that one is left to its lease, and sent again only if this process never removes it.
        for (const [id, { lease, committed, sent }] of inFlight) {
          lease.abort(new LeaseLost('the process is stopping'));
          if (committed() && !sent()) handBack(id);
        }
      }
      await Promise.all(handingBack);
    },
  };
}

/** Resolves as `promise` does, or rejects with `signal`'s reason once it aborts, whichever comes first. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error as Error)),
    );
  });
}

/** Logs what became of a message: its id, kind and attempts, the reason or the error; never its token or address. */
function logOutcome(logger: Logger, message: OutboxMessage, outcome: DeliveryOutcome): void {
  const about = { messageId: message.id, kind: message.kind, attempts: message.attempts + 1 };
  switch (outcome.status) {
    case 'sent':
      return logger.info(about, 'mail: sent');
    case 'dropped':
      return logger.info({ ...about, reason: outcome.reason }, `mail: dropped (${outcome.reason}), nothing sent`);
    case 'retried':
      return logger.warn(
        { ...about, nextAttemptAt: new Date(outcome.nextAttemptAt).toISOString(), error: describe(outcome.error) },
        'mail: not accepted by the mail server; trying again later',
      );
    case 'expired':
      return logger.error(
        { ...about, ...(outcome.error === undefined ? {} : { error: describe(outcome.error) }) },
        'mail: dropped, not delivered within 24 hours of the request',
      );
    case 'abandoned':
      return logger.warn(
        { ...about, ...(outcome.error === undefined ? {} : { error: describe(outcome.error) }) },
        'mail: stopped, its lease could not be kept; left to whoever holds it next',
      );
  }
}

/**
 * What a log line says of a failure, none of it personal data: an SMTP failure by its kind, code,
 * reply code and command (never the server's reply text, which names addresses); a domain error by
 * its code; anything else by its name and code, without its message (a driver's or a socket's
 * message may quote what it was handed).
 */
function describe(error: unknown): Record<string, unknown> {
  if (error instanceof SmtpFailure) {
    const { kind, code, responseCode, command } = error;
    return { name: error.name, kind, ...(code === undefined ? {} : { code }), ...(responseCode === undefined ? {} : { responseCode }), ...(command === undefined ? {} : { command }) };
  }
  if (isDomainError(error)) return { name: error.name, code: error.code };
  if (!(error instanceof Error)) return { name: typeof error };
  const { code } = error as { code?: unknown };
  return { name: error.name, ...(typeof code === 'string' && /^[A-Za-z0-9_.-]{1,48}$/.test(code) ? { code } : typeof code === 'number' ? { code } : {}) };
}
