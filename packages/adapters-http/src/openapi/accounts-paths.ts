import { ChangePasswordSchema, DeleteAccountSchema, LogInSchema, LogOutSchema, SignUpSchema, UpdateAccountSchema } from '@inkwell/domain';
import { converter, ref } from './components.js';
import { SessionListSchema, UserEnvelopeSchema } from './response-schemas.js';
import {
  badRequest,
  bearerOperation,
  bodyFailures,
  errorResponse,
  hashingServerFailures,
  json,
  jsonBody,
  publicOperation,
  serverFailures,
  tokenRequired,
  unauthorized,
  withNoStore,
  wwwAuthenticate,
} from './responses.js';
import type { OpenApiOperation, OpenApiPaths, OpenApiResponse } from './types.js';

const aliceSignUp = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' };
const newPassword = 'a brand new passphrase';

const userAnswer = (description: string) => json(description, converter.toSchema(UserEnvelopeSchema));
const noContent = (description: string): OpenApiResponse => ({ description });

/** The 403 of a change that needs the current password. */
const wrongPassword = errorResponse(
  'The current password is wrong. Nothing changes, and it counts as a failed login of the account\'s e-mail (past the login limits: 429).',
  ['CurrentPasswordIncorrect'],
);

/** An operation of the signed-in account on itself, in the Accounts tag and needing a token. */
function ownOperation(operation: Omit<OpenApiOperation, 'tags' | 'security'>): OpenApiOperation {
  return { tags: ['Accounts'], ...bearerOperation, ...operation };
}

/**
 * Signup, login, the current user, its sessions and its own changes. Their answers carry a token
 * or an account: none may be cached.
 */
export function accountsPaths(): OpenApiPaths {
  return {
    '/auth/signup': {
      post: {
        operationId: 'signUp',
        summary: 'Create an account',
        description:
          'Creates an account and answers a token for it. The e-mail is trimmed and lower-cased before it is validated and stored; each e-mail can sign up once.',
        tags: ['Accounts'],
        ...publicOperation,
        requestBody: jsonBody('SignUpRequest', aliceSignUp),
        responses: withNoStore({
          '201': json('Account created with its first session; the token is of that session.', ref('SignedIn')),
          '400': badRequest(SignUpSchema, { email: 'not-an-email', name: '', password: 'short' }, true),
          '409': errorResponse('An account with that e-mail exists.', ['EmailAlreadyInUse']),
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      },
    },
    '/auth/login': {
      post: {
        operationId: 'logIn',
        summary: 'Log in',
        description:
          'Exchanges e-mail and password for a token. An unknown e-mail and a wrong password get the same answer, in the same time.',
        tags: ['Accounts'],
        ...publicOperation,
        requestBody: jsonBody('LogInRequest', { email: aliceSignUp.email, password: aliceSignUp.password }),
        responses: withNoStore({
          '200': json('Logged in: a new session, and a token of it.', ref('SignedIn')),
          '400': badRequest(LogInSchema, { email: 'not-an-email', password: '' }, true),
          '401': errorResponse('Unknown e-mail or wrong password.', ['InvalidCredentials'], wwwAuthenticate),
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      },
    },
    '/auth/logout': {
      post: ownOperation({
        operationId: 'logOut',
        summary: 'Log out',
        description:
          "Ends the caller's session (`current`, the default, also when no body is sent), every other session of the account (`others`), or all of them (`all`); `others` and `all` also end tokens issued without a session. From the answer on, no server accepts a token of an ended session. The body is read only after the token passed.",
        requestBody: { required: false, content: { 'application/json': { schema: ref('LogOutRequest'), example: { scope: 'others' } } } },
        responses: withNoStore({
          '204': noContent('The sessions ended.'),
          '400': badRequest(LogOutSchema, { scope: 'everywhere' }, true),
          '401': tokenRequired,
          ...bodyFailures,
          ...serverFailures,
        }),
      }),
    },
    '/auth/refresh': {
      post: ownOperation({
        operationId: 'refreshSession',
        summary: 'Refresh the session',
        description:
          "A new 7-day token of the caller's session. The session then lives until that token expires, but never past 30 days after its login (`SESSION_MAX_AGE_DAYS`); past that, 401. Older tokens of the session keep working until their own expiry or the session's end. A token issued without a session starts one, aged from that token's issue.",
        responses: withNoStore({
          '200': json('The new token and the account.', ref('SignedIn')),
          '401': tokenRequired,
          ...serverFailures,
        }),
      }),
    },
    '/auth/password': {
      post: ownOperation({
        operationId: 'changePassword',
        summary: 'Change the password',
        description:
          "Needs the current password. Every other session of the account ends (tokens issued without a session too); the caller's continues, and only the new password logs in from then on.",
        requestBody: jsonBody('ChangePasswordRequest', { currentPassword: aliceSignUp.password, newPassword }),
        responses: withNoStore({
          '200': userAnswer('The password changed.'),
          '400': badRequest(ChangePasswordSchema, { currentPassword: '', newPassword: 'short' }, true),
          '401': tokenRequired,
          '403': wrongPassword,
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      }),
    },
    '/me': {
      get: {
        operationId: 'getMe',
        summary: 'The current user',
        description: 'The account that owns the bearer token.',
        tags: ['Accounts'],
        ...bearerOperation,
        responses: withNoStore({
          '200': userAnswer('The account behind the token.'),
          '401': unauthorized('No `Bearer` credentials, a token that fails verification or whose session ended, or a deleted account.'),
          ...serverFailures,
        }),
      },
      patch: ownOperation({
        operationId: 'updateMe',
        summary: 'Change the name or e-mail',
        description:
          'Changes `name` (signup rules) and `email` (trimmed and lower-cased; a new e-mail needs `currentPassword`). `{}` is valid. Sessions are not affected.',
        requestBody: jsonBody('UpdateAccountRequest', { name: 'Alice A.', email: 'alice.a@example.com', currentPassword: aliceSignUp.password }),
        responses: withNoStore({
          '200': userAnswer('The account as changed.'),
          '400': badRequest(UpdateAccountSchema, { name: '', email: 'alice.a@example.com' }, true),
          '401': tokenRequired,
          '403': wrongPassword,
          '409': errorResponse('Another account has that e-mail.', ['EmailAlreadyInUse']),
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      }),
      delete: ownOperation({
        operationId: 'deleteMe',
        summary: 'Delete the account',
        description:
          "Needs the current password. Deletes the account, every session of it and every post whose `authorId` is its id; its tokens then answer 401 `User no longer exists`, and its e-mail can sign up again. If the server fails midway (500 or 503), the account is either still there, with its tokens working, and the same request can be sent again, or gone.",
        requestBody: jsonBody('DeleteAccountRequest', { currentPassword: aliceSignUp.password }),
        responses: withNoStore({
          '204': noContent('The account and its posts are deleted.'),
          '400': badRequest(DeleteAccountSchema, {}, true),
          '401': tokenRequired,
          '403': wrongPassword,
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      }),
    },
    '/me/sessions': {
      get: ownOperation({
        operationId: 'listSessions',
        summary: 'List the sessions',
        description: "The account's live sessions, newest first; `current` marks the caller's own. Ids and times only, never a token.",
        responses: withNoStore({
          '200': json('The live sessions.', converter.toSchema(SessionListSchema)),
          '401': tokenRequired,
          ...serverFailures,
        }),
      }),
    },
    '/me/sessions/{id}': {
      delete: ownOperation({
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
    },
  };
}
