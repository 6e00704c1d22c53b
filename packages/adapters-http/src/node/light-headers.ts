/* eslint-disable prefer-rest-params -- what the arrays do not take reaches Node's methods with
   exactly the arguments given (their count included), and no array is made on the calls they take. */
import { inspect } from 'node:util';
import { markAsUncloneable } from 'node:worker_threads';

// Why a Headers of our own: Hono keeps a response's headers in a WHATWG `Headers` from the first
// `c.header()`, and its middleware (`secureHeaders`, `requestId`, `cors`) set theirs there too.
// Node's built-in `Headers` (undici) validates every name and value through WebIDL conversions,
// lower-cases names into new strings and keeps a sorted copy it rebuilds after each change;
// measured on `GET /posts/:id`, Hono's standard `secureHeaders` alone cost more instructions than
// the rest of the request. This class keeps the headers a server sets (token names, values Node
// can send, string arguments) on two small arrays in the order they were set, which is all
// Node's `writeHead` needs (`rawList`). Anything else (a value Node cannot send but the standard
// accepts, such as `\x01`, a name or value of another type, an init other than a plain record,
// a wrong argument count) hands the headers to a Node `Headers` holding the same entries, which
// from then on answers every call, errors included: what cannot be done on the arrays is done by
// Node's own class. It is made the global `Headers` only by fast-globals.ts, behind a stand-in
// that no other code can tell from Node's own class (but in the ways docs/architecture.md lists).

/** `Headers` as Node provides it, the contract kept. */
const NativeHeaders: typeof Headers = globalThis.Headers;

/** RFC 9110 field-name: a token. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * What Node's `writeHead` refuses in a value (`ERR_INVALID_CHAR`), and what the standard refuses
 * (`\0`, CR, LF, code points past U+00FF): values with any of them are left to Node's class.
 */
const NOT_SENDABLE = /[^\t\x20-\x7e\x80-\xff]/;
/** Anything but tab and printable ASCII: a value without any is sendable and one byte a character in every encoding. */
const NOT_PLAIN = /[^\t\x20-\x7e]/;

/** Leading or trailing HTTP whitespace, which a header value loses (WHATWG "normalize"). */
const OUTER_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * What is remembered of a header name as it was spelled: its lower-case form, that form's bit in
 * a `LightHeaders`'s presence mask (-1 past the first 31 lower-case names seen), and the last
 * value set under it when that value was printable ASCII.
 */
