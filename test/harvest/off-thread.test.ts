/**
 * Scheduled harvests run in a process of their own (server/harvest/child.ts):
 * a server wired as `serve` wires one (server/serve.ts: the provider's app,
 * the scheduler's metrics in its registry) answers Identify promptly while a
 * scheduled source sends pages heavy to read and write; what the child
 * writes is what the server serves, and its pages are counted in the
 * server's metrics; a child killed by its memory limit is reported in one
 * line naming the source, serving goes on, and the next run resumes.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import v8 from 'node:v8';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { forEachThrowawayDatabase, openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { request } from '../helpers/server';
import { loadConfig } from '../../server/config';
import { providerApp } from '../../server/provider';
import { received, sendable } from '../../server/harvest/child';
import { computedSets } from '../../lib/sets/rules';
import { startHarvestScheduler, type HarvestScheduler } from '../../server/harvest/scheduler';
import { parseSchedule, type SourceConfig } from '../../lib/harvest/sources';
import { startFakeProvider, type FakeProvider } from './provider';
import { openHub, source, type Hub } from './hub';

/** One line the scheduler logged. */
interface Logged {
  readonly level: 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** A hub served as `serve` serves one, its scheduler ticked by the test. */
interface ServedHub {
  readonly hub: Hub;
  readonly port: number;
  readonly scheduler: HarvestScheduler;
  readonly logs: Logged[];
  close(): Promise<void>;
}

async function serveHub(db: ThrowawayDatabase, sources: SourceConfig[], env: NodeJS.ProcessEnv = {}): Promise<ServedHub> {
  const hub = await openHub(db, env);
  const logs: Logged[] = [];
  const log =
    (level: Logged['level']) =>
    (fields: unknown, message?: unknown): void => {
      logs.push({ level, fields: fields as Record<string, unknown>, message: String(message) });
    };
  const scheduler = startHarvestScheduler(
    { store: hub.store, config: { ...hub.config, sources }, logger: { info: log('info'), warn: log('warn'), error: log('error') } },
    { autoStart: false },
  );
  const server = http.createServer(await providerApp(hub, { onMetrics: (m) => scheduler.register(m.registry) }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    hub,
    port: (server.address() as AddressInfo).port,
    scheduler,
    logs,
    async close() {
      await scheduler.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await hub.close();
    },
  };
}

/** Milliseconds an Identify takes to be answered, checked to be one. */
async function identifyMs(port: number): Promise<number> {
  const t0 = process.hrtime.bigint();
  const a = await request(port, { query: 'verb=Identify' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  expect(a.status).to.equal(200);
  expect(a.body).to.include('<repositoryName>Test hub</repositoryName>');
  return ms;
}

function every(text: string): NonNullable<SourceConfig['schedule']> {
  const s = parseSchedule(text);
  if (!s) throw new Error(`unparsed schedule ${text}`);
  return s;
}

/** Time enough for a page that is slow to make, on a machine that is busy. */
const politeness = { delayMs: 0, timeoutMs: 30_000, retries: 2 };

/** `n` records of the fake source. */
function records(n: number): FakeProvider['records'] {
  return Array.from({ length: n }, (_, i) => ({ id: String(i + 1), datestamp: `2024-01-${String(i + 1).padStart(2, '0')}T00:00:00Z`, title: `R${i + 1}` }));
}

describe('scheduled harvests in a process of their own', function () {
  this.timeout(120_000);

  forEachThrowawayDatabase((db) => {
    let fake: FakeProvider | undefined;
    let served: ServedHub | undefined;
    afterEach(async () => {
      await served?.close();
      await fake?.close();
      served = undefined;
      fake = undefined;
    });

    it('answers every Identify within ten times an idle one, or half a page’s work, while a scheduled source sends records of 5,000 titles', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(4);
      fake.titles = 5_000;
      served = await serveHub(db(), [source('heavy', fake.baseUrl, { schedule: every('1h'), politeness })]);
      const { port } = served;
      // Idle: the slowest of twenty, after five that warm the server up, so the bound holds this machine's own noise.
      for (let i = 0; i < 5; i++) await identifyMs(port);
      const idle: number[] = [];
      for (let i = 0; i < 20; i++) idle.push(await identifyMs(port));
      let running = true;
      const tick = served.scheduler.tick().finally(() => (running = false));
      // Asked while the run is under way: after its first page was asked for, before the run ended.
      const during: number[] = [];
      while (running) {
        const listing = fake.requests.some((r) => r.query.verb === 'ListRecords');
        const ms = await identifyMs(port);
        if (listing && running) during.push(ms);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await tick;
      const [state] = await served.hub.store.harvestStates('heavy');
      expect(state, 'the run reached the end of the list').to.include({ records: 4, token: null });
      expect(during.length, 'Identify requests asked while the run read its pages').to.be.at.least(3);
      // A page's work in the child: from its asking for one page to its asking for the next (this source's
      // pages take hundreds of milliseconds). Were the harvest on the server's thread, an Identify asked as a
      // page began would wait for all of it, and the run asks one every ten milliseconds or so.
      const pages = fake.requests.filter((r) => r.query.verb === 'ListRecords').map((r) => r.atMs);
      expect(pages, 'the pages the run asked for').to.have.length(2);
      const page = (pages[1] as number) - (pages[0] as number);
      // Both measures are taken on this machine in this run: a busy machine slows the page as it slows the answers.
      const bound = Math.max(10 * Math.max(...idle), page / 2);
      expect(Math.max(...during), `slowest Identify during the run (idle: ${Math.max(...idle).toFixed(1)} ms, a page: ${page.toFixed(0)} ms)`).to.be.below(
        bound,
      );
    });

    it("writes what the child harvested into the store the server serves, counts its pages in the server's metrics and logs its warnings", async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(5);
      // A source whose clock runs ahead: the run warns of it.
      fake.responseDate = '2999-01-01T00:00:00Z';
      served = await serveHub(db(), [source('light', fake.baseUrl, { schedule: every('1h') })]);
      await served.scheduler.tick();
      const list = await request(served.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=source:light' });
      expect([...list.body.matchAll(/<identifier>/g)]).to.have.length(5);
      const metrics = await request(served.port, { path: '/metrics' });
      expect(metrics.body).to.match(/^oai_harvest_pages_total\{source="light"\} 3$/m);
      expect(metrics.body).to.match(/^oai_harvest_records_total\{source="light"\} 5$/m);
      const warnings = served.logs.filter((l) => l.level !== 'info');
      expect(warnings.map((l) => [l.level, l.fields])).to.deep.equal([['warn', { source: 'light' }]]);
      expect(warnings[0]?.message).to.match(/^light ListRecords oai_dc: the source's clock runs \d+ s ahead of this one \(responseDate 2999-01-01T00:00:00Z\)/);
      expect(served.logs.find((l) => l.message === 'scheduled harvest done')?.fields).to.include({ source: 'light', records: 5, inserted: 5 });
    });

    it('reports a run killed by its memory limit in one line naming the source, serves on, and resumes on the next run', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(6);
      // The second page is some 50 MB: more than a process with a 64 MiB heap can read.
      fake.faults = [{ when: (q) => q.resumptionToken?.startsWith('2|') === true, times: 1, fault: 'huge' }];
      served = await serveHub(db(), [source('huge', fake.baseUrl, { schedule: every('1s'), politeness })], { OAI_HARVEST_MEMORY: '64' });
      await served.scheduler.tick();
      const errors = served.logs.filter((l) => l.level !== 'info');
      expect(errors).to.have.length(1);
      expect(errors[0]?.fields).to.deep.equal({ source: 'huge' });
      expect(errors[0]?.message).to.match(
        /^huge: the scheduled harvest stopped: it ran out of memory \(harvestMemory: 64 MiB\); nothing after the last committed page was written, and the next run resumes there$/,
      );
      let [state] = await served.hub.store.harvestStates('huge');
      expect(state).to.include({ runPages: 1, lastError: errors[0]?.message });
      expect(state?.token).to.match(/^2\|/);
      // The run is in the source's report too, as failed, with the page it committed.
      const [died] = await served.hub.store.latestRuns('harvest', 'huge');
      expect(died).to.deep.include({ outcome: 'failed', error: errors[0]?.message });
      expect(died?.counts).to.deep.include({ pages: 1, records: 2 });
      expect(await identifyMs(served.port)).to.be.a('number');
      // The source is due again a second after the run that died; that run resumes at the page it died on.
      for (let i = 0; i < 100 && state?.token !== null; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await served.scheduler.tick();
        [state] = await served.hub.store.harvestStates('huge');
      }
      expect(state).to.include({ token: null, runPages: 3 });
      const resumed = fake.requests.filter((r) => r.query.verb === 'ListRecords');
      expect(resumed.map((r) => r.query.resumptionToken?.split('|')[0])).to.deep.equal([undefined, '2', '2', '4']);
      const list = await request(served.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=source:huge' });
      expect([...list.body.matchAll(/<identifier>/g)]).to.have.length(6);
    });
  });

  it('hands the process the configuration, each set family made again from its ready-made set', async () => {
    const db = await openThrowawayDatabase('sqlite');
    try {
      const file = path.join(db.dir, 'hub.yaml');
      fs.writeFileSync(file, 'sets:\n  - preset: ddc\n  - preset: open_access\n  - spec: theses\n    name: Theses\n');
      const config = loadConfig({ OAI_CONFIG: file });
      // A family is a function: the configuration as it is cannot cross to another process.
      expect(() => v8.serialize(config)).to.throw(/could not be cloned/);
      const there = received(v8.deserialize(v8.serialize(sendable(config))) as ReturnType<typeof sendable>);
      const { sets: _here, ...rest } = config;
      const { sets: _there, ...restThere } = there;
      expect(restThere).to.deep.equal(rest);
      expect(there.sets.all.map((d) => d.spec)).to.deep.equal(['ddc', 'open_access', 'theses']);
      expect(
        there.sets.computed.every((d) => there.sets.all.includes(d)),
        'a computed set is one of all the sets',
      ).to.equal(true);
      const record = { dc: { subject: ['ddc:004', 'ddc:510', 'physics'] }, accessRights: 'open' as const };
      expect(computedSets(there.sets, record, [])).to.deep.equal(computedSets(config.sets, record, []));
      expect(computedSets(there.sets, record, [])).to.deep.equal(['ddc:004', 'ddc:510', 'open_access']);
    } finally {
      await db.close();
    }
  });
});
