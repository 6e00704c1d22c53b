/** The log sink the HTTP adapter writes to; pino's loggers satisfy it. */
export interface Logger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}
