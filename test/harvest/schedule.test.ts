/**
 * Scheduled harvests: two processes sharing one store (two providers, each
 * with its own connection pool, as two `serve` processes have) harvest a
 * due source once between them; the source's lock keeps a second harvest
 * out while one runs; a source that is down leaves `/healthz` green and
 * shows in the metrics and in the state.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { forEachThrowawayDatabase, openThrowawayDatabase } from '../helpers/db';
import { startTestServer, request } from '../helpers/server';
import { freePort } from '../../harness/free-port';
import { startHarvestScheduler } from '../../server/harvest/scheduler';
import { sourceReports } from '../../server/harvest/cli';
import { parseSchedule } from '../../lib/harvest/sources';
import { startFakeProvider, type FakeProvider } from './provider';
import { openHub, source, type Hub } from './hub';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('scheduled harvests', function () {
  this.timeout(60_000);

  forEachThrowawayDatabase((db, kind) => {
    let fake: FakeProvider | undefined;
    const hubs: Hub[] = [];
    afterEach(async () => {
      for (const h of hubs.splice(0)) await h.close();
      await fake?.close();
      fake = undefined;
    });

    it('keeps a second harvest of a source out while one holds its lock, and lets it in after', async () => {
      const a = await openHub(db());
      const b = await openHub(db());
      hubs.push(a, b);
      const held = await a.store.acquireHarvestLock('one');
      expect(held).to.not.equal(null);
      expect(await b.store.acquireHarvestLock('one')).to.equal(null);
      // Another source's lock is another lock.
      const other = await b.store.acquireHarvestLock('two');
      expect(other).to.not.equal(null);
      await held?.release();
      const again = await b.store.acquireHarvestLock('one');
      expect(again).to.not.equal(null);
      await again?.release();
      await other?.release();
    });

    it('lets another store (another schema of the same PostgreSQL database) harvest a source whose name this store holds', async () => {
      const elsewhere = await openThrowawayDatabase(kind);
      try {
        const a = await openHub(db());
        const b = await openHub(elsewhere);
        hubs.push(a, b);
        const here = await a.store.acquireHarvestLock('one');
        const there = await b.store.acquireHarvestLock('one');
        await there?.release();
        await here?.release();
        expect(here).to.not.equal(null);
        expect(there).to.not.equal(null);
      } finally {
        for (const h of hubs.splice(0)) await h.close();
        await elsewhere.close();
      }
    });

    it('harvests a due source once when two processes on the store tick together', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2, slowMs: 200 });
      fake.records = Array.from({ length: 5 }, (_, i) => ({ id: String(i + 1), datestamp: `2024-01-0${i + 1}T00:00:00Z`, title: `R${i + 1}` }));
      // The first Identify is slow, so both processes are in their tick while the first harvests.
      fake.faults = [{ when: (q) => q.verb === 'Identify', times: 1, fault: 'slow' }];
      const schedule = parseSchedule('1h');
      if (!schedule) throw new Error('unparsed');
      const sources = [source('bad', fake.baseUrl, { schedule })];
      const schedulers = [];
      for (let i = 0; i < 2; i++) {
        const hub = await openHub(db());
        hubs.push(hub);
        schedulers.push(startHarvestScheduler({ store: hub.store, logger: quiet, config: { ...hub.config, sources } }, { autoStart: false }));
      }
      await Promise.all(schedulers.map((s) => s.tick()));
      // And once more: the source is not due again for an hour.
      await Promise.all(schedulers.map((s) => s.tick()));
      await Promise.all(schedulers.map((s) => s.stop()));
      expect(fake.requests.filter((r) => r.query.verb === 'Identify')).to.have.length(1);
      expect(fake.requests.filter((r) => r.query.verb === 'ListRecords' && r.query.resumptionToken === undefined)).to.have.length(1);
      const [state] = await (hubs[0] as Hub).store.harvestStates('bad');
      expect(state).to.include({ records: 5, token: null });
      expect(state?.lastSuccess).to.be.a('number');
    });
  });

  forEachThrowawayDatabase((db) => {
    it('stops a run after its current page when the server stops; sources shows when it runs next', async () => {
      const fake = await startFakeProvider({ granularity: 'second', pageSize: 2, slowMs: 300 });
      const hub = await openHub(db());
      try {
        fake.records = Array.from({ length: 6 }, (_, i) => ({ id: String(i + 1), datestamp: `2024-01-0${i + 1}T00:00:00Z`, title: `R${i + 1}` }));
        // Page 1's answer is slow: the server stops while the run waits for it.
        const first = (q: Record<string, string>): boolean => q.verb === 'ListRecords' && q.resumptionToken === undefined;
        fake.faults = [{ when: first, times: 1, fault: 'slow' }];
        const schedule = parseSchedule('2h');
        if (!schedule) throw new Error('unparsed');
        const config = { ...hub.config, sources: [source('bad', fake.baseUrl, { schedule })] };
        const scheduler = startHarvestScheduler({ store: hub.store, logger: quiet, config }, { autoStart: false });
        const ticking = scheduler.tick();
        // The run's process starts first (seconds, on a busy machine running the sources through tsx).
        for (let i = 0; i < 6000 && !fake.requests.some((r) => first(r.query)); i++) await new Promise((resolve) => setTimeout(resolve, 10));
        await scheduler.stop();
        await ticking;
        const [state] = await hub.store.harvestStates('bad');
        // Page 1 was under way: it is committed, and the next run resumes after it (page 2, asked for ahead, is not).
        expect(state).to.include({ runPages: 1, records: 2 });
        expect(state?.token).to.match(/^2\|/);
        const [report] = await sourceReports(config, hub, 0);
        expect(report).to.include({ name: 'bad', schedule: '2h', nextRun: (state?.lastAttempt ?? NaN) + 7200 });
      } finally {
        await hub.close();
        await fake.close();
      }
    });
  });

  it('keeps /healthz green while a scheduled source is down, and shows it in the metrics and the state', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-hub-'));
    const dead = await freePort();
    const file = path.join(dir, 'hub.yaml');
    fs.writeFileSync(
      file,
      `sources:\n  - name: down\n    baseUrl: http://127.0.0.1:${dead}/oai\n    schedule: 1h\n    politeness: { timeout: 1, retries: 0 }\n`,
    );
    const server = await startTestServer({ OAI_CONFIG: file });
    try {
      const store = server.running.provider.store;
      let states = await store.harvestStates('down');
      // The run goes to a process of its own, which takes seconds to start on a busy machine.
      for (let i = 0; i < 1200 && !states.some((s) => s.lastError !== null); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        states = await store.harvestStates('down');
      }
      expect(states[0]?.lastError).to.match(/^down: http:\/\/127\.0\.0\.1:\d+\/oai\?verb=Identify failed after 1 attempt: .*ECONNREFUSED/);
      const health = await request(server.port, { path: '/healthz' });
      expect(health.status).to.equal(200);
      const metrics = await request(server.port, { path: '/metrics' });
      expect(metrics.body).to.match(/^oai_harvest_last_success_timestamp_seconds\{source="down"\} 0$/m);
      expect(metrics.body).to.match(/^# TYPE oai_harvest_retries_total counter$/m);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
