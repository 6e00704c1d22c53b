import type { Logger } from '@inkwell/adapters-http';
import type { Clock, DeliveryOutcome, Outbox, OutboxMessage } from '@inkwell/domain';
import { randomBytes } from 'node:crypto';

/** How a process delivers the outbox's messages. */
export interface DeliveryTiming {
  /**
   * How long a claimed message is this process's alone. A process that dies holding one lets
   * another take it once this has passed (plus at most one poll): 25 s, so within 30 s. Every
   * send is bounded well inside it (the SMTP sender gives up after 15 s).
   */
  readonly leaseMs: number;
  /** How often it looks for due messages: those other processes added, and retries coming due. */
  readonly pollMs: number;
  /** Messages it delivers at once. */
  readonly concurrency: number;
  /** How long `stop` waits for the deliveries in flight before it gives up on them. */
  readonly stopGraceMs: number;
}

/** 25 s leases, a look every second, four at once; a stop waits 10 s at most, as for requests in flight. */
export const DEFAULT_DELIVERY_TIMING: DeliveryTiming = { leaseMs: 25_000, pollMs: 1_000, concurrency: 4, stopGraceMs: 10_000 };

/** What the loop needs: where messages wait, how one is delivered, the time, and where to say what happened. */
export interface DeliveryLoopOptions {
  readonly outbox: Outbox;
  /** Delivers one message this process holds, and moves it on in the outbox (`deliverMessage`). */
  readonly deliver: (message: OutboxMessage, holder: string) => Promise<DeliveryOutcome>;
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
  /** Looks at once, rather than at the next poll: a message was just added in this process. */
  wake(): void;
  /** Claims nothing more from now on; the deliveries in flight go on. */
  stopClaiming(): void;
  /**
   * Stops claiming, and resolves once the deliveries in flight have finished, or after
   * `stopGraceMs` (with a warning): a message still in flight then is left to its lease.
   */
  stop(): Promise<void>;
}

/**
 * The delivery loop every process runs: it claims due messages under its own holder name with a
 * lease (so one process sends a message at a time, and a dead process's messages are taken over
 * once their lease ends), hands each to `deliver`, and logs what became of it, never with its
 * token or its address. It looks every `pollMs` and whenever `wake` says a message was added
 * here, and claims again as soon as a delivery ends, while it has room. A store that fails is
 * logged once per outage; the loop goes on looking.
 */
export function createDeliveryLoop(options: DeliveryLoopOptions): DeliveryLoop {
  const timing = { ...DEFAULT_DELIVERY_TIMING, ...options.timing };
  const { outbox, clock, logger } = options;
  const holder = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const inFlight = new Set<Promise<void>>();
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

  const deliver = (message: OutboxMessage) => {
    const delivery = options
      .deliver(message, holder)
      .then(
        (outcome) => logOutcome(logger, message, outcome),
        (error: unknown) =>
          logger.warn(
            { messageId: message.id, kind: message.kind, error: describe(error) },
            'mail: delivery failed on the store; the message is tried again once its lease ends',
          ),
      )
      .finally(() => {
        inFlight.delete(delivery);
        look();
      });
    inFlight.add(delivery);
  };

  async function claim(): Promise<void> {
    const room = timing.concurrency - inFlight.size;
    if (room <= 0) return;
    const now = clock.now();
    let claimed: OutboxMessage[];
    try {
      claimed = await outbox.claim(holder, now, now + timing.leaseMs, room);
    } catch (error) {
      if (!storeFailing) logger.warn({ error: describe(error) }, 'mail: cannot claim messages; trying again every poll');
      storeFailing = true;
      return;
    }
    if (storeFailing) logger.info({}, 'mail: claiming messages again');
    storeFailing = false;
    // Claimed means held: deliver them even if the loop stopped meanwhile, within the stop's grace.
    for (const message of claimed) deliver(message);
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
          await Promise.all([...inFlight]);
        }
      })();
      const result = await Promise.race([settled, grace]);
      clearTimeout(graceTimer);
      if (result === graceOver)
        logger.warn({ inFlight: inFlight.size, graceMs: timing.stopGraceMs }, 'mail: stopping with deliveries in flight; their messages are tried again once their lease ends');
    },
  };
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
  }
}

/**
 * What a log line says of a failure: its name, code and message, and an SMTP server's response
 * code; nothing else an error object may carry (a driver's command, a mail's envelope).
 */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    ...(typeof responseCode === 'number' ? { responseCode } : {}),
  };
}
