import {
  ChangePasswordSchema,
  CreateOwnPostSchema,
  CreatePostSchema,
  DeleteAccountSchema,
  LogInSchema,
  LogOutSchema,
  PaginationSchema,
  POST_ACCESS_MODES,
  PostPageSchema,
  PostSchema,
  PublicSessionSchema,
  PublicUserSchema,
  SignedInSchema,
  SignUpSchema,
  UpdateAccountSchema,
  UpdatePostSchema,
  type PostAccessMode,
} from '@inkwell/domain';
import { createSchemaConverter, type JsonSchema } from './converter.js';
import {
  ErrorSchema,
  HealthSchema,
  ValidationErrorSchema,
  ValidationIssueSchema,
} from './response-schemas.js';

/**
 * The document's named schemas, each converted once from the valibot schema the domain
 * validates with or describes answers by; everything else refers to them.
 */
export const converter = createSchemaConverter({
  Post: PostSchema,
  User: PublicUserSchema,
  Pagination: PaginationSchema,
  PostPage: PostPageSchema,
  SignedIn: SignedInSchema,
  Session: PublicSessionSchema,
  Error: ErrorSchema,
  ValidationIssue: ValidationIssueSchema,
  ValidationError: ValidationErrorSchema,
  Health: HealthSchema,
  SignUpRequest: SignUpSchema,
  LogInRequest: LogInSchema,
  LogOutRequest: LogOutSchema,
  ChangePasswordRequest: ChangePasswordSchema,
  UpdateAccountRequest: UpdateAccountSchema,
  DeleteAccountRequest: DeleteAccountSchema,
  CreatePostRequest: CreatePostSchema,
  CreateOwnPostRequest: CreateOwnPostSchema,
  UpdatePostRequest: UpdatePostSchema,
});

/** The component of `POST /posts`'s body in each access mode: where posts have owners, `authorId` is optional. */
export const createPostRequest = {
  open: 'CreatePostRequest',
  owner: 'CreateOwnPostRequest',
} as const satisfies Record<PostAccessMode, string>;

/**
 * The named schemas of a mode's document: every component but the other modes' `POST /posts`
 * bodies, which nothing in it refers to.
 */
export function componentSchemas(mode: PostAccessMode): Record<string, JsonSchema> {
  const otherBodies = new Set<string>(POST_ACCESS_MODES.filter((other) => other !== mode).map((other) => createPostRequest[other]));
  return Object.fromEntries(Object.entries(converter.componentSchemas()).filter(([name]) => !otherBodies.has(name)));
}

/** A reference to one of the components above. */
export const ref = (component: string): JsonSchema => ({ $ref: `#/components/schemas/${component}` });
