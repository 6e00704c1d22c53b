// Why a Headers of our own: Hono keeps a response's headers in a WHATWG `Headers` from the first
// `c.header()`, and its middleware (`secureHeaders`, `requestId`, `cors`) set theirs there too.
// Node's built-in `Headers` (undici) validates every name and value through WebIDL conversions,
// lower-cases names into new strings and keeps a sorted copy it rebuilds after each change;
// measured on `GET /posts/:id`, Hono's standard `secureHeaders` alone cost more instructions than
// the rest of the request. This class keeps the same contract on two small arrays, remembers the
// lower-case spelling and the last valid value of each name it has seen, and keeps the headers in
// the order they were set, which is all Node's `writeHead` needs (`rawHeaderList`): the WHATWG
// sorted view is built only when someone iterates. `installLightHeaders` puts it where Hono and
// @hono/node-server look it up, as @hono/node-server already does with its light `Request` and
// `Response`.

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
 * What is remembered of a header name as it was spelled: its lower-case form, that form's bit in
 * a `LightHeaders`'s presence mask (-1 past the first 31 lower-case names seen), and the last
 * valid value set under it.
 */
interface KnownName {
  readonly lower: string;
  readonly bit: number;
  value: string | undefined;
}

/**
 * Spellings remembered (short ones only: a client can send any name), past which names are
 * checked and lower-cased on every use.
 */
const MAX_REMEMBERED_NAMES = 1024;
const MAX_REMEMBERED_LENGTH = 64;
const MAX_REMEMBERED_VALUE_LENGTH = 128;
const knownNames = new Map<string, KnownName>();

/** The presence bit of each lower-case name that has one: the first 31 remembered, which are those every answer sets. */
const MASK_BITS = 31;
const bitOfLowerCaseName = new Map<string, number>();

/** The name's entry, or an unremembered one for a name past the bounds. Throws for a name that is no token. */
function knownName(name: string): KnownName {
  const known = knownNames.get(name);
  if (known !== undefined) return known;
  const text = String(name);
  if (!FIELD_NAME.test(text)) throw new TypeError(`Invalid header name: "${text}"`);
  const lower = internalized(text.toLowerCase());
  const remembered = text.length <= MAX_REMEMBERED_LENGTH && knownNames.size < MAX_REMEMBERED_NAMES;
  let bit = bitOfLowerCaseName.get(lower) ?? -1;
  if (bit === -1 && remembered && bitOfLowerCaseName.size < MASK_BITS) bitOfLowerCaseName.set(lower, (bit = bitOfLowerCaseName.size));
  const entry: KnownName = { lower, bit, value: undefined };
  if (remembered) knownNames.set(text, entry);
  return entry;
}

/**
 * `text` as V8's one shared copy of it (property keys are kept that way), so that comparing two
 * different remembered names is a pointer comparison rather than a look at their characters.
 */
function internalized(text: string): string {
  return Object.keys({ [text]: true })[0] as string;
}

function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** `value` normalised and checked; throws for a value Node would refuse to send. */
function checkedValue(value: string): string {
  let text = typeof value === 'string' ? value : String(value);
  if (text.length > 0 && (isHttpWhitespace(text.charCodeAt(0)) || isHttpWhitespace(text.charCodeAt(text.length - 1))))
    text = text.replace(OUTER_WHITESPACE, '');
  if (INVALID_VALUE.test(text)) throw new TypeError(`Invalid header value: "${text}"`);
  return text;
}

/**
 * The value to store under `name`: the server sets the same few values on every answer, so the
 * last valid one of each name is remembered and not checked again. Values a client sent (request
 * headers are `append`ed) are checked but never remembered.
 */
function setValue(name: KnownName, value: string): string {
  if (value === name.value) return value;
  const text = checkedValue(value);
  if (text === value && text.length <= MAX_REMEMBERED_VALUE_LENGTH) name.value = text;
  return text;
}

/** Anything `new Headers(init)` takes. */
type Init = Iterable<readonly string[]> | Record<string, string> | LightHeaders;

