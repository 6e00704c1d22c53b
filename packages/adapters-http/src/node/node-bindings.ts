import type { HttpBindings } from '@hono/node-server';
import type { ServingBindings, ServingFacts } from '../request/request-facts.js';
import { readRequestBody } from './request-body.js';

// Behind @hono/node-server, `c.env` holds Node's own request and response (`incoming`,
// `outgoing`). The few request facts only they answer cheaply are answered here, and handed to
// the app with them (request/request-facts.ts asks).

/** The request facts, from Node's request and response. */
const NODE_FACTS: ServingFacts = {
  // The response's state says so without building the web `Request`'s abort signal.
  wentAway: (env) => (env as HttpBindings).outgoing.destroyed,
  // Node's parser has said how the body is framed: neither header, no body.
  framedBody: () => false,
  // The one buffer the serving layer kept the body in as it arrived (request-body.ts).
  readBody: (env, maxBytes) => readRequestBody((env as HttpBindings).incoming, maxBytes),
};

/** `env` with the Node answers to the request facts, for the app. */
export function withNodeFacts(env: HttpBindings): HttpBindings & ServingBindings {
  const bindings = env as HttpBindings & ServingBindings;
  bindings.servingFacts = NODE_FACTS;
  return bindings;
}
