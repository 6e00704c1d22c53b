import type { PostAccessMode, UseCaseDeps, UseCaseName } from '@inkwell/domain';
import type * as v from 'valibot';
import type { AnySchema, JsonSchema } from './converter.js';
import type { HttpMethod, OpenApiOperation, OperationContext } from './types.js';

// What the OpenAPI document reads of a route (routes/route-table.ts declares routes with these).

/**
 * What the document describes of the server that serves it: its posts access policy, whether
 * mail is on (an outbox), and whether writes must be conditional (its safe-write rules).
 */
export type DocumentedServer = Pick<UseCaseDeps, 'postAccess' | 'outbox' | 'safeWriteRules'>;

/** The JSON body a route takes: the domain's schema that validates it, and an example for the document. */
export interface BodyDeclaration<S extends AnySchema = AnySchema> {
  readonly schema: S;
  readonly example: unknown;
  /** `false` when a request may leave the body out; required otherwise. */
  readonly required?: boolean;
}

/** A valibot object schema, whose entries are a query's parameters. */
export type ObjectSchema = AnySchema & { readonly entries: v.ObjectEntries };

/** The query a route takes: the domain's schema over its strings, and what each parameter means. */
export interface QueryDeclaration<S extends ObjectSchema = ObjectSchema> {
  readonly schema: S;
  readonly descriptions: { readonly [Name in keyof S['entries']]: string };
}

/**
 * The request headers a route reads besides those every route may (`Authorization`,
 * `Content-Type`), by name as HTTP spells it: each documented as an optional header parameter, and
 * typed for the client as an optional `header` input.
 */
export type HeaderDeclaration = Readonly<Record<string, { readonly description: string; readonly schema: JsonSchema }>>;

/** A route's body, the same in every access mode or chosen by the mode (`POST /posts`). */
export type BodyByMode<B extends BodyDeclaration = BodyDeclaration> = B | ((mode: PostAccessMode) => B);

/** The operation a route writes by hand; the table adds `requestBody`, and `parameters` from the query. */
export type OperationDocs = Omit<OpenApiOperation, 'requestBody'>;

/** What the OpenAPI document reads of a route: everything but its handler. */
export interface RouteDocs {
  /** The method, lower case, as OpenAPI and `hc` name it. */
  readonly method: HttpMethod;
  /** Hono's path, with `:name` parameters. */
  readonly path: string;
  /**
   * The domain's use case the route serves: the route exists (is served and documented) only
   * where the domain offers it (`isOffered`). A route that serves none (`GET /health`) always does.
   */
  readonly serves?: UseCaseName;
  /** The JSON body the route reads; it types the client's `json` and documents `requestBody`. */
  readonly body?: BodyByMode;
  /** The query the route reads; it types the client's `query` and documents `parameters`. */
  readonly query?: QueryDeclaration;
  /** The request headers the route reads; they type the client's `header` and are documented among `parameters`. */
  readonly headers?: HeaderDeclaration;
  /** The route's OpenAPI operation in one access mode; called only when the document is built. */
  readonly operation: (context: OperationContext) => OperationDocs;
}
