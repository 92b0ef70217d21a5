/**
 * Scheduled harvests: two processes sharing one store (two providers, each
 * with its own connection pool, as two `serve` processes have) harvest a
 * due source once between them; the source's lock keeps a second harvest
 * out while one runs; a source that is down leaves `/healthz` green and
 * shows in the metrics and in the state; a source that fails every run,
 * throws or hangs never stops, delays or fails another source's runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { forEachThrowawayDatabase, openThrowawayDatabase } from '../helpers/db';
import { startTestServer, request } from '../helpers/server';
import { freePort } from '../../harness/free-port';
import { startHarvestScheduler, type SchedulerDeps } from '../../server/harvest/scheduler';
import { sourceReports } from '../../server/harvest/cli';
import { parseSchedule } from '../../lib/harvest/sources';
import { startFakeProvider, type FakeProvider } from './provider';
import { openHub, source, type Hub } from './hub';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** How the scheduler says a run ended, by source. */
const ENDED = /^scheduled harvest (?:done|stopped|failed)$/;

/** One line a scheduler logged. */
interface Logged {
  readonly level: 'info' | 'warn' | 'error';
  readonly source: unknown;
  readonly message: string;
}

/** A scheduler's logger that keeps its lines and wakes a test waiting for some of them. */
function schedulerLog(): {
  logger: SchedulerDeps['logger'];
  lines: Logged[];
  ended(source: string): number;
  until(done: () => boolean): Promise<void>;
} {
  const lines: Logged[] = [];
  let wake = (): void => undefined;
  const say =
    (level: Logged['level']) =>
    (o: unknown, message?: unknown): void => {
      lines.push({ level, source: (o as { source?: unknown } | null)?.source, message: String(message) });
      wake();
    };
  return {
    logger: { info: say('info'), warn: say('warn'), error: say('error') },
    lines,
    ended: (source) => lines.filter((l) => l.source === source && ENDED.test(l.message)).length,
    async until(done) {
      // Bounded: each turn waits for one more line, and a run says a few.
      for (let i = 0; i < 10_000 && !done(); i++) await new Promise<void>((resolve) => (wake = resolve));
      if (!done()) throw new Error(`not done after 10,000 lines: ${JSON.stringify(lines.slice(-5))}`);
    },
  };
}

