/** A free TCP port on the loopback interface, for a server the scripts start. */
import net from 'node:net';

/** Asks the kernel for a port that is free right now. Example: `const port = await freePort()`. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}
