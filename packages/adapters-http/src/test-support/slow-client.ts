import type { Socket } from 'node:net';
import { afterEach } from 'vitest';
import type { NodeServer } from '../node/serve-node.js';

/** 8 MiB of UTF-8 in one string: far more than the kernel's buffers hold for a client that has not read it. */
export const LONG_ANSWER = '✓é'.repeat((8 * 1024 * 1024) / 5);

/**
 * The server and client sockets a test of the enclosing `describe` opens, closed after each test:
 * set `server`, push to `sockets`.
 */
export function closedAfterEach(): { server: NodeServer | undefined; readonly sockets: Socket[] } {
  const opened: { server: NodeServer | undefined; readonly sockets: Socket[] } = { server: undefined, sockets: [] };
  afterEach(async () => {
    for (const socket of opened.sockets.splice(0)) socket.destroy();
    await opened.server?.close();
    opened.server = undefined;
  });
  return opened;
}

/** Reads a connection `bytesPerTick` at a time every `everyMs`, until it ends or is reset; what it got and how it ended. */
export function readSlowly(socket: Socket, bytesPerTick: number, everyMs: number): Promise<{ received: Buffer; error: string | undefined }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.pause();
    const tick = setInterval(() => {
      for (let got = 0; got < bytesPerTick; ) {
        const chunk = socket.read() as Buffer | null;
        if (chunk === null) break;
        chunks.push(chunk);
        got += chunk.length;
      }
    }, everyMs);
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('end', () => {
      for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null) chunks.push(chunk);
    });
    socket.once('close', () => {
      clearInterval(tick);
      resolve({ received: Buffer.concat(chunks), error });
    });
  });
}
