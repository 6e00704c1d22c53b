import {
  ChangePasswordSchema,
  ConfirmPasswordResetSchema,
  DeleteAccountSchema,
  LogInSchema,
  LogOutSchema,
  RequestPasswordResetSchema,
  SignUpSchema,
  UpdateAccountSchema,
  VerifyEmailSchema,
  changePassword,
  confirmPasswordReset,
  currentAccount,
  currentUser,
  deleteAccount,
  endSession,
  listSessions,
  logIn,
  logOut,
  refreshSession,
  requestEmailVerification,
  requestPasswordReset,
  signUp,
  updateAccount,
  verifyEmail,
} from '@inkwell/domain';
import { clientOf } from '../request/client-address.js';
import {
  bearerOperation,
  bodyFailures,
  errorResponse,
  hashingBusyFailures,
  hashingServerFailures,
  json,
  publicOperation,
  ref,
  retryAfter,
  serverFailures,
  tokenRequired,
  unauthorized,
  withNoStore,
  wwwAuthenticate,
} from '../openapi/responses.js';
import { AcceptedSchema, AccountEnvelopeSchema, SessionListSchema, UserEnvelopeSchema } from '../openapi/response-schemas.js';
import type { OpenApiResponse } from '../openapi/types.js';
import { credentialsOf } from '../request/credentials.js';
import { noStore } from '../response/no-store.js';
import { lazyBody, lazyOptionalBody } from './lazy-body.js';
import { RouteTable, type OperationDocs } from './route-table.js';


const aliceSignUp = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' };
const newPassword = 'a brand new passphrase';
/** What a mailed link's token looks like: 32 random bytes, base64url. */
const linkToken = 'Zm9yIGV4YW1wbGUgb25seTogbm90IGEgcmVhbCB0b2tlbg';

const noContent = (description: string): OpenApiResponse => ({ description });

/** The 403 of a change that needs the current password. */
const wrongPassword = errorResponse(
  'The current password is wrong, or another request through the same session replaced it meanwhile. Nothing changes; a wrong one counts as a failed login of the account\'s e-mail (past the login limits: 429).',
  ['CurrentPasswordIncorrect'],
);

/** What else an operation that takes a mailed link's token answers 400 with. */
const linkTokenRefused = {
  failures: ['InvalidLinkToken'],
  description:
    'the token is unknown, used, superseded, expired, or was sent to an address the account no longer has (a body that fails validation uses no token)',
} as const;

/** The 429 of a request that sends mail, past its limits. */
const tooManyMails = (which: string) => errorResponse(`${which}; wait \`Retry-After\` seconds.`, ['TooManyAttempts'], retryAfter);

/** An operation of the signed-in account on itself, in the Accounts tag and needing a token. */
function ownOperation(operation: Omit<OperationDocs, 'tags' | 'security'>): OperationDocs {
  return { tags: ['Accounts'], ...bearerOperation, ...operation };
}

/**
 * Signup, login, the current user, and the account's sessions and own changes (docs/api.md,
 * Accounts and Sessions). Every answer carries a token or an account: none may be cached. Each
 * route hands its use case the credentials the request presented and, where there is one, a body read only once the
 * credentials have passed.
 */
