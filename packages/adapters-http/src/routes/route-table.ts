import { isOffered, type PostAccessMode } from '@inkwell/domain';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { HonoBase } from 'hono/hono-base';
import type { BlankEnv, BlankInput, BlankSchema, HandlerResponse, Schema } from 'hono/types';
import type * as v from 'valibot';
import type { HttpDeps } from '../http-deps.js';
import type { BodyByMode, BodyDeclaration, HeaderDeclaration, QueryDeclaration, RouteDocs } from '../openapi/route-docs.js';
import type { HttpMethod } from '../openapi/types.js';

export type { BodyDeclaration, HeaderDeclaration, OperationDocs, QueryDeclaration, RouteDocs } from '../openapi/route-docs.js';

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

/** What a client may send in the request headers the route reads: each optional. */
type HeaderInput<H> = H extends HeaderDeclaration ? { header?: { [Name in keyof H]?: string } } : BlankInput;

/**
 * The handler's Hono input: what a client sends (`in`, which `hc` types from), and nothing
 * validated (`out`), since the domain validates. Types only: nothing runs per request.
 */
type RouteInput<B, Q, H> = { in: JsonInput<B> & QueryInput<Q> & HeaderInput<H>; out: BlankInput };

/** A route of the API: its method, path, documentation and handler, in one declaration. */
export interface Route<
  M extends HttpMethod,
  P extends string,
  B extends BodyByMode | undefined,
  Q extends QueryDeclaration | undefined,
  H extends HeaderDeclaration | undefined,
  R extends HandlerResponse<unknown>,
> extends RouteDocs {
  readonly method: M;
  readonly path: P;
  readonly body?: B;
  readonly query?: Q;
  readonly headers?: H;
  /** Builds the handler once per app, from its dependencies; its `c` is typed with the route's input. */
  readonly handler: (deps: HttpDeps) => (c: Context<BlankEnv, P, RouteInput<B, Q, H>>) => R;
}

/** Builds a table's Hono app for one set of dependencies. */
type Registration<S extends Schema> = (deps: HttpDeps) => HonoBase<BlankEnv, S, '/', string>;

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
    return new RouteTable(this.routes, (deps) => previous(deps).use(path, middleware));
  }

  /**
   * This table with `route` added. A route whose use case the domain does not offer under the
   * app's deps is registered for no method: it stays in the app's type, but not in its router or
   * `app.routes`, so its path answers exactly as an unknown one does.
   */
  add<
    M extends HttpMethod,
    P extends string,
    B extends BodyByMode | undefined = undefined,
    Q extends QueryDeclaration | undefined = undefined,
    H extends HeaderDeclaration | undefined = undefined,
    R extends HandlerResponse<unknown> = HandlerResponse<unknown>,
  >(route: Route<M, P, B, Q, H, R>) {
    const previous = this.registration;
    return new RouteTable([...this.routes, route], (deps) => {
      const methods = route.serves === undefined || isOffered(route.serves, deps) ? [route.method] : [];
      return previous(deps).on(methods, route.path, route.handler(deps));
    });
  }

  /** A Hono app serving this table's routes, those the domain offers under `deps`. */
  app(deps: HttpDeps) {
    return this.registration(deps);
  }
}
