/**
 * `--processes K`: K server processes behind one port, to show
 * that the provider scales out statelessly. The node:cluster primary forks K
 * workers; each runs the same server `npm start` runs (server/serve.ts) with
 * the same configuration from the environment, and the primary hands incoming
 * connections to them in turn. Any worker can continue any harvest because
 * resumption tokens are signed keyset cursors over a shared store.
 *
 * Each worker adds `X-Served-By: <pid>` to its responses, here and not in
 * server/app.ts, so the benchmark can see pages of one harvest served by
 * different processes. Usage: `WORKERS=2 node dist/bench/cluster.js`.
 */
import cluster from 'node:cluster';
import { loadConfig } from '../server/config';
import { startServer } from '../server/serve';

async function primary(workers: number): Promise<void> {
  let stopping = false;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code) => {
    if (!stopping) {
      // A worker that dies while serving is a failure the benchmark must see.
      process.stderr.write(`cluster: worker ${worker.process.pid} exited with ${code}; stopping\n`);
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      process.exitCode = 1;
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
  });
  const stop = (): void => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

async function worker(): Promise<void> {
  const running = await startServer(loadConfig());
  const pid = String(process.pid);
  // Before Express sees the request, so every response carries it.
  running.server.prependListener('request', (_req, res) => res.setHeader('X-Served-By', pid));
  const stop = (): void => {
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const count = Number(process.env.WORKERS ?? '2');
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write('cluster: WORKERS must be a positive integer\n');
  process.exit(2);
}
(cluster.isPrimary ? primary(count) : worker()).catch((err: unknown) => {
  process.stderr.write(`cluster: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
