import type { Worker } from 'node:cluster';

// node:cluster's round-robin primary (its default everywhere but Windows) accepts each connection
// itself and hands it to a free worker over IPC, keeping its own copy of the socket open until
// the worker answers that it took it (lib/internal/cluster/round_robin_handle.js, `handoff`). A
// worker that wedges never reads the handoff, so it never answers, and when it dies Node forgets
// the handoff but not the socket: the primary holds the connection for as long as it runs, and
// its client waits for an answer that cannot come. A worker that wedges while serving was free,
// and is handed the next connection.
//
// What closeUnansweredHandoffs relies on, which Node does not document, checked against the
// running Node by cluster-handoffs.test.ts (which also shows the connection left open without it):
// 1. The handoff is `worker.process.send({ cmd: 'NODE_CLUSTER', act: 'newconn', seq, … }, handle)`,
//    through the child process's own `send` (lib/internal/cluster/utils.js, `sendHelper`).
// 2. The worker's answer reaches the primary as an 'internalMessage' event of its child process,
//    `{ cmd: 'NODE_CLUSTER', ack: seq, accepted }`, whether it took the connection or not.

interface ClusterMessage {
  readonly cmd?: unknown;
  readonly act?: unknown;
  readonly seq?: unknown;
  readonly ack?: unknown;
}

/** A socket handle as the primary holds it. */
interface Closable {
  close(): void;
}

type Send = (...args: unknown[]) => boolean;

/**
 * Closes, when `worker` exits, every connection the primary handed to it that it never answered
 * for, so that their clients see the connection close instead of waiting forever. Called on
 * every worker as soon as it is forked.
 */
export function closeUnansweredHandoffs(worker: Worker): void {
  const child = worker.process as Worker['process'] & { send: Send };
  const unanswered = new Map<unknown, Closable>();
  const send = child.send;
  child.send = (...args: unknown[]) => {
    const [message, handle] = args as [ClusterMessage | undefined, Closable | undefined];
    if (message?.cmd === 'NODE_CLUSTER' && message.act === 'newconn' && handle !== undefined) unanswered.set(message.seq, handle);
    return send.apply(child, args);
  };
  child.on('internalMessage', (message: ClusterMessage) => {
    if (message.cmd === 'NODE_CLUSTER' && message.ack !== undefined) unanswered.delete(message.ack);
  });
  worker.once('exit', () => {
    for (const handle of unanswered.values()) handle.close();
    unanswered.clear();
  });
}
