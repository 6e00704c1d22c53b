import type { Logger } from '@inkwell/adapters-http';

export type CapturedLevel = 'info' | 'warn' | 'error';

/** One call made to the logger. */
export interface LogEntry {
  readonly level: CapturedLevel;
  readonly fields: Record<string, unknown>;
  readonly message: string | undefined;
}

/** A `Logger` that keeps every entry in memory, for tests that check what was (and was not) logged. */
export interface CaptureLogger extends Logger {
  readonly entries: LogEntry[];
  /** The entries of one level, in order. */
  at(level: CapturedLevel): LogEntry[];
  /** Every entry as one JSON text (errors with name, message and stack), for searching for leaks. */
  serialize(): string;
  clear(): void;
}

export function captureLogger(): CaptureLogger {
  const entries: LogEntry[] = [];
  const record = (level: CapturedLevel) => (fields: object, message?: string) => {
    entries.push({ level, fields: { ...fields }, message });
  };
  return {
    entries,
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    at: (level) => entries.filter((entry) => entry.level === level),
    serialize: () =>
      JSON.stringify(entries, (_key, value: unknown) =>
        value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
      ),
    clear: () => {
      entries.length = 0;
    },
  };
}
