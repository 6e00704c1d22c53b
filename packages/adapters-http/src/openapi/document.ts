import { POST_ACCESS_MODES, openPostAccess, type PostAccessMode } from '@inkwell/domain';
import { componentOf, componentSchemas } from './components.js';
import { openApiPaths } from './paths.js';
import type { DocumentedServer, RouteDocs } from './route-docs.js';
import { API_VERSION, type OpenApiDocument, type OpenApiPaths } from './types.js';

const DESCRIPTION = `Accounts (signup, login with a signed token of a session that can be ended, \`GET /me\`, the account's sessions and its own changes) and blog posts (a paged list of published posts, read, create, partial update, delete).

- Request bodies are JSON objects sent as \`application/json\` (a \`charset\` parameter is fine), at most 1 MiB. Unknown fields are ignored; \`id\`, \`createdAt\` and \`updatedAt\` are never taken from a client.
- Every error is \`{ "error": "<message>" }\` with a fixed message per failure. A validation failure is 400 \`Validation failed\` and lists every problem in \`issues\`.
- Strings are validated as sent (only \`email\` is trimmed and lower-cased), must be well-formed Unicode (no unpaired surrogates), and their lengths are counted in UTF-16 code units.
- An unknown path is 404 \`Not found\`; a known path with another method is 405 \`Method not allowed\` with an \`Allow\` header.
- Every 401 carries \`WWW-Authenticate: Bearer realm="inkwell"\`, with \`error="invalid_token"\` when a token was sent and refused.`;

/** What each access mode changes in the document beyond the operations themselves. */
const BY_MODE: Record<PostAccessMode, { readonly description: string; readonly postsTag: string }> = {
  open: { description: DESCRIPTION, postsTag: 'Blog posts. No authentication needed.' },
  owner: {
    description: `${DESCRIPTION}
- Posts belong to their authors on this server: creating, changing and deleting a post needs a bearer token, only a post's author may change or delete it, a draft is visible to its author only (to anyone else it is 404), and \`GET /me/posts\` lists the caller's own posts, drafts included. A request that sends \`Authorization\` is checked by the \`GET /me\` rules on every post operation, reads included.`,
    postsTag: 'Blog posts, each owned by its author: writing needs a token, and drafts are visible to their author only.',
  },
};

/** What the description adds when mail is on. */
const MAIL = `
- Mail is on: a forgotten password is reset, and an address proved, through links sent by mail (\`/auth/password-reset\`, \`/auth/verify-email\`, \`/me/verify-email\`). A link's token is used only by a \`POST\`, once, and works for a limited time.`;

/**
 * The OpenAPI 3.1 document of the API whose routes are `routes` (`apiRoutes`: the whole API) as
 * `server` serves it: its posts access mode, and the mail routes only when mail is on.
 * Every schema in it is generated from the valibot schemas that validate requests (in the
 * domain) and describe responses, and every error example carries the exact message the API
 * answers with.
 */
export function createOpenApiDocument(routes: readonly RouteDocs[], server: DocumentedServer = { postAccess: openPostAccess }): OpenApiDocument {
  const postsAccess = server.postAccess.mode;
  const mail = server.outbox !== undefined;
  const paths = openApiPaths(routes, server);
  return {
    openapi: '3.1.0',
    info: { title: 'inkwell', version: API_VERSION, description: `${BY_MODE[postsAccess].description}${mail ? MAIL : ''}` },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: [
      {
        name: 'Accounts',
        description: `Signup, login, the current user, its sessions, and its own changes${mail ? '; password reset and address verification by mail' : ''}.`,
      },
      { name: 'Posts', description: BY_MODE[postsAccess].postsTag },
      { name: 'Operations', description: 'For load balancers and monitoring.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(unusedBodies(routes, paths)),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A token from signup, login or refresh: valid for 7 days, while its session lives.',
        },
      },
    },
  };
}

/** The request body components some route takes in some mode, but no operation of `paths` does. */
function unusedBodies(routes: readonly RouteDocs[], paths: OpenApiPaths): Set<string> {
  const bodies = routes.flatMap(({ body }) => (typeof body === 'function' ? POST_ACCESS_MODES.map(body) : body ? [body] : []));
  const used = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).map((operation) => operation.requestBody?.content['application/json'].schema.$ref)),
  );
  return new Set(bodies.map(({ schema }) => componentOf(schema)).filter((name) => !used.has(`#/components/schemas/${name}`)));
}