/**
 * The WHATWG `Headers` contract (names case-insensitive, values normalised and checked, iteration
 * sorted by lower-case name with repeated names joined by ", " and `set-cookie` kept apart) on
 * two arrays in the order headers were added. A response has a dozen or so headers whose
 * lower-case names are the same remembered strings every time, so a scan finds one faster than
 * a hash lookup. Its prototype chain includes Node's `Headers.prototype`, so it passes
 * `instanceof` checks made against Node's own class.
 */
export class LightHeaders {
  /** Lower-case names in the order they were added; a name added several times (`append`) has several slots. */
  #names: string[] = [];
  #values: string[] = [];
  /**
   * Which names with a presence bit are here: most lookups are of a name that is absent (a
   * middleware asking before it sets), and the mask answers those without a scan.
   */
  #mask = 0;
  /** Whether some name has more than one slot (`append`ed again), which `rawList` then joins. */
  #repeated = false;

  constructor(init?: Init | null) {
    if (init === undefined || init === null) return;
    if (init instanceof LightHeaders) {
      this.#names = init.#names.slice();
      this.#values = init.#values.slice();
      this.#mask = init.#mask;
      this.#repeated = init.#repeated;
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
    const known = knownName(name);
    const text = checkedValue(value);
    if (!this.#repeated && !this.#absent(known) && this.#names.includes(known.lower)) this.#repeated = true;
    this.#add(known, text);
  }

  set(name: string, value: string): void {
    const known = knownName(name);
    const text = setValue(known, value);
    if (this.#absent(known)) return this.#add(known, text);
    const lower = known.lower;
    const names = this.#names;
    for (let i = 0; i < names.length; i++) {
      if (names[i] === lower) {
        this.#values[i] = text;
        this.#remove(lower, i + 1);
        return;
      }
    }
    this.#add(known, text);
  }

  get(name: string): string | null {
    const known = knownName(name);
    if (this.#absent(known)) return null;
    const lower = known.lower;
    const names = this.#names;
    let value: string | null = null;
    for (let i = 0; i < names.length; i++)
      if (names[i] === lower) value = value === null ? (this.#values[i] as string) : `${value}, ${this.#values[i] as string}`;
    return value;
  }

  has(name: string): boolean {
    const known = knownName(name);
    if (known.bit !== -1) return (this.#mask & (1 << known.bit)) !== 0;
    const lower = known.lower;
    const names = this.#names;
    for (let i = 0; i < names.length; i++) if (names[i] === lower) return true;
    return false;
  }

  delete(name: string): void {
    const known = knownName(name);
    if (this.#absent(known)) return;
    this.#remove(known.lower, 0);
    if (known.bit !== -1) this.#mask &= ~(1 << known.bit);
  }

  /** Whether the mask says the name is not here (false when it cannot tell). */
  #absent(known: KnownName): boolean {
    return known.bit !== -1 && (this.#mask & (1 << known.bit)) === 0;
  }

  #add(known: KnownName, text: string): void {
    this.#names.push(known.lower);
    this.#values.push(text);
    if (known.bit !== -1) this.#mask |= 1 << known.bit;
  }

  /** Removes every slot of `lower` from slot `from` on. */
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
      while (at > 0 && (names[order[at - 1] as number] as string) > name) {
        order[at] = order[at - 1] as number;
        at--;
      }
      order[at] = i;
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

  /**
   * The headers as Node's `writeHead` takes them, `[name, value, name, value, …]`, in the order
   * they were first set, with nothing checked again. A name set several times is one line of
   * its values joined by ", ", as the WHATWG view has it, but `set-cookie`, one line per cookie.
   */
  static rawList(headers: LightHeaders): string[] {
    const names = headers.#names;
    const values = headers.#values;
    const list: string[] = [];
    if (!headers.#repeated) {
      for (let i = 0; i < names.length; i++) list.push(names[i] as string, values[i] as string);
      return list;
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      if (name !== 'set-cookie' && names.indexOf(name) < i) continue;
      let value = values[i] as string;
      if (name !== 'set-cookie') for (let j = i + 1; j < names.length; j++) if (names[j] === name) value += `, ${values[j] as string}`;
      list.push(name, value);
    }
    return list;
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
