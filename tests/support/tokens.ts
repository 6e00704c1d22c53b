import type { Clock } from '@inkwell/domain';
import { createJoseTokenService } from '@inkwell/app';
import { TEST_JWT_SECRET } from './fixtures.js';

/** A well-formed user id that no store has issued: a valid token naming it is a user who is gone. */
export const GONE_USER_ID = '000000000000000000000bad';

/**
 * A token for `userId` issued at `clock`'s now, signed with `secret` (the test servers' own by
 * default, so it verifies there whether or not that user exists; `FOREIGN_JWT_SECRET` for one
 * they must refuse as `Invalid token`).
 */
export async function issueToken(userId: string, clock: Clock, secret = TEST_JWT_SECRET): Promise<string> {
  return (await createJoseTokenService(secret, clock)).issue(userId);
}
