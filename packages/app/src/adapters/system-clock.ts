import type { Clock } from '@inkwell/domain';

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };
