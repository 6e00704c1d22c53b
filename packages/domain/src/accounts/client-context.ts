/**
 * What a use case may know about the caller beyond its input. Every field is optional: a
 * caller that knows nothing (a script, a test) passes nothing, and the rules keyed on that
 * field (the per-address limits) simply do not apply.
 */
export interface ClientContext {
  /** The client's network address as the adapter determined it; the key of the per-address limits. */
  readonly clientAddress?: string;
}
