/** The body limit (docs/api.md, Conventions): bodies over 1 MiB are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;
