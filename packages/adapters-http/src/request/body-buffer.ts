// A request body costs at most its size: its pieces are copied into one buffer as they arrive,
// on Node by the serving layer (node/request-body.ts), elsewhere from the web Request's stream
// (request-facts.ts).

const EMPTY = new Uint8Array(0);
/** The least a body's buffer grows by once it needs growing: small bodies in several pieces copy little. */
const MIN_GROWTH_BYTES = 4096;

/**
 * Bytes appended into one buffer, which doubles as it fills, up to `capacity` bytes and never
 * past it: the body's declared `Content-Length`, or the body limit. It never starts at its
 * capacity: a header that claims a 1 MiB body costs the client a few bytes, and the server
 * nothing until the bytes come.
 */
export class BodyBuffer {
  #bytes: Uint8Array = EMPTY;
  #size = 0;

  constructor(readonly capacity: number) {}

  /** Bytes appended so far. */
  get size(): number {
    return this.#size;
  }

  /** Appends `piece`; false, appending nothing, when that would pass the capacity. */
  append(piece: Uint8Array): boolean {
    const size = this.#size + piece.byteLength;
    if (size > this.capacity) return false;
    // A body that comes whole in its first piece (the usual case) is that piece, not a copy of it.
    if (this.#size === 0 && piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength) {
      this.#bytes = piece;
      this.#size = size;
      return true;
    }
    if (size > this.#bytes.byteLength) {
      const grown = new Uint8Array(Math.min(this.capacity, Math.max(size, this.#bytes.byteLength * 2, MIN_GROWTH_BYTES)));
      grown.set(this.#bytes.subarray(0, this.#size));
      this.#bytes = grown;
    }
    this.#bytes.set(piece, this.#size);
    this.#size = size;
    return true;
  }

  /** The bytes appended, without a copy. */
  bytes(): Uint8Array {
    return this.#bytes.subarray(0, this.#size);
  }
}
