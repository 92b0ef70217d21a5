/**
 * The replica step of the benchmark (`--replica`, PostgreSQL only): harvest
 * traffic on one primary against a primary and a read replica. A primary and
 * a hot standby of it are started under a temporary folder
 * (harness/replicated-cluster.ts, as the replica test starts them), the
 * records are loaded on the primary through the write path and replayed by
 * the standby, and N ListRecords harvests at once run against one server
 * process on the primary, then against two: that one and a process reading
 * the standby (`readReplica`), the harvests spread over both. One and two
 * alternate, three pairs, and the figure is the median of the pairs' ratios:
 * the machine is shared, and a ratio of neighbours is what stays.
 */
import { startReplicatedCluster } from '../harness/replicated-cluster';
import { median, ratio } from './figures';
import type { ReplicaFigures } from './figures';
import type { ConcurrentResult } from './harvest-client';
import { directLoad, settleStore } from './load';
import type { BenchOptions } from './options';
import { runClient, startProvider, type BenchServer } from './serve';
import { freshStore } from './stores';

const log = (s: string): void => void process.stderr.write(`${s}\n`);

/** Pairs of (one process, two processes) runs, alternating. */
export const REPLICA_PAIRS = 3;

/** The harvests at once when `--harvesters` does not say: enough to keep two processes busy. */
export const REPLICA_HARVESTERS = 4;

/** The figures of a run without `--replica`. */
export const NO_REPLICA: ReplicaFigures = {
  replica_harvesters: null,
  replica_primary_rps: null,
  replica_both_rps: null,
  replica_of_primary: null,
  replica_pair_ratios: null,
};

/**
 * Runs the replica step: a fresh primary and standby, the store loaded on the
 * primary, and the paired harvests. Everything it starts is stopped and
 * removed before it returns.
 */
export async function runReplicaStep(o: BenchOptions, env: NodeJS.ProcessEnv, tmp: string): Promise<ReplicaFigures> {
  const harvesters = o.harvesters > 1 ? o.harvesters : REPLICA_HARVESTERS;
  log('replica: a primary and a hot standby under a temporary folder …');
  const cluster = await startReplicatedCluster();
  const servers: BenchServer[] = [];
  try {
    const store = await freshStore(cluster.primaryUrl, true);
    await directLoad(o, env, store.url);
    await settleStore(env, store.url, o.formats);
    await cluster.caughtUp();
    const standby = new URL(store.url);
    standby.port = new URL(cluster.replicaUrl).port;
    // Every process of a deployment with replicas carries positions in its tokens (docs/operations.md).
    const common = { ...env, DATABASE_URL: store.url, OAI_TOKEN_SECRET: 'one secret for every process', OAI_TOKEN_POSITIONS: 'true' };
    const primary = await startProvider(common, 1, undefined);
    servers.push(primary);
    const replica = await startProvider({ ...common, OAI_READ_REPLICA: standby.toString() }, 1, undefined);
    servers.push(replica);
    const sampled = o.harvestPages > 0 ? { maxPages: o.harvestPages } : {};
    const run = async (urls: readonly string[]): Promise<number> => {
      const c = await runClient<ConcurrentResult>({ task: 'concurrent', baseUrl: primary.baseUrl, baseUrls: urls, harvesters, gzip: o.gzip, ...sampled }, tmp);
      return Math.round(c.items / c.seconds);
    };
    const one: number[] = [];
    const two: number[] = [];
    for (let i = 0; i < REPLICA_PAIRS; i++) {
      log(`replica: ${harvesters} ListRecords harvests at once, pair ${i + 1} of ${REPLICA_PAIRS}: the primary's process, then it and the replica's …`);
      one.push(await run([primary.baseUrl]));
      two.push(await run([primary.baseUrl, replica.baseUrl]));
      log(`  ${one[i]} / ${two[i]} records/s`);
    }
    const ratios = one.map((x, i) => ratio(two[i] as number, x) as number);
    return {
      replica_harvesters: harvesters,
      replica_primary_rps: median(one),
      replica_both_rps: median(two),
      replica_of_primary: median(ratios),
      replica_pair_ratios: ratios,
    };
  } finally {
    for (const s of servers.reverse()) await s.stop();
    cluster.stop();
  }
}