interface KnownName {
  readonly spelling: string;
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

/** The name's entry (an unremembered one past the bounds), or undefined for anything but a token string. */
function lightName(name: unknown): KnownName | undefined {
  const known = knownNames.get(name as string);
  if (known !== undefined) return known;
  if (typeof name !== 'string' || !FIELD_NAME.test(name)) return undefined;
  const lower = internalized(name.toLowerCase());
  const remembered = name.length <= MAX_REMEMBERED_LENGTH && knownNames.size < MAX_REMEMBERED_NAMES;
  let bit = bitOfLowerCaseName.get(lower) ?? -1;
  if (bit === -1 && remembered && bitOfLowerCaseName.size < MASK_BITS) bitOfLowerCaseName.set(lower, (bit = bitOfLowerCaseName.size));
  const entry: KnownName = { spelling: name, lower, bit, value: undefined };
  if (remembered) knownNames.set(name, entry);
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

/** The delimiter Node joins the values of one name with: `; ` for `cookie`, `, ` for any other. */
function delimiterOf(lower: string): string {
  return lower === 'cookie' ? '; ' : ', ';
}

/** A record `new Headers(init)` takes as the arrays can: a plain object of string properties only. */
function isPlainRecord(init: unknown): init is Record<string, unknown> {
  if (typeof init !== 'object' || init === null) return false;
  const prototype: unknown = Object.getPrototypeOf(init);
  return (prototype === Object.prototype || prototype === null) && Object.getOwnPropertySymbols(init).length === 0;
}

/** Node's methods, applied to Node's `Headers` behind a `LightHeaders` for what the arrays do not take. */
const nativeMethods = NativeHeaders.prototype;

/** `[name, value]` pairs as iteration gives them; `kind` picks what each step returns. */
type Kind = 'key' | 'value' | 'key+value';

/**
 * The WHATWG `Headers` contract (names case-insensitive, values normalised and checked, iteration
 * sorted by lower-case name with repeated names joined by ", " (`; ` for `cookie`) and
 * `set-cookie` kept apart) on two arrays in the order headers were added, or on a Node `Headers`
 * once something the arrays do not take arrived. A response has a dozen or so headers whose
 * lower-case names are the same remembered strings every time, so a scan finds one faster than a
 * hash lookup. Its prototype chain includes Node's `Headers.prototype`, so it passes `instanceof`
 * checks made against Node's own class, and its `constructor` is Node's prototype's (the global
 * `Headers`); like Node's, it cannot be cloned or posted (`DataCloneError`).
 */
export class LightHeaders {
  /**
   * The names in the order they were added, as remembered (lower-case form and spelling, which
   * Node's class keeps too and shows); a name added several times (`append`) has several slots.
   */
  #names: KnownName[] = [];
  #values: string[] = [];
  /**
   * Which names with a presence bit are here: most lookups are of a name that is absent (a
   * middleware asking before it sets), and the mask answers those without a scan.
   */
  #mask = 0;
  /** Whether some name has more than one slot (`append`ed again), which `rawList` then joins. */
  #repeated = false;
  /** Whether some value set had a character past ASCII (Latin-1), which the writer sends as Node does. */
  #wide = false;
  /** The iteration view, kept until the next change. */
  #sorted: [string, string][] | undefined;
  /** Node's `Headers` that answers every call once set (the arrays are then left empty). */
  #native: Headers | undefined;
  /**
   * Once Node's `Headers` answers: each lower-case name's spelling as Node keeps it (in its order),
   * which its iteration does not show and `fetch` sends.
   */
  #spellings: Map<string, string> | undefined;

  constructor(init?: unknown) {
    markAsUncloneable(this);
    if (init === undefined) return;
    if (typeof init === 'object' && init !== null && #native in init && init.#native === undefined) {
      this.#names = init.#names.slice();
      this.#values = init.#values.slice();
      this.#mask = init.#mask;
      this.#repeated = init.#repeated;
      this.#wide = init.#wide;
      return;
    }
    if (isPlainRecord(init) && this.#fill(init)) return;
    this.#clear();
    // Node's conversions, errors included, for every other init.
    this.#native = new NativeHeaders(init as ConstructorParameters<typeof Headers>[0]);
  }

  /** `new Headers(init)` on the arrays, or undefined when the arrays do not take `init` (Node's class must hold it). */
  static of(init: unknown): LightHeaders | undefined {
    if (init !== undefined && !isPlainRecord(init) && !LightHeaders.isLight(init)) return undefined;
    const headers = new LightHeaders(init);
    return headers.#native === undefined ? headers : undefined;
  }

  /** Adds the record's entries to the arrays; false (half filled) when one is not for them. */
  #fill(record: Record<string, unknown>): boolean {
    for (const name of Object.keys(record)) {
      const known = lightName(name);
      if (known === undefined) return false;
      const text = this.#lightValue(known, record[name]);
      if (text === undefined) return false;
      this.#appendLight(known, text);
    }
    return true;
  }

  /**
   * `value` normalised, or undefined when it is no string or holds what Node cannot send. The
   * server sets the same few values on every answer, so the last plain value set under each name
   * is remembered and not checked again.
   */
  #lightValue(name: KnownName, value: unknown): string | undefined {
    if (value === name.value) return value as string;
    if (typeof value !== 'string') return undefined;
    let text = value;
    if (text.length > 0 && (isHttpWhitespace(text.charCodeAt(0)) || isHttpWhitespace(text.charCodeAt(text.length - 1))))
      text = text.replace(OUTER_WHITESPACE, '');
    if (NOT_PLAIN.test(text)) {
      if (NOT_SENDABLE.test(text)) return undefined;
      this.#wide = true;
    } else if (text === value && text.length <= MAX_REMEMBERED_VALUE_LENGTH) name.value = text;
    return text;
  }

  /** Whether `value` is a `LightHeaders` still on its arrays. */
  static isLight(value: unknown): value is LightHeaders {
    return typeof value === 'object' && value !== null && #native in value && value.#native === undefined;
  }

  /**
   * From now on `headers` answers from `native`, which holds the same entries (a `Response` Node
   * built from them): the response and its headers then share one list.
   */
  static adopt(headers: LightHeaders, native: Headers): void {
    headers.#spellings = headers.#spelledNames();
    headers.#native = native;
    headers.#clear();
  }

  /** Node's `Headers` with the same entries, as spelled and in the same order (the one answering, once there is one). */
  static nativeCopy(headers: LightHeaders): Headers {
    if (headers.#native !== undefined) return headers.#native;
    const native = new NativeHeaders();
    for (let i = 0; i < headers.#names.length; i++) native.append((headers.#names[i] as KnownName).spelling, headers.#values[i] as string);
    return native;
  }

  /** Node's `Headers` with the same entries, which answers every call from now on. */
  #materialize(): Headers {
    if (this.#native !== undefined) return this.#native;
    this.#spellings = this.#spelledNames();
    const native = LightHeaders.nativeCopy(this);
    this.#native = native;
    this.#clear();
    return native;
  }

  /** Each lower-case name with the spelling Node would keep for it (its first slot's), in the order Node keeps them. */
  #spelledNames(): Map<string, string> {
    const spellings = new Map<string, string>();
    for (const { lower, spelling } of this.#names) if (!spellings.has(lower)) spellings.set(lower, spelling);
    return spellings;
  }

  #clear(): void {
    this.#names = [];
    this.#values = [];
    this.#mask = 0;
    this.#repeated = false;
    this.#sorted = undefined;
  }

  append(name: string, value: string): void {
    if (this.#native === undefined && arguments.length >= 2) {
      const known = lightName(name);
      const text = known === undefined ? undefined : this.#lightValue(known, value);
      if (known !== undefined && text !== undefined) {
        if (!this.#repeated && !this.#absent(known) && this.#slotOf(known.lower, 0) !== -1) this.#repeated = true;
        this.#appendLight(known, text);
        return;
      }
    }
    Reflect.apply(nativeMethods.append, this.#materialize(), arguments);
    // Node keeps the spelling a name first came with.
    const spelling = String(name);
    const lower = spelling.toLowerCase();
    if (!this.#spellings?.has(lower)) this.#spellings?.set(lower, spelling);
  }

  set(name: string, value: string): void {
    if (this.#native === undefined && arguments.length >= 2) {
      const known = lightName(name);
      const text = known === undefined ? undefined : this.#lightValue(known, value);
      if (known !== undefined && text !== undefined) {
        this.#setLight(known, text);
        return;
      }
    }
    Reflect.apply(nativeMethods.set, this.#materialize(), arguments);
    // Node keeps the spelling of the last set, in the name's place.
    const spelling = String(name);
    this.#spellings?.set(spelling.toLowerCase(), spelling);
  }

  get(name: string): string | null {
    if (this.#native === undefined && arguments.length >= 1) {
      const known = lightName(name);
      if (known !== undefined) {
        if (this.#absent(known)) return null;
        const lower = known.lower;
        const names = this.#names;
        let value: string | null = null;
        for (let i = 0; i < names.length; i++)
          if ((names[i] as KnownName).lower === lower) value = value === null ? (this.#values[i] as string) : `${value}${delimiterOf(lower)}${this.#values[i] as string}`;
        return value;
      }
    }
    return Reflect.apply(nativeMethods.get, this.#materialize(), arguments) as string | null;
  }

  has(name: string): boolean {
    if (this.#native === undefined && arguments.length >= 1) {
      const known = lightName(name);
      if (known !== undefined) {
        if (known.bit !== -1) return (this.#mask & (1 << known.bit)) !== 0;
        return this.#slotOf(known.lower, 0) !== -1;
      }
    }
    return Reflect.apply(nativeMethods.has, this.#materialize(), arguments) as boolean;
  }

  delete(name: string): void {
    if (this.#native === undefined && arguments.length >= 1) {
      const known = lightName(name);
      if (known !== undefined) {
        if (this.#absent(known)) return;
        this.#remove(known.lower, 0);
        if (known.bit !== -1) this.#mask &= ~(1 << known.bit);
        this.#sorted = undefined;
        return;
      }
    }
    Reflect.apply(nativeMethods.delete, this.#materialize(), arguments);
    this.#spellings?.delete(String(name).toLowerCase());
  }

  getSetCookie(): string[] {
    if (this.#native !== undefined) return this.#native.getSetCookie();
    const cookies: string[] = [];
    const names = this.#names;
    for (let i = 0; i < names.length; i++) if ((names[i] as KnownName).lower === 'set-cookie') cookies.push(this.#values[i] as string);
    return cookies;
  }

  // forEach, entries, keys and values are plain functions, as Node's are (below).
  declare forEach: (callback: (value: string, name: string, parent: LightHeaders) => void, thisArg?: unknown) => void;
  declare entries: () => IterableIterator<[string, string]>;
  declare keys: () => IterableIterator<string>;
  declare values: () => IterableIterator<string>;
  declare [Symbol.iterator]: () => IterableIterator<[string, string]>;

  /** The entries as iteration gives them now: sorted by name, repeated names joined (but `set-cookie`). */
  static sortedEntries(headers: LightHeaders): readonly [string, string][] {
    if (headers.#native !== undefined) return [...headers.#native];
    return (headers.#sorted ??= headers.#sortedLight());
  }

  /**
   * The entries as Node's `Headers` hands them to another (`fetch`, `new Request`, `new Headers`):
   * in the order the names came, each under the spelling Node keeps for it, its values joined,
   * and each `set-cookie` on its own.
   */
  static spelledEntries(headers: LightHeaders): [string, string][] {
    const native = headers.#native;
    if (native !== undefined) {
      // Built by Node from an init of another kind, whose spellings only Node knows.
      if (headers.#spellings === undefined) return [...native];
      const entries: [string, string][] = [];
      for (const [lower, spelling] of headers.#spellings) {
        if (lower === 'set-cookie') for (const cookie of native.getSetCookie()) entries.push([spelling, cookie]);
        else entries.push([spelling, native.get(lower) ?? '']);
      }
      return entries;
    }
    const entries: [string, string][] = [];
    const spellings = headers.#spelledNames();
    for (const [lower, spelling] of spellings) {
      if (lower === 'set-cookie') {
        for (const cookie of headers.getSetCookie()) entries.push([spelling, cookie]);
      } else entries.push([spelling, headers.get(lower) ?? '']);
    }
    return entries;
  }

  #sortedLight(): [string, string][] {
    const names = this.#names;
    const values = this.#values;
    // An insertion sort of slot numbers: stable, and for a dozen headers cheaper than
    // Array.prototype.sort with a comparator.
    const order: number[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = (names[i] as KnownName).lower;
      let at = order.length;
      while (at > 0 && (names[order[at - 1] as number] as KnownName).lower > name) {
        order[at] = order[at - 1] as number;
        at--;
      }
      order[at] = i;
    }
    const entries: [string, string][] = [];
    for (const i of order) {
      const name = (names[i] as KnownName).lower;
      const last = entries[entries.length - 1];
      if (last !== undefined && last[0] === name && name !== 'set-cookie') last[1] += `${delimiterOf(name)}${values[i] as string}`;
      else entries.push([name, values[i] as string]);
    }
    return entries;
  }

  /** Whether the mask says the name is not here (false when it cannot tell). */
  #absent(known: KnownName): boolean {
    return known.bit !== -1 && (this.#mask & (1 << known.bit)) === 0;
  }

  #appendLight(known: KnownName, text: string): void {
    this.#names.push(known);
    this.#values.push(text);
    if (known.bit !== -1) this.#mask |= 1 << known.bit;
    this.#sorted = undefined;
  }

  #setLight(known: KnownName, text: string): void {
    this.#sorted = undefined;
    if (this.#absent(known)) return this.#appendLight(known, text);
    const lower = known.lower;
    const names = this.#names;
    for (let i = 0; i < names.length; i++) {
      if ((names[i] as KnownName).lower === lower) {
        names[i] = known;
        this.#values[i] = text;
        this.#remove(lower, i + 1);
        return;
      }
    }
    this.#appendLight(known, text);
  }

  /** Removes every slot of `lower` from slot `from` on. */
  #remove(lower: string, from: number): void {
    const names = this.#names;
    for (let i = names.length - 1; i >= from; i--) {
      if ((names[i] as KnownName).lower === lower) {
        names.splice(i, 1);
        this.#values.splice(i, 1);
      }
    }
  }

  /** The first slot of `lower` from slot `from` on, or -1. */
  #slotOf(lower: string, from: number): number {
    const names = this.#names;
    for (let i = from; i < names.length; i++) if ((names[i] as KnownName).lower === lower) return i;
    return -1;
  }

  /**
   * The headers as Node's `writeHead` takes them, `[name, value, name, value, …]`, in the order
   * they were first set, with nothing checked again; undefined once Node's `Headers` holds them.
   * A name set several times is one line of its values joined by ", " (`; ` for `cookie`), as the
   * WHATWG view has it, but `set-cookie`, one line per cookie.
   */
  static rawList(headers: LightHeaders): string[] | undefined {
    if (headers.#native !== undefined) return undefined;
    const names = headers.#names;
    const values = headers.#values;
    const list: string[] = [];
    if (!headers.#repeated) {
      for (let i = 0; i < names.length; i++) list.push((names[i] as KnownName).lower, values[i] as string);
      return list;
    }
    for (let i = 0; i < names.length; i++) {
      const name = (names[i] as KnownName).lower;
      if (name !== 'set-cookie' && headers.#slotOf(name, 0) < i) continue;
      let value = values[i] as string;
      if (name !== 'set-cookie') for (let j = i + 1; j < names.length; j++) if ((names[j] as KnownName).lower === name) value += `${delimiterOf(name)}${values[j] as string}`;
      list.push(name, value);
    }
    return list;
  }

  /** Whether a value set on the arrays may hold a character past ASCII: Node sends the head in Latin-1. */
  static mayHoldLatin1(headers: LightHeaders): boolean {
    return headers.#wide;
  }
}

/**
 * The iterator `entries()`, `keys()` and `values()` return: live like Node's (each step reads the
 * headers as they are then), and a "Headers Iterator" as Node's is.
 */
class LightHeadersIterator {
  readonly #headers: LightHeaders;
  readonly #kind: Kind;
  #index = 0;

  constructor(headers: LightHeaders, kind: Kind) {
    this.#headers = headers;
    this.#kind = kind;
  }

  next(): IteratorResult<unknown> {
    const entries = LightHeaders.sortedEntries(this.#headers);
    if (this.#index >= entries.length) return { value: undefined, done: true };
    const entry = entries[this.#index++] as [string, string];
    return { value: this.#kind === 'key' ? entry[0] : this.#kind === 'value' ? entry[1] : [entry[0], entry[1]], done: false };
  }
}

const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;
Object.setPrototypeOf(LightHeadersIterator.prototype, iteratorPrototype);
// Its `constructor` is the iterator prototype's, as for Node's iterators.
Reflect.deleteProperty(LightHeadersIterator.prototype, 'constructor');
Object.defineProperty(LightHeadersIterator.prototype, Symbol.toStringTag, { value: 'Headers Iterator', configurable: true });
Object.defineProperty(LightHeadersIterator.prototype, Symbol.iterator, {
  value: function (this: unknown) {
    return this;
  },
  writable: true,
  configurable: true,
});

// The iteration methods, as plain functions (with a `prototype`) like Node's, and their lengths.
const functionBind = Function.prototype.bind;
/**
 * What `entries` inherits its `bind` from: undici converts a `HeadersInit` (for `fetch`, `new
 * Request`, `new Response`, Node's `new Headers`) by calling the object's iterator bound to it,
 * and takes Node's own `Headers` without iterating, as spelled; bound to a `LightHeaders` with
 * no argument more, `entries` hands it the same (`spelledEntries`), so the names go out as spelled.
 */
const spellingFunctions = Object.create(Function.prototype, {
  bind: {
    value: function bind(this: unknown, thisArg?: unknown, ...args: unknown[]): unknown {
      if (this === lightEntries && args.length === 0 && thisArg instanceof LightHeaders) {
        const spelled = { entries: () => LightHeaders.spelledEntries(thisArg)[Symbol.iterator]() }.entries;
        return Reflect.apply(functionBind, spelled, [thisArg]);
      }
      return Reflect.apply(functionBind, this, [thisArg, ...args]);
    },
    writable: true,
    configurable: true,
  },
}) as object;
const lightEntries = function entries(this: LightHeaders): IterableIterator<[string, string]> {
  return new LightHeadersIterator(this, 'key+value') as unknown as IterableIterator<[string, string]>;
};
Object.setPrototypeOf(lightEntries, spellingFunctions);
const iterationMethods = {
  forEach: function forEach(this: LightHeaders, callback: (value: string, name: string, parent: LightHeaders) => void, thisArg: unknown = globalThis): void {
    // Node's own checks and messages for a missing or uncallable callback.
    if (typeof callback !== 'function') Reflect.apply(nativeMethods.forEach, new NativeHeaders(), arguments);
    for (const [name, value] of new LightHeadersIterator(this, 'key+value') as unknown as Iterable<[string, string]>) callback.call(thisArg, value, name, this);
  },
  entries: lightEntries,
  keys: function keys(this: LightHeaders): IterableIterator<string> {
    return new LightHeadersIterator(this, 'key') as unknown as IterableIterator<string>;
  },
  values: function values(this: LightHeaders): IterableIterator<string> {
    return new LightHeadersIterator(this, 'value') as unknown as IterableIterator<string>;
  },
};
for (const [name, method] of Object.entries(iterationMethods)) Object.defineProperty(LightHeaders.prototype, name, { value: method, writable: true, enumerable: false, configurable: true });

Object.setPrototypeOf(LightHeaders.prototype, NativeHeaders.prototype);
// Its `constructor` is Node's prototype's: the global `Headers`, whichever it is (fast-globals.ts).
Reflect.deleteProperty(LightHeaders.prototype, 'constructor');
Object.defineProperty(LightHeaders.prototype, Symbol.iterator, { value: lightEntries, writable: true, configurable: true });
/** Node's own `inspect` of its `Headers`, which a light one answers with for a Node `Headers` holding the same entries. */
const nativeInspect = (NativeHeaders.prototype as unknown as Record<symbol, (...args: unknown[]) => unknown>)[inspect.custom] as (...args: unknown[]) => unknown;
Object.defineProperty(LightHeaders.prototype, inspect.custom, {
  value(this: LightHeaders, ...args: unknown[]) {
    return Reflect.apply(nativeInspect, LightHeaders.nativeCopy(this), args);
  },
  writable: true,
  configurable: true,
});
