import { createLogger } from '@inkwell/app';
import { Writable } from 'node:stream';

/** Every line a pino logger wrote, parsed, kept in memory. */
export interface LogCapture {
  readonly lines: string[];
  records(): Record<string, unknown>[];
}

/** A pino logger (inkwell's own, redaction included) writing into memory. */
export function capturedPino(level: 'info' | 'silent' = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const capture: LogCapture = { lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
  return { logger: createLogger(level, stream), capture };
}

