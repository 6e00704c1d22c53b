// Why a Headers of our own: Hono keeps a response's headers in a WHATWG `Headers` from the first
// `c.header()`, and its middleware (`secureHeaders`, `requestId`, `cors`) sets theirs there too.
// Node's built-in `Headers` (undici) validates every name and value through WebIDL conversions,
// lower-cases names into new strings, keeps a sorted copy it rebuilds after each change, and is
// then copied once more, entry by entry, for `writeHead`. Measured on `GET /posts/:id`, Hono's
// standard `secureHeaders` alone cost more instructions than the rest of the request. This class
// keeps the same contract in two small arrays, with lower-cased names and valid values
// remembered, and `installLightHeaders` puts it where Hono and @hono/node-server look it up,
// as @hono/node-server already does with its light `Request` and `Response`.

/** `Headers` as Node provides it, kept for `instanceof` checks made against it. */
const NativeHeaders: typeof Headers = globalThis.Headers;

/** RFC 9110 field-name: a token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What Node's `writeHead` refuses in a value (`ERR_INVALID_CHAR`): refused here instead, where the
 * code that set it is on the stack, rather than while the answer is being written.
 */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Leading or trailing HTTP whitespace, which a header value loses (WHATWG "normalize"). */
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * Spellings remembered (short ones only: a client can send any name), past which names are
 * checked and lower-cased on every use.
 */
const MAX_REMEMBERED_NAMES = 1024;
const MAX_REMEMBERED_LENGTH = 64;
const lowerCaseNames = new Map<string, string>();

function headerName(name: string): string {
  const known = lowerCaseNames.get(name);
  if (known !== undefined) return known;
  const text = String(name);
  if (!FIELD_NAME.test(text)) throw new TypeError(`Invalid header name: "${text}"`);
  const lower = text.toLowerCase();
  if (text.length <= MAX_REMEMBERED_LENGTH && lowerCaseNames.size < MAX_REMEMBERED_NAMES) lowerCaseNames.set(text, lower);
  return lower;
}

function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * Values the server set that were found valid: most are the same few strings on every response.
 * Values a client sent (request headers are `append`ed) are checked but not remembered.
 */
const MAX_REMEMBERED_VALUES = 256;
const validValues = new Set<string>();

function headerValue(value: string, remember: boolean): string {
  if (validValues.has(value)) return value;
  let text = typeof value === 'string' ? value : String(value);
  if (text.length > 0 && (isHttpWhitespace(text.charCodeAt(0)) || isHttpWhitespace(text.charCodeAt(text.length - 1))))
    text = text.replace(OUTER_WHITESPACE, '');
  if (INVALID_VALUE.test(text)) throw new TypeError(`Invalid header value: "${text}"`);
  if (remember && text === value && text.length <= MAX_REMEMBERED_LENGTH * 2 && validValues.size < MAX_REMEMBERED_VALUES) validValues.add(text);
  return text;
}

/** Anything `new Headers(init)` takes. */
type Init = Iterable<readonly string[]> | Record<string, string> | LightHeaders;

/**
 * The WHATWG `Headers` contract (names case-insensitive, values normalised and checked, iteration
 * sorted by lower-case name with repeated names joined by ", " and `set-cookie` kept apart) on
 * two arrays in the order headers were added, sorted only when iterated. A response has a dozen
 * or so headers whose lower-case names are the same remembered strings every time, so a linear
 * scan finds one faster than a hash lookup. Its prototype chain includes Node's
 * `Headers.prototype`, so it passes `instanceof` checks made against Node's own class.
 */
export class LightHeaders {
  /** Lower-case names; a name added several times (`append`) has several slots. */
  #names: string[] = [];
  #values: string[] = [];

