import { LightResponse } from './direct-answers.js';
import { LightHeaders } from './light-headers.js';

// Hono builds its answers with whatever global `Headers` and `Response` it finds, so the cheap
// ones (light-headers.ts, direct-answers.ts) can reach it only as globals. What is installed is
// not those classes but stand-ins for Node's own: a `Proxy` of Node's `Headers` and of Node's
// `Response` whose only change is `new X(...)` called on the stand-in itself, which returns the
// light object when the arguments are ones it keeps exactly as Node would (and Node's object
// otherwise). Everything else is Node's class itself: `prototype`, `name`, the static
// constructors (`Response.json`, `Response.redirect`, `Response.error`), `instanceof` (a light
// object's prototype chain includes Node's prototype, and Node's objects, `fetch()` results
// included, pass against the stand-in's `prototype`, which is Node's), subclasses (`class X
// extends Response` builds Node's objects). So that `x.constructor === Response` holds for every
// object (light ones inherit `constructor` from Node's prototype), the `constructor` of Node's two
// prototypes is the stand-in while it is the global. `Request` and `fetch` are never touched.
// While one server or more holds them, the stand-ins are the globals; when the last lets go, the
// very property descriptors found before are put back, the prototypes' included.

/** Node's own classes, as found when this module loaded. */
const NativeHeaders: typeof Headers = globalThis.Headers;
const NativeResponse: typeof Response = globalThis.Response;

/** The stand-in for Node's `Headers`. */
export const FastHeaders: typeof Headers = new Proxy(NativeHeaders, {
  construct(target, args, newTarget) {
    if (newTarget !== FastHeaders) return Reflect.construct(target, args, newTarget) as object;
    return (LightHeaders.of(args[0]) as object | undefined) ?? (Reflect.construct(target, args) as object);
  },
});

/** The stand-in for Node's `Response`. */
export const FastResponse: typeof Response = new Proxy(NativeResponse, {
  construct(target, args, newTarget) {
    if (newTarget !== FastResponse) return Reflect.construct(target, args, newTarget) as object;
    return (LightResponse.of(args[0], args[1]) as object | undefined) ?? (Reflect.construct(target, args) as object);
  },
});

interface Saved {
  readonly headers: PropertyDescriptor | undefined;
  readonly response: PropertyDescriptor | undefined;
  /** The `constructor` of Node's prototypes. */
  readonly headersConstructor: PropertyDescriptor | undefined;
  readonly responseConstructor: PropertyDescriptor | undefined;
}

let holders = 0;
let saved: Saved | undefined;

/**
 * Makes the stand-ins the global `Headers` and `Response` until every holder has called the
 * function returned (calling it again does nothing). The descriptors found by the first holder
 * are put back by the last, unless some other code replaced a stand-in meanwhile, which is then
 * left as that code made it.
 */
export function holdFastGlobals(): () => void {
  if (holders++ === 0) {
    saved = {
      headers: Object.getOwnPropertyDescriptor(globalThis, 'Headers'),
      response: Object.getOwnPropertyDescriptor(globalThis, 'Response'),
      headersConstructor: Object.getOwnPropertyDescriptor(NativeHeaders.prototype, 'constructor'),
      responseConstructor: Object.getOwnPropertyDescriptor(NativeResponse.prototype, 'constructor'),
    };
    replace(globalThis, 'Headers', saved.headers, FastHeaders);
    replace(globalThis, 'Response', saved.response, FastResponse);
    replace(NativeHeaders.prototype, 'constructor', saved.headersConstructor, FastHeaders);
    replace(NativeResponse.prototype, 'constructor', saved.responseConstructor, FastResponse);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holders > 0 || saved === undefined) return;
    restore(globalThis, 'Headers', saved.headers, FastHeaders);
    restore(globalThis, 'Response', saved.response, FastResponse);
    restore(NativeHeaders.prototype, 'constructor', saved.headersConstructor, FastHeaders);
    restore(NativeResponse.prototype, 'constructor', saved.responseConstructor, FastResponse);
    saved = undefined;
  };
}

/** Whether the stand-ins are the globals now. */
export function fastGlobalsHeld(): boolean {
  return globalThis.Headers === FastHeaders && globalThis.Response === FastResponse;
}

function replace(owner: object, name: string, found: PropertyDescriptor | undefined, value: unknown): void {
  Object.defineProperty(owner, name, { value, writable: found?.writable ?? true, enumerable: found?.enumerable ?? false, configurable: true });
}

function restore(owner: object, name: string, found: PropertyDescriptor | undefined, standIn: unknown): void {
  if (Object.getOwnPropertyDescriptor(owner, name)?.value !== standIn) return;
  if (found === undefined) Reflect.deleteProperty(owner, name);
  else Object.defineProperty(owner, name, found);
}
