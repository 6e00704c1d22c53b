import * as v from 'valibot';
import { objectSchema, textSchema } from '../shared/validation.js';

const MAX_EMAIL_LENGTH = 254; // RFC 5321's limit for a forward path
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 72;
export const PASSWORD_MAX_BYTES = 72; // bcrypt ignores every byte after the 72nd
export const NAME_MAX_LENGTH = 100;

/** E-mail as signup and login take it: trimmed and lower-cased *before* it is validated. */
export const EmailSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('is required'),
  v.maxLength(MAX_EMAIL_LENGTH, `must be at most ${MAX_EMAIL_LENGTH} characters`),
  v.email('must be a valid e-mail address'),
);

/** Body of `POST /auth/signup`. */
export const SignUpSchema = objectSchema({
  email: EmailSchema,
  name: v.pipe(
    textSchema(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`),
  ),
  password: v.pipe(
    textSchema(),
    v.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
    v.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
    v.maxBytes(PASSWORD_MAX_BYTES, `must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8`),
  ),
});
export type SignUpInput = v.InferOutput<typeof SignUpSchema>;

/** Body of `POST /auth/login`. */
export const LogInSchema = objectSchema({
  email: EmailSchema,
  password: v.pipe(textSchema(), v.minLength(1, 'must not be empty')),
});
export type LogInInput = v.InferOutput<typeof LogInSchema>;
