/**
 * The measure step of the benchmark: the loaded store served and harvested,
 * each harvest beside the limits it lives between, in this order:
 *
 * 1. the floor (bench/floor.ts), before any server runs, so it has the
 *    machine to itself;
 * 2. the server as `npm start` runs it (bench/serve.ts): the ListRecords and
 *    ListIdentifiers harvests in oai_dc with page times, a ListRecords harvest
 *    in every other format the store holds, all under an RSS sampler; then
 *    GetRecord under concurrency and N harvests at once;
 * 3. what metrics and the next-page prefetch cost: fresh servers with each
 *    switched off, in turn;
 * 4. the replay ceiling (bench/replay.ts) of every list harvested in 2;
 * 5. the pyoai peer (bench/peer.ts) over the same store, when given.
 *
 * With `--harvest-pages P` every list harvest stops after P pages, and the
 * middle and last pages are asked for with tokens built from the store
 * (bench/deep-token.ts), as a full harvest would ask for them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config';
import { databaseKind, sqliteFilename } from '../server/db/connection';
import { openProvider } from '../server/provider';
import { deepTokens, type DeepTokens } from './deep-token';
import { ratio, round, type FormatHarvest, type ServeFigures } from './figures';
import { measureFloor } from './floor';
import type { ConcurrentResult, GetRecordResult, HarvestFigures, HarvestResult, ListsResult } from './harvest-client';
import type { BenchOptions } from './options';
import { PEER_PAGING, peerUnavailable, startPeer } from './peer';
import { cpuSeconds, machineBusySeconds, rssSampler, serverPids, type CoresUsed } from './procfs';
import { processesRatioBound } from './scaling';
import { runClient, startProvider, startReplay, type BenchServer } from './serve';
import { settleDisk } from './stores';

const log = (s: string): void => void process.stderr.write(`${s}\n`);

const rps = (x: { items: number; seconds: number }): number => Math.round(x.items / x.seconds);

/** Both list harvests of a fresh server, and the server CPU they took. */
type ListsRun = HarvestResult & { cpuSeconds: number };

/**
 * Runs the measure step on the store at `storeUrl` (servers started with
 * `env`, the run's configuration) and returns its figures.
 */
