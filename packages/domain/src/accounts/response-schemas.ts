import * as v from 'valibot';

/** The public shape of a user (docs/api.md, Accounts), the only one responses carry: never a hash. Strict on purpose. */
export const PublicUserSchema = v.strictObject({
  id: v.pipe(v.string(), v.minLength(1), v.description('Assigned by the service; an opaque identifier.')),
  email: v.pipe(v.string(), v.email(), v.description('Stored trimmed and lower-cased.')),
  name: v.string(),
});

/** What signup and login answer: a bearer token for the user and the user's public shape. */
export const SessionSchema = v.strictObject({
  token: v.pipe(
    v.string(),
    v.minLength(1),
    v.description('Send as `Authorization: Bearer <token>`; valid for 7 days.'),
  ),
  user: PublicUserSchema,
});
