import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config.js';

/**
 * inkwell's structured JSON logger. Secrets are redacted by path as a second line of defence:
 * no code path logs them on purpose.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'inkwell' },
      redact: {
        paths: [
          'password',
          '*.password',
          'passwordHash',
          '*.passwordHash',
          'token',
          '*.token',
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    // Synchronous writes: a line logged just before process.exit is never lost, and lines keep their order.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
