import type { PostAccessMode, PostAccessPolicy } from '@inkwell/domain';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import type { BlankEnv, BlankInput, BlankSchema, HandlerResponse, Schema } from 'hono/types';
import type * as v from 'valibot';
import type { HttpDeps } from '../http-deps.js';
import type { HttpMethod, OpenApiOperation, OperationContext } from '../openapi/types.js';

/** Any valibot schema a route declares for its body or query. */
type AnySchema = v.GenericSchema;

/** The JSON body a route takes: the domain's schema that validates it, and an example for the document. */
export interface BodyDeclaration<S extends AnySchema = AnySchema> {
  readonly schema: S;
  readonly example: unknown;
  /** `false` when a request may leave the body out; required otherwise. */
  readonly required?: boolean;
}

/** A valibot object schema, whose entries are a query's parameters. */
type ObjectSchema = AnySchema & { readonly entries: v.ObjectEntries };

/** The query a route takes: the domain's schema over its strings, and what each parameter means. */
export interface QueryDeclaration<S extends ObjectSchema = ObjectSchema> {
  readonly schema: S;
  readonly descriptions: { readonly [Name in keyof S['entries']]: string };
}

/** A route's body, the same in every access mode or chosen by the mode (`POST /posts`). */
type BodyByMode<B extends BodyDeclaration = BodyDeclaration> = B | ((mode: PostAccessMode) => B);

/** The operation a route writes by hand; the table adds `requestBody`, and `parameters` from the query. */
export type OperationDocs = Omit<OpenApiOperation, 'requestBody'>;

/** What the OpenAPI document reads of a route: everything but its handler. */
export interface RouteDocs {
  /** The method, lower case, as OpenAPI and `hc` name it. */
  readonly method: HttpMethod;
  /** Hono's path, with `:name` parameters. */
  readonly path: string;
  /** Where the route exists; everywhere when omitted. Elsewhere it is neither served nor documented. */
  readonly servedWhen?: (access: PostAccessPolicy) => boolean;
  /** The JSON body the route reads; it types the client's `json` and documents `requestBody`. */
  readonly body?: BodyByMode;
  /** The query the route reads; it types the client's `query` and documents `parameters`. */
  readonly query?: QueryDeclaration;
  /** The route's OpenAPI operation in one access mode; called only when the document is built. */
  readonly operation: (context: OperationContext) => OperationDocs;
}

/** The body declared by `B`, whichever mode chose it. */
type BodyOf<B> = B extends (mode: PostAccessMode) => infer Chosen ? Chosen : B;

/** What a client sends in the body: optional when the route says `required: false`. */
type JsonInput<B> =
  BodyOf<B> extends BodyDeclaration<infer S>
    ? BodyOf<B> extends { readonly required: false }
      ? { json?: v.InferInput<S> }
      : { json: v.InferInput<S> }
    : BlankInput;

/** What a client sends in the query. */
type QueryInput<Q> = Q extends QueryDeclaration<infer S> ? { query: v.InferInput<S> } : BlankInput;

/**
 * The handler's Hono input: what a client sends (`in`, which `hc` types from), and nothing
 * validated (`out`), since the domain validates. Types only: nothing runs per request.
 */
type RouteInput<B, Q> = { in: JsonInput<B> & QueryInput<Q>; out: BlankInput };

/** A route of the API: its method, path, documentation and handler, in one declaration. */
export interface Route<
  M extends HttpMethod,
  P extends string,
  B extends BodyByMode | undefined,
  Q extends QueryDeclaration | undefined,
  R extends HandlerResponse<unknown>,
> extends RouteDocs {
  readonly method: M;
  readonly path: P;
  readonly body?: B;
  readonly query?: Q;
  /** Builds the handler once per app, from its dependencies; its `c` is typed with the route's input. */
  readonly handler: (deps: HttpDeps) => (c: Context<BlankEnv, P, RouteInput<B, Q>>) => R;
}

/** Builds a table's Hono app for one set of dependencies and access policy. */
type Registration<S extends Schema> = (deps: HttpDeps, access: PostAccessPolicy) => HonoBase<BlankEnv, S, '/', string>;

/**
 * Routes and the middleware around them, in the order they are registered. `routes` feeds the
 * OpenAPI document; `app` registers everything on a Hono app with `app.use` and `app.on`, so
 * Hono's own types give the app's schema (each route's input and typed answers) to `AppType`.
 */
export class RouteTable<S extends Schema> {
  private constructor(
    /** The routes, in the order they were added. */
    readonly routes: readonly RouteDocs[],
    private readonly registration: Registration<S>,
  ) {}

  /** An empty table. */
  static empty(): RouteTable<BlankSchema> {
    return new RouteTable([], () => {
      // As Hono's base class, the type every `use` and `on` answers, so each step's schema is
      // inferred from its type arguments rather than from the subclass's shape.
      const app: HonoBase<BlankEnv, BlankSchema, '/', string> = new Hono();
      return app;
    });
  }

  /** This table with `middleware` on `path`, ahead of the routes added after it. */
  use(path: string, middleware: MiddlewareHandler) {
    const previous = this.registration;
    return new RouteTable(this.routes, (deps, access) => previous(deps, access).use(path, middleware));
  }

  /**
   * This table with `route` added. A route that does not exist under the app's access policy is
   * registered for no method: it stays in the app's type, but not in its router or `app.routes`,
   * so its path answers exactly as an unknown one does.
   */
  add<
    M extends HttpMethod,
    P extends string,
    B extends BodyByMode | undefined = undefined,
    Q extends QueryDeclaration | undefined = undefined,
    R extends HandlerResponse<unknown> = HandlerResponse<unknown>,
  >(route: Route<M, P, B, Q, R>) {
    const previous = this.registration;
    return new RouteTable([...this.routes, route], (deps, access) => {
      const methods = (route.servedWhen?.(access) ?? true) ? [route.method] : [];
      return previous(deps, access).on(methods, route.path, route.handler(deps));
    });
  }

  /** A Hono app serving this table's routes with `deps`, as `access` has them. */
  app(deps: HttpDeps, access: PostAccessPolicy) {
    return this.registration(deps, access);
  }
}
