import { describe, expect, it } from 'vitest';
import { createPost } from '../posts/create-post.js';
import { ownerPostAccess } from '../posts/post-access.js';
import { DomainError } from '../shared/errors.js';
import { crossing, holdNextCall, type HeldCall } from '../test-support/hold.js';
import { ALICE, aliceSignedUp, bodyOf } from '../test-support/signed-up.js';
import { authenticate } from './authenticate.js';
import { changePassword } from './change-password.js';
import { bearer, type Credentials } from './credentials.js';
import { deleteAccount } from './delete-account.js';
import { endSession } from './end-session.js';
import { listSessions } from './list-sessions.js';
import { logIn } from './log-in.js';
import { logOut } from './log-out.js';
import { refreshSession } from './refresh-session.js';
import { updateAccount } from './update-account.js';

// Two requests of one account crossing: one is held at the exact point between what it checked
// and what it writes (a latch on the repository method that writes, or on the hasher), the other
// runs to the end, then the first goes on. Whatever the first checked that no longer holds, it
// changes nothing and answers what it would have, had it started after the second.

const P2 = 'the second passphrase';
const P3 = 'the third passphrase';

/** The code a promise settles with: `ok`, or the DomainError's code. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

/** How `first` settles when it crosses `second` (`crossing`): `ok`, or its error's code. */
const crossed = (held: HeldCall<readonly unknown[]>, first: () => Promise<unknown>, second: () => Promise<unknown>) =>
  outcome(crossing(held, first, second));

/** Alice signed up (her laptop's session) and logged in once more (her phone's), with owned posts. */
async function alice() {
  const signed = await aliceSignedUp();
  const deps = { ...signed.deps, postAccess: ownerPostAccess };
  const phone = bearer((await logIn(deps, { body: bodyOf(ALICE) })).token);
  const laptop = signed.credentials;
  const works = (credentials: Credentials) => outcome(authenticate(deps, { credentials }));
  const logsIn = (password: string) => outcome(logIn(deps, { body: bodyOf({ email: ALICE.email, password }) }));
  const change = (credentials: Credentials, newPassword = P2, currentPassword = ALICE.password) =>
    changePassword(deps, { credentials, body: bodyOf({ currentPassword, newPassword }) });
  const remove = (credentials: Credentials) => deleteAccount(deps, { credentials, body: bodyOf({ currentPassword: ALICE.password }) });
  const post = async (credentials: Credentials) => (await createPost(deps, { body: bodyOf({ title: 'Late', body: 'Written while the account went away' }), credentials })).post;
  const sessionIds = async (credentials: Credentials) => (await listSessions(deps, { credentials })).map((session) => session.id);
  return { ...signed, deps, userId: signed.signedIn.user.id, laptop, phone, works, logsIn, change, remove, post, sessionIds };
}

describe('login × password change', () => {
  it('refuses a login whose password was replaced between its check and its session: Invalid email or password, no session', async () => {
    const { deps, users, laptop, change, logsIn, sessionIds } = await alice();
    expect(await crossed(holdNextCall(users, 'startSession'), () => logIn(deps, { body: bodyOf(ALICE) }), () => change(laptop))).toBe('InvalidCredentials');
    expect(await sessionIds(laptop)).toHaveLength(1);
    expect([await logsIn(ALICE.password), await logsIn(P2)]).toEqual(['InvalidCredentials', 'ok']);
  });

  it('ends a login that started its session before the change stored the new password', async () => {
    const { deps, users, laptop, change, works } = await alice();
    let login = '';
    const loggedIn = async () => (login = (await logIn(deps, { body: bodyOf(ALICE) })).token);
    expect(await crossed(holdNextCall(users, 'changePassword'), () => change(laptop), loggedIn)).toBe('ok');
    expect([await works(bearer(login)), await works(laptop)]).toEqual(['InvalidToken', 'ok']);
  });
});

describe('password change × password change', () => {
  it("refuses the change of a session another change ended meanwhile: Invalid token; only the winner's password logs in", async () => {
    const { users, laptop, phone, change, logsIn, works } = await alice();
    expect(await crossed(holdNextCall(users, 'changePassword'), () => change(phone, P3), () => change(laptop, P2))).toBe('InvalidToken');
    expect([await logsIn(P2), await logsIn(P3)]).toEqual(['ok', 'InvalidCredentials']);
    expect([await works(laptop), await works(phone)]).toEqual(['ok', 'InvalidToken']);
  });

  it('refuses a second change through the same session, held in the hasher: Current password is incorrect', async () => {
    const { hasher, laptop, change, logsIn, works } = await alice();
    expect(await crossed(holdNextCall(hasher, 'hash'), () => change(laptop, P3), () => change(laptop, P2))).toBe('CurrentPasswordIncorrect');
    expect([await logsIn(P2), await logsIn(P3)]).toEqual(['ok', 'InvalidCredentials']);
    expect(await works(laptop)).toBe('ok');
  });
});

