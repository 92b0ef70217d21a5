/**
 * Graceful shutdown of an HTTP server: stop accepting connections, let every
 * response in flight reach the client whole, then close the connections.
 *
 * Node's own `server.close()` is not enough: it destroys every connection
 * whose request has been read and whose response has been ended
 * (`closeIdleConnections`), and a response counts as ended once `res.end()`
 * is called, not once its bytes have left. A 17 MB page ended a moment before
 * the signal is still in the socket's buffer, and destroying the socket cuts
 * it off while the log says 200. Here a response is in flight until its
 * `finish` event (its last byte handed to the operating system), and only
 * then is its connection ended.
 */
import type http from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';

/** What a drain did: the responses that finished during it, and those cut off at its deadline. */
export interface DrainResult {
  readonly finished: number;
  readonly cut: number;
}

/** Tracks a server's connections and responses, for {@link ConnectionTracker.drain}. */
export interface ConnectionTracker {
  /** Responses started and not yet handed whole to the operating system. */
  inFlight(): number;
  /**
   * Stops accepting connections, ends idle ones at once and each busy one
   * once its responses have finished; after `graceMs`, destroys what is left.
   * A request that arrives meanwhile on a kept-alive connection is still
   * answered, with `Connection: close`. Resolves once every connection is
   * gone.
   */
  drain(graceMs: number): Promise<DrainResult>;
}

/**
 * Starts tracking `server`'s connections; call before it listens.
 *
 * @example const tracker = trackConnections(server); … const { cut } = await tracker.drain(30_000);
 */
export function trackConnections(server: http.Server): ConnectionTracker {
  /** Every open connection, with its responses in flight. */
  const sockets = new Map<Socket, number>();
  let draining = false;
  let finished = 0;
  let settle: (() => void) | undefined;

  const endIfIdle = (socket: Socket): void => {
    if (!draining || (sockets.get(socket) ?? 0) > 0) return;
    // end(), not destroy(): a FIN after the bytes still queued, never a reset that would drop them.
    socket.end();
  };

  server.on('connection', (socket: Socket) => {
    sockets.set(socket, 0);
    socket.once('close', () => {
      sockets.delete(socket);
      if (draining && sockets.size === 0) settle?.();
    });
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    sockets.set(socket, (sockets.get(socket) ?? 0) + 1);
    // The proxy learns that this connection ends with this answer and sends its next request elsewhere.
    if (draining && !res.headersSent) res.setHeader('Connection', 'close');
    let done = false;
    const onDone = (): void => {
      if (done) return;
      done = true;
      if (draining) finished++;
      const left = (sockets.get(socket) ?? 1) - 1;
      if (sockets.has(socket)) sockets.set(socket, left);
      endIfIdle(socket);
    };
    // 'finish': the last byte is with the operating system; 'close' alone: the client went away first.
    res.once('finish', onDone);
    res.once('close', onDone);
  });

  return {
    inFlight: () => [...sockets.values()].reduce((a, b) => a + b, 0),
    drain(graceMs) {
      draining = true;
      // net.Server's close: stop listening, without http.Server's closeIdleConnections (see above).
      net.Server.prototype.close.call(server);
      const all = new Promise<void>((resolve) => {
        settle = resolve;
        if (sockets.size === 0) resolve();
      });
      for (const socket of sockets.keys()) endIfIdle(socket);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), graceMs);
      });
      return Promise.race([all, deadline]).then((outcome) => {
        clearTimeout(timer);
        let cut = 0;
        if (outcome === 'late') {
          for (const [socket, busy] of sockets) {
            cut += busy;
            socket.destroy();
          }
        }
        return { finished, cut };
      });
    },
  };
}
