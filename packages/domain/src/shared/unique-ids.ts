/**
 * Ids for the in-memory stores: 24 lower-case hex digits like a MongoDB ObjectId. Each store
 * draws a random 48-bit prefix when it is created and counts up after it, so ids from one store
 * increase ("id descending" means "newest first", as it does for ObjectIds from one process),
 * and ids from two stores (two processes, or one process before and after a restart) never meet:
 * a token that names an id of an earlier store can never name an account or session of a later
 * one.
 */
export function uniqueIds(): () => string {
  const prefix = randomHex(PREFIX_BYTES);
  let last = 0;
  return () => prefix + (++last).toString(16).padStart(COUNTER_DIGITS, '0');
}

const PREFIX_BYTES = 6;
const COUNTER_DIGITS = 24 - 2 * PREFIX_BYTES;

/** `bytes` random bytes as lower-case hex, from the platform's cryptographic generator (Web Crypto, no I/O). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