describe('password change × DELETE /me', () => {
  it('answers a change held while the account was deleted with User no longer exists', async () => {
    const { users, laptop, phone, change, remove } = await alice();
    expect(await crossed(holdNextCall(users, 'changePassword'), () => change(phone), () => remove(laptop))).toBe('UserNoLongerExists');
  });

  it.each([
    ['another session changed the password: Invalid token', 'phone', 'InvalidToken'],
    ['its own session changed the password: Current password is incorrect', 'laptop', 'CurrentPasswordIncorrect'],
  ] as const)('refuses a deletion held while %s; nothing is deleted', async (_, deleter, code) => {
    const account = await alice();
    const { users, posts, userId, laptop, change, post, works } = account;
    const kept = await post(laptop);
    expect(await crossed(holdNextCall(users, 'startDeletion'), () => account.remove(account[deleter]), () => change(laptop))).toBe(code);
    expect((await posts.findById(kept.id))?.post).toStrictEqual(kept);
    expect(await users.findById(userId)).toMatchObject({ passwordHash: `fake-hash:${P2}` });
    expect(await works(laptop)).toBe('ok');
  });

  it('refuses a change whose write comes once the deletion is decided, though the deletion has not finished', async () => {
    const { users, posts, laptop, phone, change, remove, works } = await alice();
    const deletionHeld = holdNextCall(posts, 'deleteByAuthor');
    let removing: Promise<unknown> = Promise.resolve();
    const decideDeletion = async () => {
      removing = remove(laptop);
      await deletionHeld.reached;
      // Decided: the account reads as gone, and the change checked before cannot apply.
      expect(await works(phone)).toBe('UserNoLongerExists');
    };
    expect(await crossed(holdNextCall(users, 'changePassword'), () => change(phone), decideDeletion)).toBe('UserNoLongerExists');
    deletionHeld.release();
    await removing;
    expect(await works(laptop)).toBe('UserNoLongerExists');
  });
});

describe('e-mail change × password change', () => {
  const newEmail = { email: 'alicia@example.com', currentPassword: ALICE.password };

  it.each([
    ["whose session another session's change ended meanwhile: Invalid token", 'phone', 'InvalidToken'],
    ['whose password its own session replaced meanwhile: Current password is incorrect', 'laptop', 'CurrentPasswordIncorrect'],
  ] as const)('refuses an e-mail change %s; the e-mail is unchanged', async (_, mover, code) => {
    const account = await alice();
    const { deps, users, userId, laptop, change } = account;
    expect(await crossed(holdNextCall(users, 'update'), () => updateAccount(deps, { credentials: account[mover], body: bodyOf(newEmail) }), () => change(laptop))).toBe(code);
    expect((await users.findById(userId))?.email).toBe(ALICE.email);
  });

  it('lets both apply when the e-mail changes while a password change is held: neither undoes what the other checked', async () => {
    const { deps, users, userId, laptop, phone, change } = await alice();
    expect(await crossed(holdNextCall(users, 'changePassword'), () => change(laptop), () => updateAccount(deps, { credentials: phone, body: bodyOf(newEmail) }))).toBe('ok');
    expect(await users.findById(userId)).toMatchObject({ email: 'alicia@example.com', passwordHash: `fake-hash:${P2}` });
  });
});

