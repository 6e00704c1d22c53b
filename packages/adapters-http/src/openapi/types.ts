import type { DomainErrorCode, PostAccessMode } from '@inkwell/domain';
import type { HttpFailure } from '../http-errors.js';
import type { AnySchema, JsonSchema } from './converter.js';

/** The version in `info.version`: the adapter package's own (a test keeps them equal). */
export const API_VERSION = '0.1.0';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

export interface OpenApiExample {
  readonly summary: string;
  readonly value: unknown;
}

export interface OpenApiMediaType {
  readonly schema: JsonSchema;
  readonly example?: unknown;
  readonly examples?: Readonly<Record<string, OpenApiExample>>;
}

export interface OpenApiHeader {
  readonly description: string;
  readonly schema: JsonSchema;
}

export interface OpenApiResponse {
  readonly description: string;
  readonly headers?: Readonly<Record<string, OpenApiHeader>>;
  readonly content?: { readonly 'application/json': OpenApiMediaType };
}

export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

export interface OpenApiOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly string[];
  readonly security: readonly Readonly<Record<string, readonly string[]>>[];
  readonly parameters?: readonly OpenApiParameter[];
  readonly requestBody?: { readonly required: boolean; readonly content: { readonly 'application/json': OpenApiMediaType } };
  readonly responses: Readonly<Record<string, OpenApiResponse>>;
}

/** The path items of a document, by path. */
export type OpenApiPaths = Readonly<Record<string, Readonly<Partial<Record<HttpMethod, OpenApiOperation>>>>>;

/** The parts of an OpenAPI 3.1 document inkwell uses. */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly servers: readonly { readonly url: string; readonly description: string }[];
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly paths: OpenApiPaths;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes: Readonly<Record<string, Readonly<Record<string, string>>>>;
  };
}

/** The 400s a route answers besides validation and malformed bodies: the domain's codes or HTTP's own, and when. */
export interface OtherBadRequests {
  readonly failures: readonly (DomainErrorCode | HttpFailure)[];
  readonly description: string;
}

/** What a route's operation is written with (routes/route-table.ts): the mode it documents, and the converter. */
export interface OperationContext {
  readonly mode: PostAccessMode;
  /** Whether the server requires changes and deletions of posts to be conditional (`POSTS_REQUIRE_PRECONDITION`). */
  readonly preconditionRequired: boolean;
  /** `schema` as a JSON Schema of the document, referring to its components. */
  readonly schema: (schema: AnySchema) => JsonSchema;
  /**
   * The route's 400: what its declared body or query schema reports for `invalidSample`; with
   * `also`, the other failures the route answers 400 with, and the description that says when.
   */
  readonly badRequest: (invalidSample: unknown, also?: OtherBadRequests) => OpenApiResponse;
}
