import { isOffered } from '@inkwell/domain';
import type { BodyDeclaration, DocumentedServer, RouteDocs } from './route-docs.js';
import { componentOf, converter } from './components.js';
import { badRequest, ref } from './responses.js';
import type { HttpMethod, OpenApiOperation, OpenApiParameter, OpenApiPaths } from './types.js';

/** Hono's `/posts/:id` as OpenAPI writes it: `/posts/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** The operation of `route` on `server`: what it writes, with its request body, query and header parameters from its declaration. */
function operationOf(route: RouteDocs, server: DocumentedServer): OpenApiOperation {
  const mode = server.postAccess.mode;
  const body: BodyDeclaration | undefined = typeof route.body === 'function' ? route.body(mode) : route.body;
  const query = route.query;
  const { parameters: written, responses, ...head } = route.operation({
    mode,
    preconditionRequired: server.safeWriteRules?.requirePrecondition ?? false,
    schema: (schema) => converter.toSchema(schema),
    badRequest: (invalidSample, also) => {
      const schema = body?.schema ?? query?.schema;
      if (!schema) throw new Error(`openapi: ${route.method} ${route.path} declares no body or query to answer 400 for`);
      return badRequest(schema, invalidSample, body !== undefined, also);
    },
  });
  const headers = Object.entries(route.headers ?? {}).map(
    ([name, { description, schema }]): OpenApiParameter => ({ name, in: 'header', required: false, description, schema }),
  );
  const listed =
    written ??
    (query &&
      converter.queryParameters(query.schema).map((parameter): OpenApiParameter => ({ ...parameter, description: query.descriptions[parameter.name] })));
  const parameters = headers.length > 0 ? [...(listed ?? []), ...headers] : listed;
  // In the document's key order: what the route writes, then parameters, requestBody, responses.
  return {
    ...head,
    ...(parameters && { parameters }),
    ...(body && {
      requestBody: {
        required: body.required ?? true,
        content: { 'application/json': { schema: ref(componentOf(body.schema)), example: body.example } },
      },
    }),
    responses,
  };
}

/**
 * The document's paths: every route that exists on `server` (its use case offered under the
 * server's posts policy and mail, as the app registers it), by path in the order the routes are
 * declared.
 */
export function openApiPaths(routes: readonly RouteDocs[], server: DocumentedServer): OpenApiPaths {
  const paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>> = {};
  for (const route of routes) {
    if (route.serves !== undefined && !isOffered(route.serves, server)) continue;
    (paths[openApiPath(route.path)] ??= {})[route.method] = operationOf(route, server);
  }
  return paths;
}