export const accountRoutes = RouteTable.empty()
  // `/me/*` is `/me` and every path under it (Hono's wildcard matches the empty rest too).
  .use('/auth/*', noStore)
  .use('/me/*', noStore)
  .add({
    method: 'post',
    path: '/auth/signup',
    serves: 'signUp',
    body: { schema: SignUpSchema, example: aliceSignUp },
    operation: ({ badRequest }) => ({
      operationId: 'signUp',
      summary: 'Create an account',
      description:
        'Creates an account and answers a token for it. The e-mail is trimmed and lower-cased before it is validated and stored; each e-mail can sign up once.',
      tags: ['Accounts'],
      ...publicOperation,
      responses: withNoStore({
        '201': json('Account created with its first session; the token is of that session.', ref('SignedIn')),
        '400': badRequest({ email: 'not-an-email', name: '', password: 'short' }),
        '409': errorResponse('An account with that e-mail exists.', ['EmailAlreadyInUse']),
        ...bodyFailures,
        ...hashingServerFailures,
      }),
    }),
    handler: (deps) => async (c) =>
      c.json(await signUp(deps, { body: lazyBody(c, deps), client: clientOf(c, deps.trustProxy) }), 201),
  })
  .add({
    method: 'post',
    path: '/auth/login',
    serves: 'logIn',
    body: { schema: LogInSchema, example: { email: aliceSignUp.email, password: aliceSignUp.password } },
    operation: ({ badRequest }) => ({
      operationId: 'logIn',
      summary: 'Log in',
      description:
        'Exchanges e-mail and password for a token. An unknown e-mail and a wrong password get the same answer, in the same time.',
      tags: ['Accounts'],
      ...publicOperation,
      responses: withNoStore({
        '200': json('Logged in: a new session, and a token of it.', ref('SignedIn')),
        '400': badRequest({ email: 'not-an-email', password: '' }),
        '401': errorResponse('Unknown e-mail or wrong password.', ['InvalidCredentials'], wwwAuthenticate),
        ...bodyFailures,
        ...hashingServerFailures,
      }),
    }),
    handler: (deps) => async (c) =>
      c.json(await logIn(deps, { body: lazyBody(c, deps), client: clientOf(c, deps.trustProxy) }), 200),
  })
  .add({
    method: 'post',
    path: '/auth/logout',
    serves: 'logOut',
    body: { schema: LogOutSchema, example: { scope: 'others' }, required: false },
    operation: ({ badRequest }) =>
      ownOperation({
        operationId: 'logOut',
        summary: 'Log out',
        description:
          "Ends the caller's session (`current`, the default, also when no body is sent), every other session of the account (`others`), or all of them (`all`); `others` and `all` also end tokens issued without a session. From the answer on, no server accepts a token of an ended session. The body is read only after the token passed.",
        responses: withNoStore({
          '204': noContent('The sessions ended.'),
          '400': badRequest({ scope: 'everywhere' }),
          '401': tokenRequired,
          ...bodyFailures,
          ...serverFailures,
        }),
      }),
    handler: (deps) => async (c) => {
      await logOut(deps, { credentials: credentialsOf(c), body: lazyOptionalBody(c, deps) });
      return c.body(null, 204);
    },
  })
  .add({
    method: 'post',
    path: '/auth/refresh',
    serves: 'refreshSession',
    operation: () =>
      ownOperation({
        operationId: 'refreshSession',
        summary: 'Refresh the session',
        description:
          "A new 7-day token of the caller's session. The session then lives until that token expires, but never past 30 days after its login (`SESSION_MAX_AGE_DAYS`); past that, 401. Older tokens of the session keep working until their own expiry or the session's end. A token issued without a session is exchanged for a session once, aged from that token's issue: every token issued without a session then ends.",
        responses: withNoStore({
          '200': json('The new token and the account.', ref('SignedIn')),
          '401': tokenRequired,
          ...serverFailures,
        }),
      }),
    handler: (deps) => async (c) => c.json(await refreshSession(deps, { credentials: credentialsOf(c) }), 200),
  })
  .add({
    method: 'post',
    path: '/auth/password',
    serves: 'changePassword',
    body: { schema: ChangePasswordSchema, example: { currentPassword: aliceSignUp.password, newPassword } },
    operation: ({ badRequest, schema }) =>
      ownOperation({
        operationId: 'changePassword',
        summary: 'Change the password',
        description:
          "Needs the current password. Every other session of the account ends (tokens issued without a session too); the caller's session, or token, continues, and only the new password logs in from then on. A change whose session ended, or whose current password was replaced, while it ran changes nothing (401, 403).",
        responses: withNoStore({
          '200': json('The password changed.', schema(UserEnvelopeSchema)),
          '400': badRequest({ currentPassword: '', newPassword: 'short' }),
          '401': tokenRequired,
          '403': wrongPassword,
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      }),
    handler: (deps) => async (c) =>
      c.json({ user: await changePassword(deps, { credentials: credentialsOf(c), body: lazyBody(c, deps), client: clientOf(c, deps.trustProxy) }) }, 200),
  })
  .add({
    method: 'get',
    path: '/me',
    serves: 'currentUser',
    operation: ({ schema }) => ({
      operationId: 'getMe',
      summary: 'The current user',
      description: 'The account that owns the bearer token.',
      tags: ['Accounts'],
      ...bearerOperation,
      responses: withNoStore({
        '200': json('The account behind the token.', schema(UserEnvelopeSchema)),
        '401': unauthorized('No `Bearer` credentials, a token that fails verification or whose session ended, or a deleted account.'),
        ...serverFailures,
      }),
    }),
    handler: (deps) => async (c) => c.json({ user: await currentUser(deps, { credentials: credentialsOf(c) }) }, 200),
  })
  .add({
    method: 'get',
    path: '/me/account',
    serves: 'currentAccount',
    operation: ({ schema }) =>
      ownOperation({
        operationId: 'getMyAccount',
        summary: "The account's state",
        description:
          "The account that owns the bearer token, with what the user object leaves out: whether its address is verified (`emailVerified`; false until a verification link, or a password reset sent there, proves it, and again after an e-mail change) and its times. Served whether or not the server sends mail.",
        responses: withNoStore({
          '200': json('The account behind the token.', schema(AccountEnvelopeSchema)),
          '401': tokenRequired,
          ...serverFailures,
        }),
      }),
    handler: (deps) => async (c) => c.json({ account: await currentAccount(deps, { credentials: credentialsOf(c) }) }, 200),
  })
  .add({
    method: 'patch',
    path: '/me',
    serves: 'updateAccount',
    body: {
      schema: UpdateAccountSchema,
      example: { name: 'Alice A.', email: 'alice.a@example.com', currentPassword: aliceSignUp.password },
    },
    operation: ({ badRequest, schema }) =>
      ownOperation({
        operationId: 'updateMe',
        summary: 'Change the name or e-mail',
        description:
          'Changes `name` (signup rules), `email` (trimmed and lower-cased; a new e-mail needs `currentPassword`) or both. A body that names neither is 400, with an issue at `""` saying so. Sessions are not affected. A new e-mail is unverified: a verification link goes to it, and a notice (which does not name the new address) to the old one. At most 3 e-mail changes an hour per account and 30 per client address, an e-mail already in use (409) included.',
        responses: withNoStore({
          '200': json('The account as changed.', schema(UserEnvelopeSchema)),
          '400': badRequest({ name: '', email: 'alice.a@example.com' }),
          '401': tokenRequired,
          '403': wrongPassword,
          '409': errorResponse('Another account has that e-mail (counted against the e-mail change limits).', ['EmailAlreadyInUse']),
          ...bodyFailures,
          ...hashingServerFailures,
          '429': errorResponse(
            "Past the login limits (a wrong current password counts as a failed login of the account's e-mail), or past 3 e-mail changes for this account or 30 from this client in an hour; wait `Retry-After` seconds.",
            ['TooManyAttempts'],
            retryAfter,
          ),
        }),
      }),
    handler: (deps) => async (c) =>
      c.json({ user: await updateAccount(deps, { credentials: credentialsOf(c), body: lazyBody(c, deps), client: clientOf(c, deps.trustProxy) }) }, 200),
  })
  .add({
    method: 'delete',
    path: '/me',
    serves: 'deleteAccount',
    body: { schema: DeleteAccountSchema, example: { currentPassword: aliceSignUp.password }, required: false },
    operation: ({ badRequest }) =>
      ownOperation({
        operationId: 'deleteMe',
        summary: 'Delete the account',
        description:
          "Needs the current password: a request without a body is 400, with an issue at `currentPassword`. Deletes the account, every session of it and every post whose `authorId` is its id; its tokens then answer 401 `User no longer exists`, and its e-mail can sign up again. A deletion whose session ended, or whose current password was replaced, while it ran deletes nothing (401, 403). If the server fails midway (500 or 503), the account is either back as it was, with its tokens working, and the same request can be sent again, or gone.",
        responses: withNoStore({
          '204': noContent('The account and its posts are deleted.'),
          '400': badRequest({}),
          '401': tokenRequired,
          '403': wrongPassword,
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      }),
    handler: (deps) => async (c) => {
      await deleteAccount(deps, { credentials: credentialsOf(c), body: lazyOptionalBody(c, deps), client: clientOf(c, deps.trustProxy) });
      return c.body(null, 204);
    },
  })
  .add({
    method: 'get',
    path: '/me/sessions',
    serves: 'listSessions',
    operation: ({ schema }) =>
      ownOperation({
        operationId: 'listSessions',
        summary: 'List the sessions',
        description: "The account's live sessions, newest first; `current` marks the caller's own. Ids and times only, never a token.",
        responses: withNoStore({
          '200': json('The live sessions.', schema(SessionListSchema)),
          '401': tokenRequired,
          ...serverFailures,
        }),
      }),
    handler: (deps) => async (c) => c.json({ sessions: await listSessions(deps, { credentials: credentialsOf(c) }) }, 200),
  })
  .add({
    method: 'delete',
    path: '/me/sessions/:id',
    serves: 'endSession',
    operation: () =>
      ownOperation({
        operationId: 'endSession',
        summary: 'End a session',
        description:
          "Ends one live session of the caller's account (the caller's own included); its tokens are refused from then on, by every server.",
        parameters: [{ name: 'id', in: 'path', required: true, description: 'A session id from `GET /me/sessions`.', schema: { type: 'string' } }],
        responses: withNoStore({
          '204': noContent('The session ended.'),
          '401': tokenRequired,
          '404': errorResponse("No live session of the caller's account has that id (another account's included); nothing ended.", ['SessionNotFound']),
          ...serverFailures,
        }),
      }),
    handler: (deps) => async (c) => {
      await endSession(deps, { credentials: credentialsOf(c), sessionId: c.req.param('id') });
      return c.body(null, 204);
    },
  })
  .add({
    method: 'post',
    path: '/auth/password-reset',
    serves: 'requestPasswordReset',
    body: { schema: RequestPasswordResetSchema, example: { email: aliceSignUp.email } },
    operation: ({ badRequest, schema }) => ({
      operationId: 'requestPasswordReset',
      summary: 'Ask for a password reset link',
      description:
        "Sends a link to reset the password (`{APP_URL}/reset-password?token=…`, valid 30 minutes) to the address, if an account has it. The answer is the same, in the same time, whether or not one does; the mail leaves later, within a second. A link stops working once it or another of the account's links is used, or the password changes; a newer request ends none. The e-mail is trimmed and lower-cased. At most 3 requests per e-mail from one client address, 10 per e-mail from all together, and 30 per client address an hour, counted for every address asked; and the address is sent at most 10 mails an hour, whatever asks for them (past that, nothing is sent, and the answer is the same).",
      tags: ['Accounts'],
      ...publicOperation,
      responses: withNoStore(
        {
          '202': json('Accepted: a link goes to the address if an account has it.', schema(AcceptedSchema)),
          '400': badRequest({ email: 'not-an-email' }),
          '429': tooManyMails('Past 3 requests for this e-mail from this client, 10 for this e-mail from all, or 30 from this client, in an hour'),
          ...bodyFailures,
          ...serverFailures,
        },
        'the answer concerns an account',
      ),
    }),
    handler: (deps) => async (c) => {
      await requestPasswordReset(deps, { body: lazyBody(c, deps), client: clientOf(c, deps.trustProxy) });
      return c.json({}, 202);
    },
  })
  .add({
    method: 'post',
    path: '/auth/password-reset/confirm',
    serves: 'confirmPasswordReset',
    body: { schema: ConfirmPasswordResetSchema, example: { token: linkToken, newPassword } },
    operation: ({ badRequest }) => ({
      operationId: 'confirmPasswordReset',
      summary: 'Set a new password with a reset link',
      description:
        "Uses the reset link's token, once: sets the new password (signup rules), ends every session of the account (tokens issued without a session too) and answers a token of a new one. The address counts as verified, the failed logins counted for the e-mail are forgotten, and a notice goes to the address. Only this `POST` uses a token; following the link does not.",
      tags: ['Accounts'],
      ...publicOperation,
      responses: withNoStore({
        '200': json('The password is set: a new session, and a token of it.', ref('SignedIn')),
        '400': badRequest({ token: '', newPassword: 'short' }, linkTokenRefused),
        ...bodyFailures,
        ...hashingBusyFailures,
      }),
    }),
    handler: (deps) => async (c) => c.json(await confirmPasswordReset(deps, { body: lazyBody(c, deps) }), 200),
  })
  .add({
    method: 'post',
    path: '/auth/verify-email',
    serves: 'verifyEmail',
    body: { schema: VerifyEmailSchema, example: { token: linkToken } },
    operation: ({ badRequest, schema }) => ({
      operationId: 'verifyEmail',
      summary: 'Prove the address with a verification link',
      description:
        "Uses the verification link's token (`{APP_URL}/verify-email?token=…`, valid 24 hours), once: the account's address is verified. No `Authorization` needed. A link works only while the account still has the address it was sent to, and only the newest one sent does.",
      tags: ['Accounts'],
      ...publicOperation,
      responses: withNoStore({
        '200': json('The address is verified: the account as `GET /me/account` answers it, `emailVerified` true.', schema(AccountEnvelopeSchema)),
        '400': badRequest({ token: 42 }, linkTokenRefused),
        ...bodyFailures,
        ...serverFailures,
      }),
    }),
    handler: (deps) => async (c) => c.json({ account: await verifyEmail(deps, { body: lazyBody(c, deps) }) }, 200),
  })
  .add({
    method: 'post',
    path: '/me/verify-email',
    serves: 'requestEmailVerification',
    operation: ({ schema }) =>
      ownOperation({
        operationId: 'requestEmailVerification',
        summary: 'Send a new verification link',
        description:
          "Sends a new verification link to the account's address (signup and an e-mail change send one already); from then on only the newest link works. No body. At most 3 an hour per account.",
        responses: withNoStore(
          {
            '202': json('Accepted: the mail leaves shortly.', schema(AcceptedSchema)),
            '401': tokenRequired,
            '409': errorResponse('The address is verified already.', ['EmailAlreadyVerified']),
            '429': tooManyMails('Past 3 requests for this account in an hour'),
            ...serverFailures,
          },
          'the answer concerns an account',
        ),
      }),
    handler: (deps) => async (c) => {
      await requestEmailVerification(deps, { credentials: credentialsOf(c) });
      return c.json({}, 202);
    },
  });
