import { LogInSchema, SignUpSchema } from '@inkwell/domain';
import { converter, ref } from './components.js';
import { UserEnvelopeSchema } from './response-schemas.js';
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
  unauthorized,
  withNoStore,
} from './responses.js';
import type { OpenApiPaths } from './types.js';

const aliceSignUp = { email: 'alice@example.com', name: 'Alice', password: 'correct horse battery staple' };

/** Signup, login and the current user. Their answers carry a token or an account: none may be cached. */
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
          '201': json('Account created; the token is for the new user.', ref('Session')),
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
          '200': json('Logged in.', ref('Session')),
          '400': badRequest(LogInSchema, { email: 'not-an-email', password: '' }, true),
          '401': errorResponse('Unknown e-mail or wrong password.', ['InvalidCredentials']),
          ...bodyFailures,
          ...hashingServerFailures,
        }),
      },
    },
    '/me': {
      get: {
        operationId: 'getMe',
        summary: 'The current user',
        description: 'The account that owns the bearer token.',
        tags: ['Accounts'],
        ...bearerOperation,
        responses: withNoStore({
          '200': json('The account behind the token.', converter.toSchema(UserEnvelopeSchema)),
          '401': unauthorized('No `Bearer` credentials, a token that fails verification, or a deleted account.'),
          ...serverFailures,
        }),
      },
    },
  };
}
