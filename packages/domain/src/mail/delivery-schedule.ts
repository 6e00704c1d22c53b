import type { OutboxMessage } from './message.js';

/** The first retry of a message whose attempt failed comes this soon. */
export const FIRST_RETRY_MS = 5_000;
/** Retries back off, doubling, up to this gap between two tries. */
export const LONGEST_RETRY_GAP_MS = 5 * 60_000;
/** A message not delivered this long after it was asked for is dropped. */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60_000;

/**
 * When a message whose attempt at `now` failed is tried again: 5 s after its first failure, then
 * twice as long after each further one, never more than 5 minutes apart; null once the next try
 * would fall past 24 hours after it was asked for, when it is dropped.
 */
export function nextAttemptAfterFailure(message: Pick<OutboxMessage, 'attempts' | 'requestedAt'>, now: number): number | null {
  const gap = Math.min(FIRST_RETRY_MS * 2 ** Math.min(message.attempts, 30), LONGEST_RETRY_GAP_MS);
  const next = now + gap;
  return next < message.requestedAt + DELIVERY_WINDOW_MS ? next : null;
}
