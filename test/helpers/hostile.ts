/**
 * What the tests of hostile clients share: an app served on a loopback port,
 * a store that answers slowly, and raw connections that send what a
 * well-behaved HTTP client never would.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from '../../server/app';
import type { ReadStore } from '../../lib/store';

/** A store whose reads (not its ping) take `ms` longer, so requests hold their slots. */
export function slowStore(store: ReadStore, ms: number): ReadStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || prop === 'ping') return typeof v === 'function' ? v.bind(target) : v;
      return async (...args: unknown[]) => {
        await new Promise((r) => setTimeout(r, ms));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A server over the app these options make, on a random loopback port. */
export async function serveApp(options: AppOptions): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer({ connectionsCheckingInterval: 200 }, createApp(options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A raw connection and everything it has received so far. */
export interface Raw {
  readonly socket: net.Socket;
  received(): string;
  /** Resolves when the server closed the connection (or after `ms`). */
  closed(ms: number): Promise<boolean>;
}

export function connect(port: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let ended = false;
    const waiters: (() => void)[] = [];
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      ended = true;
      for (const w of waiters) w();
    });
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => text,
        closed: (ms) =>
          new Promise((done) => {
            if (ended) return done(true);
            const t = setTimeout(() => done(false), ms);
            waiters.push(() => {
              clearTimeout(t);
              done(true);
            });
          }),
      }),
    );
    socket.once('error', reject);
  });
}
