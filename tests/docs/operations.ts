// The operations a server serves, written once: the conformance test pins each mode's document to
// them, and the /docs page test looks for each in the page.
import type { PostAccessMode } from '@inkwell/domain';

const OPEN_OPERATIONS = [
  'POST /auth/signup',
  'POST /auth/login',
  'GET /me',
  'PATCH /me',
  'DELETE /me',
  'POST /auth/logout',
  'POST /auth/refresh',
  'POST /auth/password',
  'GET /me/account',
  'GET /me/sessions',
  'DELETE /me/sessions/{id}',
  'GET /posts',
  'POST /posts',
  'GET /posts/{id}',
  'PATCH /posts/{id}',
  'DELETE /posts/{id}',
  'GET /health',
  'GET /health/live',
];

/** What a server with mail on serves besides (the default outside production). */
export const MAIL_OPERATIONS = ['POST /auth/password-reset', 'POST /auth/password-reset/confirm', 'POST /auth/verify-email', 'POST /me/verify-email'];

/** Every operation a server in each posts access mode serves and documents with mail on, as `METHOD /path`. */
export const DOCUMENTED_OPERATIONS: Readonly<Record<PostAccessMode, readonly string[]>> = {
  open: [...OPEN_OPERATIONS, ...MAIL_OPERATIONS],
  owner: [...OPEN_OPERATIONS, ...MAIL_OPERATIONS, 'GET /me/posts'],
};
