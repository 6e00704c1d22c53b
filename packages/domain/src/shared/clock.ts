/** The time source of every use case: milliseconds since the Unix epoch. */
export interface Clock {
  now(): number;
}
