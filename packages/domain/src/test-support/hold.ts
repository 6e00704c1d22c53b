/** A call held before it runs. */
export interface HeldCall<A extends readonly unknown[]> {
  /** Resolves with the call's arguments once it is made (and held). */
  readonly reached: Promise<A>;
  /** Lets the held call run. */
  release(): void;
}

/**
 * Holds the next call of `target[method]` before it runs, until `release()`: a latch between what
 * a request checks and what it writes. Hold the write (a repository method, a hasher's work),
 * wait for `reached`, run another request to the end, release, and the held request goes on
 * from exactly that point; no timing involved. Only the next call is held: the method is put back
 * as it was as soon as that call arrives, so holds on one method stack, one per call.
 */
export function holdNextCall<T extends object, K extends { [M in keyof T]: T[M] extends (...args: never[]) => unknown ? M : never }[keyof T]>(
  target: T,
  method: K,
): HeldCall<T[K] extends (...args: infer A) => unknown ? A : never> {
  type Args = T[K] extends (...args: infer A) => unknown ? A : never;
  const hadOwn = Object.prototype.hasOwnProperty.call(target, method);
  const original = target[method] as (...args: Args) => unknown;
  let arrived!: (args: Args) => void;
  const reached = new Promise<Args>((resolve) => (arrived = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));

  const putBack = () => {
    if (hadOwn) Object.defineProperty(target, method, { value: original, configurable: true, writable: true });
    else Reflect.deleteProperty(target, method);
  };
  const held = async function (this: unknown, ...args: Args): Promise<unknown> {
    putBack();
    arrived(args);
    await released;
    return original.apply(this, args);
  };
  Object.defineProperty(target, method, { value: held, configurable: true, writable: true });
  return { reached, release };
}

/**
 * Two requests crossing: starts `first`, waits until `held` stops it (at the point between its
 * checks and its write), runs `second` to the end meanwhile, then lets `first` go on; settles as
 * `first` does. A `first` that settles without reaching the hold fails the crossing at once,
 * rather than leaving the test waiting.
 */
export async function crossing<T>(held: HeldCall<readonly unknown[]>, first: () => Promise<T>, second: () => Promise<unknown>): Promise<T> {
  const running = first();
  const missed = running.then(
    () => Promise.reject(new Error('crossing: the first request finished without reaching the hold')),
    (error: unknown) => Promise.reject(error instanceof Error ? error : new Error(String(error))),
  );
  await Promise.race([held.reached, missed]);
  missed.catch(() => undefined);
  try {
    await second();
  } finally {
    held.release();
  }
  return running;
}
