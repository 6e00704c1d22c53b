import { AccountSchema, PostSchema, PublicSessionSchema, PublicUserSchema } from '@inkwell/domain';
import * as v from 'valibot';

/** Every failure's body (docs/api.md, Errors): `{ "error": <message> }` and nothing else. */
export const ErrorSchema = v.strictObject({
  error: v.pipe(v.string(), v.minLength(1), v.description('A fixed message per failure; see each response.')),
});

/** One problem found by validation (docs/api.md). */
export const ValidationIssueSchema = v.strictObject({
  path: v.pipe(v.string(), v.description('The dotted field name; "" for the whole body or query.')),
  message: v.pipe(v.string(), v.minLength(1)),
});

/** A validation failure on any endpoint: 400 with every problem found, never an empty list. */
export const ValidationErrorSchema = v.strictObject({
  error: v.literal('Validation failed'),
  issues: v.pipe(v.array(ValidationIssueSchema), v.minLength(1)),
});

/** `{ post }`: the body of reading, creating and updating a post. */
export const PostEnvelopeSchema = v.strictObject({ post: PostSchema });

/** `{}`: the body of a request accepted for later (a mail to send). */
export const AcceptedSchema = v.pipe(v.strictObject({}), v.description('Nothing: the request was accepted.'));

/** `{ user }`: the body of `GET /me`, `PATCH /me` and `POST /auth/password`. */
export const UserEnvelopeSchema = v.strictObject({ user: PublicUserSchema });

/** `{ account }`: the body of `GET /me/account` and `POST /auth/verify-email`. */
export const AccountEnvelopeSchema = v.strictObject({ account: AccountSchema });

/** `{ sessions }`: the body of `GET /me/sessions`. */
export const SessionListSchema = v.strictObject({
  sessions: v.pipe(v.array(PublicSessionSchema), v.description('The live sessions, newest first.')),
});

/** The body of `GET /health` (readiness). */
export const HealthSchema = v.strictObject({ status: v.picklist(['ok', 'unavailable', 'stopping']) });

/** The body of `GET /health/live` (liveness). */
export const LivenessSchema = v.strictObject({ status: v.literal('ok') });
