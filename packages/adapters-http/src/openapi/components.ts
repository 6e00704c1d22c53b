import {
  CreatePostSchema,
  LogInSchema,
  PaginationSchema,
  PostPageSchema,
  PostSchema,
  PublicUserSchema,
  SessionSchema,
  SignUpSchema,
  UpdatePostSchema,
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
  Session: SessionSchema,
  Error: ErrorSchema,
  ValidationIssue: ValidationIssueSchema,
  ValidationError: ValidationErrorSchema,
  Health: HealthSchema,
  SignUpRequest: SignUpSchema,
  LogInRequest: LogInSchema,
  CreatePostRequest: CreatePostSchema,
  UpdatePostRequest: UpdatePostSchema,
});


/** A reference to one of the components above. */
export const ref = (component: string): JsonSchema => ({ $ref: `#/components/schemas/${component}` });
