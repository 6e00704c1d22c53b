import {
  AccountSchema,
  ChangePasswordSchema,
  ConfirmPasswordResetSchema,
  CreateOwnPostSchema,
  CreatePostSchema,
  DeleteAccountSchema,
  LogInSchema,
  LogOutSchema,
  PaginationSchema,
  PostPageSchema,
  PostSchema,
  PublicSessionSchema,
  PublicUserSchema,
  RequestPasswordResetSchema,
  SignedInSchema,
  SignUpSchema,
  UpdateAccountSchema,
  UpdatePostSchema,
  VerifyEmailSchema,
} from '@inkwell/domain';
import { createSchemaConverter, type AnySchema, type JsonSchema } from './converter.js';
import {
  ErrorSchema,
  HealthSchema,
  LivenessSchema,
  ValidationErrorSchema,
  ValidationIssueSchema,
} from './response-schemas.js';

/**
 * The document's named schemas, each converted once from the valibot schema the domain
 * validates with or describes answers by; everything else refers to them.
 */
const COMPONENTS: Readonly<Record<string, AnySchema>> = {
  Post: PostSchema,
  User: PublicUserSchema,
  Account: AccountSchema,
  Pagination: PaginationSchema,
  PostPage: PostPageSchema,
  SignedIn: SignedInSchema,
  Session: PublicSessionSchema,
  Error: ErrorSchema,
  ValidationIssue: ValidationIssueSchema,
  ValidationError: ValidationErrorSchema,
  Health: HealthSchema,
  Liveness: LivenessSchema,
  SignUpRequest: SignUpSchema,
  LogInRequest: LogInSchema,
  LogOutRequest: LogOutSchema,
  ChangePasswordRequest: ChangePasswordSchema,
  UpdateAccountRequest: UpdateAccountSchema,
  DeleteAccountRequest: DeleteAccountSchema,
  PasswordResetRequest: RequestPasswordResetSchema,
  PasswordResetConfirmRequest: ConfirmPasswordResetSchema,
  VerifyEmailRequest: VerifyEmailSchema,
  CreatePostRequest: CreatePostSchema,
  CreateOwnPostRequest: CreateOwnPostSchema,
  UpdatePostRequest: UpdatePostSchema,
};

/** Converts schemas for the document, the components above named wherever they occur. */
export const converter = createSchemaConverter(COMPONENTS);

/** The name of the component `schema` is (a request body a route declares); throws for any other schema. */
export function componentOf(schema: AnySchema): string {
  const name = Object.keys(COMPONENTS).find((component) => COMPONENTS[component] === schema);
  if (name === undefined) throw new Error('openapi: a request body schema that is not one of the components');
  return name;
}

/**
 * The named schemas of a document: every component but the request bodies no operation of it
 * takes (`unusedBodies`: another mode's `POST /posts` body, the mail routes' bodies with mail off).
 */
export function componentSchemas(unusedBodies: ReadonlySet<string>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(converter.componentSchemas()).filter(([name]) => !unusedBodies.has(name)));
}