export async function runMeasureStep(
  o: BenchOptions,
  env: NodeJS.ProcessEnv,
  storeUrl: string,
  formatsLoaded: readonly string[],
  tmp: string,
): Promise<ServeFigures> {
  const env1 = { ...env, DATABASE_URL: storeUrl };
  const sampled = o.harvestPages > 0 ? { maxPages: o.harvestPages } : {};

  // 1. The floor, before any server runs (and after the writes of the loads: the load floor alone writes the whole store again).
  settleDisk();
  log('floor: bare keyset scan and page assembly in-process …');
  const floor = await measureFloor(storeUrl, databaseKind(storeUrl) === 'sqlite' ? sqliteFilename(storeUrl) : undefined);

  // A sampled harvest never reaches the middle and last pages: ask for them with tokens built from the store.
  let tokens: DeepTokens | null = null;
  if (o.harvestPages > 0) {
    const provider = await openProvider(loadConfig(env1));
    try {
      tokens = await deepTokens(provider, 'oai_dc', Math.floor(Date.now() / 1000));
    } finally {
      await provider.close();
    }
    if (tokens) log(`tokens built for page ${Math.floor(tokens.pages / 2) + 1} and page ${tokens.pages} of ${tokens.pages}`);
  }

  // 2. The server, as `npm start` runs it: harvests and page times, sampling its memory meanwhile.
  let server: BenchServer | undefined = await startProvider(env1, o.processes, o.profile);
  try {
    log(`server ready on ${server.baseUrl} (pid ${server.pid}, ${o.processes} process(es))`);
    const captured = fs.mkdtempSync(path.join(tmp, 'captured-'));
    const rss = rssSampler(server.pid);
    const h = await runClient<HarvestResult>(
      {
        task: 'harvest',
        baseUrl: server.baseUrl,
        repeats: o.repeats,
        gzip: o.gzip,
        spreadPages: 20,
        sample: 1000,
        capture: captured,
        ...sampled,
        ...(tokens && { pageTokens: { middle: tokens.middle, last: tokens.last } }),
      },
      tmp,
    );
    const others = formatsLoaded.filter((p) => p !== 'oai_dc');
    const formats =
      others.length === 0
        ? {}
        : await runClient<ListsResult>({ task: 'lists', baseUrl: server.baseUrl, prefixes: others, gzip: o.gzip, capture: captured, ...sampled }, tmp);
    const mem = rss.stop();

    // GetRecord under concurrency, then N harvests at once.
    let g: GetRecordResult | null = null;
    if (!o.skipGetRecord) {
      log(`GetRecord: ${o.connections} connections for ${o.duration} s …`);
      g = await runClient<GetRecordResult>(
        { task: 'getrecord', baseUrl: server.baseUrl, identifiers: h.identifiers, connections: o.connections, duration: o.duration },
        tmp,
      );
    }
    // Where the cores go while N harvests run at once: the client, the server process(es), and the rest of the machine.
    const cores: Record<number, CoresUsed> = {};
    const concurrent = async (s: BenchServer, processes: number): Promise<number> => {
      log(`${o.harvesters} ListRecords harvests at once against ${processes} process(es) …`);
      const pids = serverPids(s.pid);
      const [serverBefore, machineBefore] = [cpuSeconds(pids), machineBusySeconds()];
      const c = await runClient<ConcurrentResult>({ task: 'concurrent', baseUrl: s.baseUrl, harvesters: o.harvesters, gzip: o.gzip, ...sampled }, tmp);
      const [servers, machine] = [cpuSeconds(pids) - serverBefore, machineBusySeconds() - machineBefore];
      if (c.items !== o.harvesters * h.listRecords.items)
        throw new Error(`${o.harvesters} harvests returned ${c.items} records, not ${o.harvesters} × ${h.listRecords.items}`);
      const per = (x: number): number => round(x / c.seconds, 2);
      cores[processes] = { client: per(c.clientCpuSeconds), servers: per(servers), other: per(Math.max(0, machine - servers - c.clientCpuSeconds)) };
      return Math.round(c.items / c.seconds);
    };
    const concurrentRps = o.harvesters > 1 ? await concurrent(server, o.processes) : null;
    await server.stop();
    let concurrentOne: number | null = null;
    if (o.harvesters > 1 && o.processes > 1) {
      server = await startProvider(env1, 1, undefined);
      concurrentOne = await concurrent(server, 1);
      await server.stop();
    }

    // 3. What metrics cost: the list harvests on a fresh server with metrics on
    // and off, alternately, twice each, the better of each pair counted (the
    // main harvest above is not comparable: it runs first, and under the RSS sampler).
    // Server CPU time is counted as well: on a shared machine it varies far less than the rates do.
    // The same for the next-page prefetch (server/http/prefetch.ts): on (with metrics on) against off.
    const listsOnly = async (metrics: boolean, prefetch = true): Promise<ListsRun> => {
      server = await startProvider({ ...env1, OAI_METRICS: String(metrics), OAI_PREFETCH: String(prefetch) }, o.processes, undefined);
      log(`list harvests with OAI_METRICS=${metrics} OAI_PREFETCH=${prefetch} …`);
      const pids = serverPids(server.pid);
      const before = cpuSeconds(pids);
      const r = await runClient<HarvestResult>(
        { task: 'harvest', baseUrl: server.baseUrl, repeats: 0, gzip: o.gzip, spreadPages: 0, sample: 0, listsOnly: true, ...sampled },
        tmp,
      );
      const cpu = cpuSeconds(pids) - before;
      await server.stop();
      return { ...r, cpuSeconds: cpu };
    };
    const on: ListsRun[] = [];
    const off: ListsRun[] = [];
    const noPrefetch: ListsRun[] = [];
    for (let round = 0; round < 2; round++) {
      on.push(await listsOnly(true));
      off.push(await listsOnly(false));
      noPrefetch.push(await listsOnly(true, false));
    }
    // 3b. The minimal client (it counts records in the bytes) against a fresh server, every format.
    const allFormats = ['oai_dc', ...others];
    server = await startProvider(env1, o.processes, undefined);
    log('ListRecords in every format with the minimal client …');
    const minimal = await runClient<ListsResult>({ task: 'count', baseUrl: server.baseUrl, prefixes: allFormats, ...sampled }, tmp);
    await server.stop();
    const best = (runs: HarvestResult[], list: 'listRecords' | 'listIdentifiers'): number => Math.max(...runs.map((r) => rps(r[list])));
    const leastCpu = (runs: { cpuSeconds: number }[]): number => round(Math.min(...runs.map((r) => r.cpuSeconds)), 2);

    // 4. The replay ceiling: the same harvester against a server that only replays the captured pages.
    server = await startReplay(captured);
    log('replay ceiling: the same harvests against captured pages …');
    const ceiling = await runClient<HarvestResult>(
      { task: 'harvest', baseUrl: server.baseUrl, repeats: 0, gzip: false, spreadPages: 0, sample: 0, listsOnly: true, ...sampled },
      tmp,
    );
    const formatsCeiling =
      others.length === 0 ? {} : await runClient<ListsResult>({ task: 'lists', baseUrl: server.baseUrl, prefixes: others, gzip: false, ...sampled }, tmp);
    const minimalCeiling = await runClient<ListsResult>({ task: 'count', baseUrl: server.baseUrl, prefixes: allFormats, ...sampled }, tmp);
    await server.stop();
    const same = (name: string, a: HarvestFigures | undefined, b: HarvestFigures | undefined): void => {
      if (!a || !b || a.items !== b.items || a.pages !== b.pages)
        throw new Error(`the replay of ${name} served ${a?.items} items in ${a?.pages} pages, not ${b?.items} in ${b?.pages}`);
    };
    same('ListRecords', ceiling.listRecords, h.listRecords);
    same('ListIdentifiers', ceiling.listIdentifiers, h.listIdentifiers);
    for (const p of others) same(`ListRecords ${p}`, formatsCeiling[p], formats[p]);
    for (const p of allFormats) {
      same(`ListRecords ${p} (minimal client)`, minimalCeiling[p], minimal[p]);
      if (minimal[p]?.items !== (p === 'oai_dc' ? h.listRecords : formats[p])?.items)
        throw new Error(
          `the minimal client counted ${minimal[p]?.items} records of ${p}, the harvester ${(p === 'oai_dc' ? h.listRecords : formats[p])?.items}`,
        );
    }

    // 5. The pyoai peer: the same store served by pyoai, the same harvester, every item once.
    const database = databaseKind(storeUrl) === 'postgres' ? 'postgresql' : 'sqlite';
    const peerNote = peerUnavailable(o.pyoai, database);
    let peer: HarvestResult | null = null;
    if (peerNote === null) {
      const p = await startPeer(o.pyoai as string, sqliteFilename(storeUrl));
      log('pyoai peer: the same harvests against pyoai over the same store …');
      try {
        const expectItems = o.harvestPages > 0 ? {} : { expectItems: h.listRecords.items };
        peer = await runClient<HarvestResult>(
          { task: 'harvest', baseUrl: p.baseUrl, repeats: 0, gzip: false, spreadPages: 0, sample: 0, listsOnly: true, ...expectItems, ...sampled },
          tmp,
        );
      } finally {
        await p.stop();
      }
    }

    const lr = h.listRecords;
    const li = h.listIdentifiers;
    const byFormat = (x: HarvestFigures, c: HarvestFigures): FormatHarvest => ({
      items: x.items,
      pages: x.pages,
      rps: rps(x),
      bytes_per_s: Math.round(x.bytes / x.seconds),
      ceiling_rps: rps(c),
      of_ceiling: ratio(rps(x), rps(c)),
    });
    const listrecordsFormats: Record<string, FormatHarvest> = { oai_dc: byFormat(lr, ceiling.listRecords) };
    for (const p of others) listrecordsFormats[p] = byFormat(formats[p] as HarvestFigures, formatsCeiling[p] as HarvestFigures);
    const minimalFormats: Record<string, FormatHarvest> = {};
    for (const p of allFormats) minimalFormats[p] = byFormat(minimal[p] as HarvestFigures, minimalCeiling[p] as HarvestFigures);
    return {
      harvest_pages: o.harvestPages > 0 ? o.harvestPages : null,
      listrecords_items: lr.items,
      listrecords_pages: lr.pages,
      listrecords_seconds: round(lr.seconds, 2),
      listrecords_rps: rps(lr),
      listrecords_bytes_per_s: Math.round(lr.bytes / lr.seconds),
      listidentifiers_seconds: round(li.seconds, 2),
      listidentifiers_rps: rps(li),
      listidentifiers_bytes_per_s: Math.round(li.bytes / li.seconds),
      ceiling_listrecords_rps: rps(ceiling.listRecords),
      ceiling_listidentifiers_rps: rps(ceiling.listIdentifiers),
      floor_listrecords_rps: rps(floor.listRecords),
      floor_listidentifiers_rps: rps(floor.listIdentifiers),
      listrecords_of_ceiling: ratio(rps(lr), rps(ceiling.listRecords)),
      listrecords_of_floor: ratio(rps(lr), rps(floor.listRecords)),
      listidentifiers_of_ceiling: ratio(rps(li), rps(ceiling.listIdentifiers)),
      listidentifiers_of_floor: ratio(rps(li), rps(floor.listIdentifiers)),
      listrecords_formats: listrecordsFormats,
      minimal_listrecords_formats: minimalFormats,
      peer_listrecords_rps: peer && rps(peer.listRecords),
      peer_listidentifiers_rps: peer && rps(peer.listIdentifiers),
      listrecords_of_peer: peer && ratio(rps(lr), rps(peer.listRecords)),
      listidentifiers_of_peer: peer && ratio(rps(li), rps(peer.listIdentifiers)),
      ceiling_listrecords_of_peer: peer && ratio(rps(ceiling.listRecords), rps(peer.listRecords)),
      ceiling_listidentifiers_of_peer: peer && ratio(rps(ceiling.listIdentifiers), rps(peer.listIdentifiers)),
      peer_paging: peer && PEER_PAGING,
      peer_note: peerNote,
      metrics_listrecords_rps: best(on, 'listRecords'),
      metrics_listidentifiers_rps: best(on, 'listIdentifiers'),
      nometrics_listrecords_rps: best(off, 'listRecords'),
      nometrics_listidentifiers_rps: best(off, 'listIdentifiers'),
      metrics_listrecords_ratio: ratio(best(on, 'listRecords'), best(off, 'listRecords')),
      metrics_listidentifiers_ratio: ratio(best(on, 'listIdentifiers'), best(off, 'listIdentifiers')),
      noprefetch_listrecords_rps: best(noPrefetch, 'listRecords'),
      noprefetch_listidentifiers_rps: best(noPrefetch, 'listIdentifiers'),
      prefetch_listrecords_ratio: ratio(best(on, 'listRecords'), best(noPrefetch, 'listRecords')),
      prefetch_listidentifiers_ratio: ratio(best(on, 'listIdentifiers'), best(noPrefetch, 'listIdentifiers')),
      noprefetch_cpu_seconds: leastCpu(noPrefetch),
      metrics_cpu_seconds: leastCpu(on),
      nometrics_cpu_seconds: leastCpu(off),
      metrics_cpu_ratio: ratio(leastCpu(on), leastCpu(off)),
      harvesters: o.harvesters,
      concurrent_rps: concurrentRps,
      concurrent_1process_rps: concurrentOne,
      concurrent_processes_ratio: ratio(concurrentRps, concurrentOne),
      concurrent_processes_bound: cores[1] && o.processes > 1 ? processesRatioBound(os.cpus().length, cores[1], o.processes) : null,
      concurrent_cores: cores[o.processes] ?? null,
      concurrent_1process_cores: o.processes > 1 ? (cores[1] ?? null) : null,
      page_ms_first: round(h.pageMs.first, 2),
      page_ms_middle: round(h.pageMs.middle, 2),
      page_ms_last: round(h.pageMs.last, 2),
      page_ratio: round(h.pageMs.last / h.pageMs.first, 2),
      page_tokens: tokens ? 'built' : 'harvest',
      served_by: h.servedBy.length,
      getrecord_rps: g && Math.round(g.rps),
      getrecord_p50_ms: g && g.p50,
      getrecord_p99_ms: g && g.p99,
      getrecord_errors: g && g.errors + g.non2xx,
      server_peak_rss_mb: round(mem.peakMb),
      server_total_rss_mb: round(mem.totalMb),
      encoding: o.gzip ? 'gzip' : 'identity',
    };
  } finally {
    await server?.stop();
  }
}
