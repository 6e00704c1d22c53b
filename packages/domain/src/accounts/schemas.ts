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

/** A display name: 1 to 100 characters, kept as sent. */
const NameSchema = v.pipe(
  textSchema(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`),
);

/** A new password: 8 to 72 characters and at most 72 bytes in UTF-8 (bcrypt ignores the rest). */
const NewPasswordSchema = v.pipe(
  textSchema(),
  v.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`),
  v.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
  v.maxBytes(PASSWORD_MAX_BYTES, `must be at most ${PASSWORD_MAX_BYTES} bytes in UTF-8`),
);

/** A password to check (login, the current password): any non-empty text, since older rules may have allowed it. */
const PasswordToCheckSchema = v.pipe(textSchema(), v.minLength(1, 'must not be empty'));

/** Body of `POST /auth/signup`. */
export const SignUpSchema = objectSchema({
  email: EmailSchema,
  name: NameSchema,
  password: NewPasswordSchema,
});
export type SignUpInput = v.InferOutput<typeof SignUpSchema>;

/** Body of `POST /auth/login`. */
export const LogInSchema = objectSchema({
  email: EmailSchema,
  password: PasswordToCheckSchema,
});
export type LogInInput = v.InferOutput<typeof LogInSchema>;

/** What `POST /auth/logout` ends: the caller's session, every other one, or all of them. */
export const LOGOUT_SCOPES = ['current', 'others', 'all'] as const;
export type LogoutScope = (typeof LOGOUT_SCOPES)[number];

/** Body of `POST /auth/logout`, which may be left out: `scope` defaults to `current`. */
export const LogOutSchema = objectSchema({
  scope: v.optional(v.picklist(LOGOUT_SCOPES, `must be one of ${LOGOUT_SCOPES.join(', ')}`), 'current'),
});
export type LogOutInput = v.InferOutput<typeof LogOutSchema>;

/** Body of `POST /auth/password`: the current password, and a new one by the signup rules. */
export const ChangePasswordSchema = objectSchema({
  currentPassword: PasswordToCheckSchema,
  newPassword: NewPasswordSchema,
});
export type ChangePasswordInput = v.InferOutput<typeof ChangePasswordSchema>;

/**
 * Body of `PATCH /me`: a new name, a new e-mail or both, by the signup rules; a new e-mail needs
 * `currentPassword`. A body that names neither changes nothing, so it is refused with an issue
 * that says what to send.
 */
export const UpdateAccountSchema = v.pipe(
  objectSchema({
    name: v.optional(NameSchema),
    email: v.optional(EmailSchema),
    currentPassword: v.optional(PasswordToCheckSchema),
  }),
  v.check((input) => input.name !== undefined || input.email !== undefined, 'must include name or email'),
  // Checked whenever `currentPassword` itself is fine, whatever `email` holds, so that an invalid
  // new e-mail and a missing password are both reported at once.
  v.forward(
    v.partialCheck(
      [['currentPassword']],
      (input: { readonly email?: unknown; readonly currentPassword?: string }) =>
        input.email === undefined || input.currentPassword !== undefined,
      'is required to change the e-mail',
    ),
    ['currentPassword'],
  ),
  v.description('`name`, `email` or both (at least one); `currentPassword` is required when `email` is sent.'),
);
export type UpdateAccountInput = v.InferOutput<typeof UpdateAccountSchema>;

/** Body of `POST /auth/password-reset`: the address to send a reset link to, if an account has it. */
export const RequestPasswordResetSchema = objectSchema({
  email: EmailSchema,
});
export type RequestPasswordResetInput = v.InferOutput<typeof RequestPasswordResetSchema>;

/** The longest token a link body may carry: ours are 43 characters; anything up to this is looked up (and found or not), longer is refused. */
const LINK_TOKEN_MAX_LENGTH = 256;

/** A mailed link's token as a client sends it back: any non-empty string of reasonable length; whether it is one is the store's to say. */
const LinkTokenSchema = v.pipe(
  v.string('must be a string'),
  v.nonEmpty('is required'),
  v.maxLength(LINK_TOKEN_MAX_LENGTH, `must be at most ${LINK_TOKEN_MAX_LENGTH} characters`),
  v.description('The `token` of the link the mail carried.'),
);

/** Body of `POST /auth/password-reset/confirm`: the reset link's token, and a new password by the signup rules. */
export const ConfirmPasswordResetSchema = objectSchema({
  token: LinkTokenSchema,
  newPassword: NewPasswordSchema,
});
export type ConfirmPasswordResetInput = v.InferOutput<typeof ConfirmPasswordResetSchema>;

/** Body of `POST /auth/verify-email`: the verification link's token. */
export const VerifyEmailSchema = objectSchema({
  token: LinkTokenSchema,
});
export type VerifyEmailInput = v.InferOutput<typeof VerifyEmailSchema>;

/** Body of `DELETE /me`: the current password. */
export const DeleteAccountSchema = objectSchema({
  currentPassword: PasswordToCheckSchema,
});
export type DeleteAccountInput = v.InferOutput<typeof DeleteAccountSchema>;
