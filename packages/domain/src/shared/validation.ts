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
  const result = v.safeParse(schema, input);
  if (!result.success) throw new DomainError('ValidationFailed', toValidationIssues(result.issues));
  return result.output;
}

/**
 * An object schema whose issues read well: a missing key says "is required", anything
 * that is not a plain object says "must be an object". Unknown keys are dropped.
 */
export function objectSchema<E extends v.ObjectEntries>(entries: E) {
  return v.object(entries, (issue) =>
    issue.input === undefined && issue.path?.length ? 'is required' : 'must be an object',
  );
}