/** Two hours ahead of the clock runs record their attempts by: every source with a schedule of an hour is due at every check. */
const AHEAD = (): number => Math.floor(Date.now() / 1000) + 7200;

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
    let good: FakeProvider | undefined;
    let bad: FakeProvider | undefined;
    let hub: Hub | undefined;
    beforeEach(async () => {
      good = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      good.records = Array.from({ length: 6 }, (_, i) => ({ id: String(i + 1), datestamp: `2024-01-0${i + 1}T00:00:00Z`, title: `R${i + 1}` }));
      bad = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      hub = await openHub(db());
    });
    afterEach(async () => {
      await hub?.close();
      await good?.close();
      await bad?.close();
      hub = good = bad = undefined;
    });

    /** The scheduler `serve` starts, over the hub, with a source `bad` before a healthy source `good`, checking every 20 ms. */
    const serveLike = (log: ReturnType<typeof schedulerLog>, store?: Hub['store']): ReturnType<typeof startHarvestScheduler> => {
      const schedule = parseSchedule('1h');
      if (!schedule || !hub || !good || !bad) throw new Error('unset');
      const sources = [
        source('bad', bad.baseUrl, { schedule, politeness: { delayMs: 0, timeoutMs: 2000, retries: 0 } }),
        source('good', good.baseUrl, { schedule }),
      ];
      return startHarvestScheduler({ store: store ?? hub.store, logger: log.logger, config: { ...hub.config, sources }, now: AHEAD }, { tickMs: 20 });
    };

    /** The outcomes of the runs a source's reports keep, oldest first. */
    const outcomes = async (name: string): Promise<string[]> => ((await hub?.store.latestRuns('harvest', name)) ?? []).map((r) => r.outcome).reverse();

    it("runs and records a healthy source's every scheduled run while another source fails every run", async () => {
      (bad as FakeProvider).faults = [{ when: () => true, times: 1e9, fault: '500' }];
      const log = schedulerLog();
      const scheduler = serveLike(log);
      try {
        await log.until(() => log.ended('good') >= 3 && log.ended('bad') >= 3);
      } finally {
        await scheduler.stop();
      }
      const goodRuns = await outcomes('good');
      expect(goodRuns).to.have.length(log.ended('good'));
      expect(goodRuns).to.deep.equal(goodRuns.map(() => 'completed'));
      expect(log.lines.filter((l) => l.source === 'good' && l.level === 'error')).to.deep.equal([]);
      const badRuns = (await hub?.store.latestRuns('harvest', 'bad')) ?? [];
      expect(badRuns).to.have.length(log.ended('bad'));
      for (const r of badRuns)
        expect(r)
          .to.include({ outcome: 'stopped' })
          .and.to.have.property('error')
          .that.matches(/^bad: .*HTTP 500$/);
    });

    it("runs and records a healthy source's every scheduled run while another source's check throws every time", async () => {
      if (!hub) throw new Error('unset');
      const real = hub.store;
      // The store refuses the lock of `bad` with an error every time it is asked (as a bug in one source's path would).
      const store = new Proxy(real, {
        get(target, prop) {
          if (prop === 'acquireHarvestLock')
            return async (name: string, now?: () => number) => (name === 'bad' ? Promise.reject(new Error('boom')) : target.acquireHarvestLock(name, now));
          const v = Reflect.get(target, prop, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const log = schedulerLog();
      const scheduler = serveLike(log, store);
      try {
        await log.until(() => log.ended('good') >= 3 && log.ended('bad') >= 3);
      } finally {
        await scheduler.stop();
      }
      expect(await outcomes('good')).to.deep.equal(Array.from({ length: log.ended('good') }, () => 'completed'));
      expect(log.lines.filter((l) => l.source === 'bad' && ENDED.test(l.message)).map((l) => l.level)).to.satisfy((levels: string[]) =>
        levels.every((l) => l === 'error'),
      );
    });

    it("runs and records a healthy source's every scheduled run while another source's run hangs", async () => {
      // `bad` never answers its Identify until the test ends; its run waits for it (its timeout is a day).
      (bad as FakeProvider).faults = [{ when: (q) => q.verb === 'Identify', times: 1e9, fault: 'hang' }];
      const schedule = parseSchedule('1h');
      if (!schedule || !hub || !good || !bad) throw new Error('unset');
      const sources = [
        source('bad', bad.baseUrl, { schedule, politeness: { delayMs: 0, timeoutMs: 86_400_000, retries: 0 } }),
        source('good', good.baseUrl, { schedule }),
      ];
      const log = schedulerLog();
      const scheduler = startHarvestScheduler({ store: hub.store, logger: log.logger, config: { ...hub.config, sources }, now: AHEAD }, { tickMs: 20 });
      try {
        await log.until(() => log.ended('good') >= 3);
        expect(log.ended('bad')).to.equal(0);
        expect(bad.requests.filter((r) => r.query.verb === 'Identify')).to.have.length(1);
      } finally {
        // Its request ends with the provider's connections, and its run with it.
        const stopped = scheduler.stop();
        await bad.close();
        await stopped;
      }
      expect(await outcomes('good')).to.deep.equal(Array.from({ length: log.ended('good') }, () => 'completed'));
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

  it('records a run whose process could not open the store, rather than making one there', async () => {
    const db = await openThrowawayDatabase('sqlite');
    const fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
    const hub = await openHub(db);
    try {
      const schedule = parseSchedule('1h');
      if (!schedule) throw new Error('unparsed');
      // The run's process is handed a store no process made: it opens it without creating or migrating it, so it cannot begin.
      const missing = `sqlite:${path.join(db.dir, 'nowhere', 'store.sqlite')}`;
      const config = { ...hub.config, databaseUrl: missing, sources: [source('lost', fake.baseUrl, { schedule })] };
      const log = schedulerLog();
      const scheduler = startHarvestScheduler({ store: hub.store, logger: log.logger, config }, { autoStart: false });
      await scheduler.tick();
      await scheduler.stop();
      const said = log.lines.filter((l) => l.level !== 'info');
      expect(said.map((l) => [l.level, l.source])).to.deep.equal([['error', 'lost']]);
      expect(said[0]?.message).to.match(/^lost: the scheduled harvest could not begin: no store at .*nowhere.*store\.sqlite/);
      const [run] = await hub.store.latestRuns('harvest', 'lost');
      expect(run).to.deep.include({ outcome: 'failed', error: said[0]?.message });
      const [state] = await hub.store.harvestStates('lost');
      expect(state?.lastError).to.equal(said[0]?.message);
      expect(fs.existsSync(path.join(db.dir, 'nowhere'))).to.equal(false);
      expect(fake.requests).to.have.length(0);
    } finally {
      await hub.close();
      await fake.close();
      await db.close();
    }
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
