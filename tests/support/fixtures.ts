// The values the acceptance suites share: one signing secret, one account, one post, and the
// sizes the body rules are about. Suites take them from here rather than inventing their own.

/** The signing secret of every test server and of the tokens tests make (over 32 bytes, as production requires). */
export const TEST_JWT_SECRET = 'inkwell-test-secret-0123456789abcdef-0123456789';

/** A valid secret that is not the server's: tokens signed with it must be refused. */
export const FOREIGN_JWT_SECRET = 'another-secret-of-at-least-32-bytes-0123456789';

/** The HMAC key the test stores hash their limit keys with. */
export const TEST_LIMIT_KEY_SECRET = 'inkwell-test-limit-keys';

/** The password of every test account. */
export const PASSWORD = 'correct horse battery staple';

/** The account most tests sign up. */
export const alice = { email: 'alice@example.com', name: 'Alice', password: PASSWORD } as const;

/** A second account, for tests about someone else. */
export const bob = { email: 'bob@example.com', name: 'Bob', password: PASSWORD } as const;

/** A valid post body (a draft). */
export const aPost = { title: 'Hello', body: 'World', authorId: 'author-1' } as const;

export const MiB = 1024 * 1024;
export const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;