  constructor(init?: Init | null) {
    if (init === undefined || init === null) return;
    if (init instanceof LightHeaders) {
      this.#names = init.#names.slice();
      this.#values = init.#values.slice();
    } else if (typeof (init as Iterable<readonly string[]>)[Symbol.iterator] === 'function') {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError('Each header pair must be a name and a value');
        this.append(pair[0] as string, pair[1] as string);
      }
    } else if (typeof init === 'object') {
      const record = init as Record<string, string>;
      for (const name of Object.keys(record)) this.append(name, record[name] as string);
    } else {
      throw new TypeError('Headers init must be an object');
    }
  }

  append(name: string, value: string): void {
    this.#names.push(headerName(name));
    this.#values.push(headerValue(value, false));
  }

  set(name: string, value: string): void {
    const lower = headerName(name);
    const normal = headerValue(value, true);
    const at = this.#names.indexOf(lower);
    if (at === -1) {
      this.#names.push(lower);
      this.#values.push(normal);
      return;
    }
    this.#values[at] = normal;
    this.#remove(lower, at + 1);
  }

  get(name: string): string | null {
    const lower = headerName(name);
    const names = this.#names;
    let value: string | null = null;
    for (let i = 0; i < names.length; i++)
      if (names[i] === lower) value = value === null ? (this.#values[i] as string) : `${value}, ${this.#values[i] as string}`;
    return value;
  }

  has(name: string): boolean {
    return this.#names.indexOf(headerName(name)) !== -1;
  }

  delete(name: string): void {
    const lower = headerName(name);
    const at = this.#names.indexOf(lower);
    if (at !== -1) this.#remove(lower, at);
  }

  /** Removes every slot of `lower` from `from` on. */
  #remove(lower: string, from: number): void {
    const names = this.#names;
    for (let i = names.length - 1; i >= from; i--) {
      if (names[i] === lower) {
        names.splice(i, 1);
        this.#values.splice(i, 1);
      }
    }
  }

  getSetCookie(): string[] {
    const cookies: string[] = [];
    const names = this.#names;
    for (let i = 0; i < names.length; i++) if (names[i] === 'set-cookie') cookies.push(this.#values[i] as string);
    return cookies;
  }

  forEach(callback: (value: string, name: string, parent: LightHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#sorted()) callback.call(thisArg, value, name, this);
  }

  /** The entries as iteration gives them: sorted by name, repeated names joined (but `set-cookie`). */
  #sorted(): [string, string][] {
    const names = this.#names;
    const values = this.#values;
    // An insertion sort of slot numbers: stable, and for a dozen headers cheaper than
    // Array.prototype.sort with a comparator.
    const order: number[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      let at = order.length;
      while (at > 0 && (names[order[at - 1] as number] as string) > name) at--;
      order.splice(at, 0, i);
    }
    const entries: [string, string][] = [];
    for (const i of order) {
      const name = names[i] as string;
      const last = entries[entries.length - 1];
      if (last !== undefined && last[0] === name && name !== 'set-cookie') last[1] += `, ${values[i] as string}`;
      else entries.push([name, values[i] as string]);
    }
    return entries;
  }

  entries(): IterableIterator<[string, string]> {
    return this.#sorted().values();
  }

  keys(): IterableIterator<string> {
    return this.#sorted()
      .map(([name]) => name)
      .values();
  }

  values(): IterableIterator<string> {
    return this.#sorted()
      .map(([, value]) => value)
      .values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

Object.setPrototypeOf(LightHeaders.prototype, NativeHeaders.prototype);
Object.defineProperty(LightHeaders.prototype, Symbol.for('nodejs.util.inspect.custom'), {
  value(this: LightHeaders) {
    return `Headers ${JSON.stringify(Object.fromEntries(this.entries()))}`;
  },
});

/**
 * Makes `LightHeaders` the process's global `Headers`, where Hono's `Context` and
 * @hono/node-server create and recognise response headers. Once per process; idempotent.
 */
export function installLightHeaders(): void {
  if (globalThis.Headers === (LightHeaders as unknown as typeof Headers)) return;
  Object.defineProperty(globalThis, 'Headers', { value: LightHeaders, writable: true, configurable: true, enumerable: false });
}
