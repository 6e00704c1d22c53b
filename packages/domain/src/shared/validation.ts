import * as v from 'valibot';
import { DomainError, type ValidationIssue } from './errors.js';

/** Valibot issues as the API reports them: the dotted path and our own message, never the input. */
export function toValidationIssues(issues: readonly v.BaseIssue<unknown>[]): ValidationIssue[] {
  return issues.map((issue) => ({
    path: issue.path?.map((item) => String(item.key)).join('.') ?? '',
    message: issue.message,
  }));
}

/** Validates `input` against `schema`, throwing `ValidationFailed` with every issue found. */
export function parseInput<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  // Valibot's object schema takes arrays for objects; every input of ours is a JSON object.
  if (Array.isArray(input)) throw new DomainError('ValidationFailed', [{ path: '', message: 'must be an object' }]);
  const result = v.safeParse(schema, input);
  if (!result.success) throw new DomainError('ValidationFailed', toValidationIssues(result.issues));
  return result.output;
}

/**
 * How a use case reads its request's body: called once, when its rules reach the body (after the
 * credentials, after a post's existence), so a caller that reads it from a client refuses a bad
 * body only when nothing before it has refused the request. A failure to read it (the body too
 * large, not JSON) is the caller's own error, passed through.
 */
export type ReadBody = () => Promise<unknown>;

/** The request's body, read now; a request without one is an empty object, so validation names what is required. */
export function readBody(body: ReadBody | undefined): Promise<unknown> {
  return body === undefined ? Promise.resolve({}) : body();
}

/**
 * An object schema whose issues read well: a missing key says "is required", anything
 * that is not a plain object says "must be an object". Unknown keys are dropped.
 */
export function objectSchema<E extends v.ObjectEntries>(entries: E) {
  return v.object(entries, objectIssueMessage);
}

/**
 * What an object schema says of a missing key or a value that is no object. Named, so that the
 * schemas' published types print it as one name rather than as a union whose order the compiler
 * chooses differently from build to build.
 */
export type ObjectIssueMessage = 'is required' | 'must be an object';

function objectIssueMessage(issue: v.ObjectIssue): ObjectIssueMessage {
  return issue.input === undefined && issue.path?.length ? 'is required' : 'must be an object';
}

/**
 * A string field: must be a string of well-formed Unicode. A lone surrogate has no UTF-8 form,
 * so a store (BSON, or any UTF-8 file or socket) would silently turn it into U+FFFD; it is
 * refused up front instead. Null bytes and every real character are kept as sent.
 */
export function textSchema() {
  return v.pipe(
    v.string('must be a string'),
    v.check((text: string) => !LONE_SURROGATE.test(text), 'must be well-formed Unicode (no unpaired surrogates)'),
  );
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
