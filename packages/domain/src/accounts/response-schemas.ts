import * as v from 'valibot';

/** Milliseconds since the Unix epoch, as every stored time is. */
const TimestampSchema = v.pipe(v.number(), v.integer(), v.description('Milliseconds since the Unix epoch.'));

const userFields = {
  id: v.pipe(v.string(), v.minLength(1), v.description('Assigned by the service; an opaque identifier.')),
  email: v.pipe(v.string(), v.email(), v.description('Stored trimmed and lower-cased.')),
  name: v.string(),
} as const;

/**
 * The user object (docs/api.md, Accounts): exactly `{ id, email, name }` in every answer that
 * carries one, never a hash and never anything more. Strict on purpose.
 */
export const PublicUserSchema = v.strictObject(userFields);

/**
 * The account's own state, the body's `account` of `GET /me/account` and `POST /auth/verify-email`
 * (docs/api.md): the user object's fields, whether the address is verified, and the account's
 * times. Strict on purpose: never a hash, a session or a link.
 */
export const AccountSchema = v.strictObject({
  ...userFields,
  emailVerified: v.pipe(
    v.boolean(),
    v.description(
      'Whether the account proved it receives mail at `email`: through a verification link, or a password reset sent there. New accounts, and a new e-mail, start unverified.',
    ),
  ),
  createdAt: v.pipe(TimestampSchema, v.description('When the account signed up.')),
  updatedAt: v.pipe(TimestampSchema, v.description('When the account last changed (its name, e-mail, password or verification).')),
});

/** What signup, login and refresh answer: a bearer token of the user's session and the user's public shape. */
export const SignedInSchema = v.strictObject({
  token: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Send as `Authorization: Bearer <token>`; valid for 7 days, as long as its session lives.'),
  ),
  user: PublicUserSchema,
});

/** A live session as `GET /me/sessions` lists it: ids and times, never a token. Strict on purpose. */
export const PublicSessionSchema = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1), v.description('The session; its tokens carry it as `sid`.')),
  createdAt: v.pipe(TimestampSchema, v.description('When the login (or signup) that started it happened.')),
  expiresAt: v.pipe(TimestampSchema, v.description('When it ends unless refreshed (never past its login plus the maximum age).')),
  current: v.pipe(v.boolean(), v.description('Whether the token of this request belongs to it.')),
});