describe('refresh × logout everywhere', () => {
  it('refuses a refresh held while the account logged out everywhere: Invalid token, and no token of it works', async () => {
    const { deps, users, laptop, phone, works } = await alice();
    const everywhere = () => logOut(deps, { credentials: laptop, body: bodyOf({ scope: 'all' }) });
    expect(await crossed(holdNextCall(users, 'extendSession'), () => refreshSession(deps, { credentials: phone }), everywhere)).toBe('InvalidToken');
    expect(await works(phone)).toBe('InvalidToken');
  });

  it('ends the token of a refresh that finished before the logout everywhere was stored', async () => {
    const { deps, users, laptop, phone, works } = await alice();
    let refreshed = '';
    const refresh = async () => (refreshed = (await refreshSession(deps, { credentials: phone })).token);
    expect(await crossed(holdNextCall(users, 'endSessions'), () => logOut(deps, { credentials: laptop, body: bodyOf({ scope: 'all' }) }), refresh)).toBe('ok');
    expect(await works(bearer(refreshed))).toBe('InvalidToken');
  });

  it('refuses the exchange of a token without a session held while the account logged out everywhere: no session starts', async () => {
    const { deps, users, tokens, clock, userId, laptop, works } = await alice();
    const legacy = bearer(tokens.issueWithoutSession(userId, clock.now() - 1000));
    const everywhere = () => logOut(deps, { credentials: laptop, body: bodyOf({ scope: 'all' }) });
    expect(await crossed(holdNextCall(users, 'exchangeTokenWithoutSession'), () => refreshSession(deps, { credentials: legacy }), everywhere)).toBe('InvalidToken');
    expect(await users.listSessions(userId, clock.now())).toEqual([]);
    expect(await works(legacy)).toBe('InvalidToken');
  });

  it('exchanges a token without a session once: a second refresh is refused, and every session of the account stays', async () => {
    const { deps, users, tokens, clock, userId, laptop, phone, works } = await alice();
    const legacy = bearer(tokens.issueWithoutSession(userId, clock.now() - 1000));
    const answers = await Promise.all(Array.from({ length: 20 }, () => outcome(refreshSession(deps, { credentials: legacy }))));
    expect(answers.filter((answer) => answer === 'ok')).toHaveLength(1);
    expect(answers.filter((answer) => answer === 'InvalidToken')).toHaveLength(19);
    expect(await users.listSessions(userId, clock.now())).toHaveLength(3);
    expect([await works(laptop), await works(phone), await works(legacy)]).toEqual(['ok', 'ok', 'InvalidToken']);
  });
});

describe('ending a session × logout of the others', () => {
  it('refuses to end a session from a session the other request ended meanwhile: Invalid token, nothing ends', async () => {
    const { deps, users, laptop, phone, works, sessionIds } = await alice();
    const [laptopSession] = await sessionIds(laptop).then((ids) => ids.slice(-1));
    const endLaptop = () => endSession(deps, { credentials: phone, sessionId: laptopSession as string });
    expect(await crossed(holdNextCall(users, 'endSessions'), endLaptop, () => logOut(deps, { credentials: laptop, body: bodyOf({ scope: 'others' }) }))).toBe('InvalidToken');
    expect([await works(laptop), await works(phone)]).toEqual(['ok', 'InvalidToken']);
  });
});

describe('POST /posts × DELETE /me (owned posts)', () => {
  it.each([
    ['its account was deleted: User no longer exists', 'UserNoLongerExists'],
    ['its session ended: Invalid token', 'InvalidToken'],
  ] as const)('takes back a post whose body was on its way while %s, no post', async (_, code) => {
    const { deps, posts, userId, laptop, phone, remove } = await alice();
    let sendBody!: () => void;
    const bodyArrives = new Promise<void>((resolve) => (sendBody = resolve));
    const posting = createPost(deps, { body: async () => (await bodyArrives, { title: 'Slow', body: 'Body' }), credentials: phone });
    await (code === 'UserNoLongerExists' ? remove(laptop) : logOut(deps, { credentials: phone, body: bodyOf({}) }));
    sendBody();
    expect(await outcome(posting)).toBe(code);
    expect(await posts.countByAuthor(userId)).toBe(0);
  });

  it('takes back a post held before its insert while the account was deleted', async () => {
    const { posts, userId, laptop, phone, remove, post } = await alice();
    expect(await crossed(holdNextCall(posts, 'insert'), () => post(phone), () => remove(laptop))).toBe('UserNoLongerExists');
    expect(await posts.countByAuthor(userId)).toBe(0);
  });

  it('takes back a post stored once the deletion was decided, before it finished', async () => {
    const { posts, userId, laptop, phone, remove, post } = await alice();
    const insertHeld = holdNextCall(posts, 'insert');
    const posting = outcome(post(phone));
    await insertHeld.reached;
    const decided = holdNextCall(posts, 'deleteByAuthor');
    expect(await crossed(decided, () => remove(laptop), async () => (insertHeld.release(), expect(await posting).toBe('UserNoLongerExists')))).toBe('ok');
    expect(await posts.countByAuthor(userId)).toBe(0);
  });

  it('deletes a post stored while the deletion was held before its decision', async () => {
    const { users, posts, userId, laptop, phone, remove, post } = await alice();
    expect(await crossed(holdNextCall(users, 'startDeletion'), () => remove(laptop), () => post(phone))).toBe('ok');
    expect(await posts.countByAuthor(userId)).toBe(0);
  });
});
