/**
 * What a source may cost this side (lib/harvest/sources.ts `limits`): a
 * gzip or deflate bomb stops at the cap of an answer in bounded memory (the
 * harvest runs in a child process that reports its peak resident set
 * size), an answer over the cap as sent stops the run at that page, a list
 * answering a new token for ever stops at the run's bound of pages, records
 * or time (time on a clock the test moves), and a record over the cap of a
 * record is refused alone while the page's others are written. Each stop
 * names the bound and the page, and the next run resumes there.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { parseSources } from '../../lib/harvest/sources';
import { readPage } from '../../server/harvest/page';
import { OaiClient } from '../../server/harvest/client';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { startFakeProvider, type FakeProvider, type FakeRecord } from './provider';
import { BIG_PAGE_RECORDS, startHostileProvider, type HostileProvider } from './hostile';
import { loadConfig } from '../../server/config';
import { harvestOnce, itemsOf, openHub, source, type Hub } from './hub';
import type { ChildInput, ChildOutput } from './harvest-child';

const ROOT = path.resolve(__dirname, '..', '..');

function records(n: number): FakeRecord[] {
  return Array.from({ length: n }, (_, i) => ({
    id: String(i + 1),
    datestamp: `2024-01-${String(i + 1).padStart(2, '0')}T12:00:00Z`,
    title: `Record ${i + 1}`,
  }));
}

/**
 * Runs one harvest in a child process (./harvest-child.ts) and returns what
 * it reports; with `heapMiB`, its heap bounded as `serve` bounds a scheduled
 * harvest's (`harvestMemory`, server/harvest/child.ts).
 */
function harvestInChild(input: ChildInput, heapMiB?: number): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    const flags = heapMiB === undefined ? [] : [`--max-old-space-size=${heapMiB}`];
    const child = spawn(process.execPath, [...flags, '-r', 'tsx/cjs', path.join(__dirname, 'harvest-child.ts')], {
      cwd: ROOT,
      env: { ...process.env, HARVEST_CHILD: JSON.stringify(input), XML_CATALOG_FILES: path.join(ROOT, 'schemas', 'catalog.xml') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as ChildOutput) : reject(new Error(`the harvest child failed (${code}): ${err}`))));
  });
}

/**
 * The most the peak resident set size may grow while a bomb is read, with a
 * record cap of 1 MiB: measured about 20 MiB (a record's worth kept, the
 * stream's buffers, the parser's garbage), while the same harvest holding
 * the capped answer's 64 MiB whole before reading it grows it by over 70 MiB.
 */
const BOMB_RSS_BOUND_KB = 48 * 1024;

describe('what a source may cost', function () {
  this.timeout(120_000);

  describe('the limits of a source in the configuration', () => {
    const parse = (limits: unknown): ReturnType<typeof parseSources> => parseSources([{ name: 's', baseUrl: 'https://s.example.org/oai', limits }]);

    it('reads sizes, counts and a duration, leaving out what is not given', () => {
      const r = parse({ page: '32MB', record: '512 KiB', pages: 10, time: '6h' });
      expect(r).to.deep.equal({
        sources: [
          {
            name: 's',
            baseUrl: 'https://s.example.org/oai',
            prefixes: ['oai_dc'],
            sets: [],
            politeness: { delayMs: 0, timeoutMs: 60_000, retries: 5 },
            limits: { pageBytes: 32 * 1024 * 1024, recordBytes: 512 * 1024, pages: 10, seconds: 21600 },
          },
        ],
      });
    });

    it('names the key at fault', () => {
      expect(parse({ pages: 0 })).to.deep.include({ error: 'sources[0].limits.pages must be a whole number of at least 1' });
      expect(parse({ page: 'huge' }))
        .to.have.property('error')
        .that.match(/^sources\[0\]\.limits\.page must be a size in bytes/);
      expect(parse({ time: '-1h' }))
        .to.have.property('error')
        .that.match(/^sources\[0\]\.limits\.time must be a duration/);
      expect(parse({ bytes: 1 }))
        .to.have.property('error')
        .that.match(/^sources\[0\]\.limits\.bytes: unknown key \(known: page, record, pages, records, sets, time\)/);
      expect(parse({ page: '1MB', record: '2MB' }))
        .to.have.property('error')
        .that.match(/limits\.record \(2097152 bytes\) must not be larger than \.limits\.page/);
    });
  });

  describe('reading a page as it arrives', () => {
    it('reads a page cut into single bytes as it reads it whole: a character cut in two, a character reference cut in two, a byte that is not UTF-8', async () => {
      const formats = createFormatRegistry(BUILT_IN_FORMATS);
      const ctx = { source: 'cut', sourceBaseUrl: 'http://cut.example.org/oai', prefix: 'oai_dc', page: 1, formats, maxRecordBytes: 1024 * 1024 };
      const rec = (n: number, title: string): string =>
        `<record><header><identifier>oai:cut:${n}</identifier><datestamp>2024-01-01</datestamp></header><metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title></oai_dc:dc></metadata></record>`;
      const [head, tail] = rec(3, 'bad \u0000 byte').split('\u0000');
      const page = Buffer.concat([
        Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2024-03-05T10:00:00Z</responseDate>' +
            `<request verb="ListRecords">http://cut.example.org/oai</request><ListRecords>${rec(1, 'Müller – 𝔸')}${rec(2, 'Bell &#x7;')}${head as string}`,
        ),
        Buffer.from([0xff]),
        Buffer.from(`${tail as string}${rec(4, 'Ünïcode &amp; more')}<resumptionToken>next</resumptionToken></ListRecords></OAI-PMH>`),
      ]);
      async function* bytes(): AsyncGenerator<Buffer> {
        for (let i = 0; i < page.length; i++) yield page.subarray(i, i + 1);
      }
      const whole = await readPage(page, ctx);
      const cut = await readPage(bytes(), ctx);
      // The same records, refused and written alike (a refusal lists what the page has shown so far, which differs).
      const strip = (p: typeof whole): unknown => {
        const refusals = p.refusals.map((r) => ({ ...r, reason: r.reason.replace(/\(.*? on this page/, '(…') }));
        return { ...p, refusals };
      };
      expect(strip(cut)).to.deep.equal(strip(whole));
      expect(cut.token).to.equal('next');
      expect(cut.items.map((i) => i.internalId)).to.deep.equal(['cut:oai:cut:1', 'cut:oai:cut:4']);
      expect(cut.refusals.map((r) => r.source)).to.deep.equal(['cut page 1 (oai:cut:2)', 'cut page 1 (oai:cut:3)']);
      expect(JSON.stringify(cut.items[0])).to.include('Müller – 𝔸');
    });
  });

  describe('the client', () => {
    it('inflates deflate sent raw as it inflates deflate sent zlib-wrapped, and gzip', async () => {
      const text = `<x>${'inflated '.repeat(10_000)}</x>`;
      const bodies: Record<string, [string, Buffer]> = {
        raw: ['deflate', zlib.deflateRawSync(text)],
        wrapped: ['deflate', zlib.deflateSync(text)],
        gzip: ['gzip', zlib.gzipSync(text)],
      };
      const server = http.createServer((req, res) => {
        const [coding, body] = bodies[new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('kind') ?? ''] as [string, Buffer];
        res.writeHead(200, { 'Content-Encoding': coding });
        res.end(body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oai`;
        const client = new OaiClient({ source: 'c', baseUrl, userAgent: 'test', timeoutMs: 10_000, retries: 0, delayMs: 0 });
        for (const kind of Object.keys(bodies)) expect((await client.get({ kind })).body.toString('utf8'), kind).to.equal(text);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  forEachThrowawayDatabase((db) => {
    let fake: FakeProvider | undefined;
    let hostile: HostileProvider | undefined;
    let warm: HostileProvider | undefined;
    let hub: Hub | undefined;
    afterEach(async () => {
      await hub?.close();
      hub = undefined;
      await fake?.close();
      fake = undefined;
      await hostile?.close();
      hostile = undefined;
      await warm?.close();
      warm = undefined;
    });

    for (const attack of ['gzip-bomb', 'deflate-bomb'] as const) {
      it(`stops at the cap of an answer when a ${attack.replace('-', ' ')} inflates past it, in bounded memory, naming source, page, URL and cap`, async function () {
        this.timeout(600_000);
        hostile = await startHostileProvider(attack);
        warm = await startHostileProvider('endless');
        // The hub's tables made before the child writes into them.
        hub = await openHub(db());
        const out = await harvestInChild({
          databaseUrl: db().url,
          warmUp: { ...source('warm', warm.baseUrl), limits: { pages: 3 } },
          // Time enough to read 64 MiB on a busy machine (about 2 s alone, 25 s with the suite): the cap, not the timeout, must stop it.
          source: source('bomb', hostile.baseUrl, { politeness: { delayMs: 0, timeoutMs: 300_000, retries: 3 }, limits: { recordBytes: 1024 * 1024 } }),
        });
        const coding = attack === 'gzip-bomb' ? 'gzip' : 'deflate';
        expect(out.error).to.match(
          new RegExp(
            `^bomb ListRecords oai_dc page 1 \\(http://127\\.0\\.0\\.1:\\d+/oai\\?verb=ListRecords&metadataPrefix=oai_dc\\) sent a ${coding} body that inflates past the cap of 67108864 bytes an answer \\(limits\\.page\\); the run stops here, nothing of this page was written, and the next run resumes at it$`,
          ),
        );
        expect(out).to.include({ pages: 0, completed: false });
        // Stopped as soon as it was over: asked once, and far from all of the bomb sent.
        expect(hostile.requests.filter((q) => q.verb === 'ListRecords')).to.have.length(1);
        expect(out.afterKb - out.beforeKb, `peak RSS grew by ${out.afterKb - out.beforeKb} KB`).to.be.below(BOMB_RSS_BOUND_KB);
        expect((await itemsOf(hub)).filter((i) => i.id.startsWith('bomb:'))).to.deep.equal([]);
        const [state] = await hub.store.harvestStates('bomb');
        expect(state).to.include({ token: null, lastError: out.error });
      });
    }

    it('harvests a page of some 50 MB of ordinary records whole, its peak memory under the configured harvest memory', async function () {
      this.timeout(600_000);
      hostile = await startHostileProvider('big-page');
      warm = await startHostileProvider('endless');
      hub = await openHub(db());
      const harvestMemory = loadConfig({}).harvestMemory;
      const out = await harvestInChild(
        {
          databaseUrl: db().url,
          warmUp: { ...source('warm', warm.baseUrl), limits: { pages: 3 } },
          source: source('big', hostile.baseUrl, { politeness: { delayMs: 0, timeoutMs: 300_000, retries: 3 } }),
        },
        harvestMemory,
      );
      expect(hostile.sent.bytes).to.be.above(50_000_000);
      expect(out).to.deep.include({ completed: true, pages: 1, inserted: BIG_PAGE_RECORDS });
      // harvestMemory is the child's heap (--max-old-space-size, server/harvest/child.ts); what the process held
      // resident before the page (its code, libxml2, the warm-up) lies outside it, and RSS counts both: the page
      // may grow the process by no more than the heap it is given, whatever its size.
      expect(out.afterKb - out.beforeKb, `peak RSS ${out.afterKb} KB, ${out.beforeKb} KB before the page`).to.be.below(harvestMemory * 1024);
    });

    it('stops at the cap of an answer as sent, set for the source, and the next run resumes at that page', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(6).map((r, i) => (i === 2 ? { ...r, title: 'y'.repeat(100_000) } : r));
      hub = await openHub(db());
      const small = source('large', fake.baseUrl, { limits: { pageBytes: 64 * 1024 } });
      const first = await harvestOnce(hub, small);
      expect(first.summary.error).to.match(
        /^large ListRecords oai_dc page 2 \(http:\/\/127\.0\.0\.1:\d+\/oai\?verb=ListRecords&resumptionToken=[^)]+\) sent more than the cap of 65536 bytes an answer \(limits\.page\); the run stops here/,
      );
      // The store holds exactly the page committed.
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(['large:oai:bad.example.org:1', 'large:oai:bad.example.org:2']);
      const [state] = await hub.store.harvestStates('large');
      expect(state?.token).to.match(/^2\|/);

      const before = fake.requests.length;
      const again = await harvestOnce(hub, source('large', fake.baseUrl));
      expect(again.summary).to.include({ completed: true, resumed: 1, inserted: 4 });
      expect(fake.requests.slice(before).find((r) => r.query.verb === 'ListRecords')?.query.resumptionToken).to.match(/^2\|/);
    });

    it('stops a list that answers a new token for ever at the bound of pages, and the next run resumes where it stopped', async () => {
      hostile = await startHostileProvider('endless');
      hub = await openHub(db());
      const first = await harvestOnce(hub, source('endless', hostile.baseUrl, { limits: { pages: 5 } }));
      expect(first.summary.error).to.equal(
        'endless ListRecords oai_dc page 6: the run has read 5 pages, the most one run of this source reads (limits.pages); it stops here, every page before it written, and the next run resumes at this page',
      );
      expect(first.summary).to.include({ completed: false, pages: 5, inserted: 5 });
      expect(hostile.requests.filter((q) => q.verb === 'ListRecords')).to.have.length(5);
      const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `endless:oai:hostile.example.org:${i + 1}`).sort();
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(ids(5));
      const [state] = await hub.store.harvestStates('endless');
      expect(state).to.include({ token: 't6', lastError: first.summary.error });

      hostile.requests.length = 0;
      const second = await harvestOnce(hub, source('endless', hostile.baseUrl, { limits: { pages: 3 } }));
      expect(second.summary.error).to.match(/^endless ListRecords oai_dc page 9: the run has read 3 pages/);
      expect(second.summary).to.include({ resumed: 1, pages: 3, inserted: 3 });
      expect(hostile.requests.filter((q) => q.verb === 'ListRecords').map((q) => q.resumptionToken)).to.deep.equal(['t6', 't7', 't8']);
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(ids(8));
    });

    it('declares no more sets than it read when a ListSets answer is over the cap, and harvests the records all the same', async () => {
      hostile = await startHostileProvider('endless');
      hostile.setNameBytes = 100_000;
      hub = await openHub(db());
      const { summary, warnings } = await harvestOnce(
        hub,
        source('sets', hostile.baseUrl, { limits: { pageBytes: 64 * 1024, recordBytes: 64 * 1024, pages: 2 } }),
      );
      expect(warnings.join('\n')).to.match(
        /^sets: ListSets page 1 \(http:\/\/127\.0\.0\.1:\d+\/oai\?verb=ListSets\) sent more than the cap of 65536 bytes an answer \(limits\.page\); the sets read so far are declared/,
      );
      expect(summary).to.include({ pages: 2, inserted: 2 });
      expect(summary.error).to.match(/page 3: the run has read 2 pages/);
    });

    it('stops a run at the bound of records, checked between pages', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(7);
      hub = await openHub(db());
      const { summary } = await harvestOnce(hub, source('many', fake.baseUrl, { limits: { records: 3 } }));
      expect(summary.error).to.match(
        /^many ListRecords oai_dc page 3: the run has read 4 records, the most one run of this source reads \(limits\.records: 3\)/,
      );
      expect(summary).to.include({ pages: 2, records: 4, inserted: 4 });
      const again = await harvestOnce(hub, source('many', fake.baseUrl));
      expect(again.summary).to.include({ completed: true, resumed: 1, inserted: 3 });
    });

    it('stops a run at its bound of time, measured on the clock it is given', async () => {
      hostile = await startHostileProvider('endless');
      hub = await openHub(db());
      let ms = 1_000_000;
      const { summary } = await harvestOnce(hub, source('slow', hostile.baseUrl, { limits: { seconds: 2 * 3600 } }), {
        clock: () => ms,
        // Each page takes an hour on the run's clock.
        onPage: () => {
          ms += 3600 * 1000;
        },
      });
      expect(summary.error).to.equal(
        'slow ListRecords oai_dc page 3: the run has taken 7200 s, the longest one run of this source takes (limits.time: 7200 s); it stops here, every page before it written, and the next run resumes at this page',
      );
      expect(summary).to.include({ pages: 2, inserted: 2 });
      const [state] = await hub.store.harvestStates('slow');
      expect(state?.token).to.equal('t3');
    });

    /** The run's own report of a source's latest harvest, as the store keeps it. */
    const lastRun = async (h: Hub, name: string): Promise<{ outcome: string; error: string | null; warnings: readonly string[] }> => {
      const [run] = await h.store.latestRuns('harvest', name, 1);
      expect(run, `a run report of ${name}`).to.not.equal(undefined);
      return run as { outcome: string; error: string | null; warnings: readonly string[] };
    };

    // Real waits, short: the bound of a run is three seconds, and each run must end within ten times that.
    const TIME_LIMIT_S = 3;
    const realWaits = { client: { backoffBaseMs: 1, backoffMaxMs: 4 } };

    it('stops a run at once, naming limits.time, when a 503 asks it to wait past its time, and the next run resumes at that page', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(6);
      fake.faults = [{ when: (q) => q.resumptionToken !== undefined, times: 100, fault: '503-for-ever' }];
      hub = await openHub(db());
      const began = performance.now();
      const { summary } = await harvestOnce(hub, source('busy', fake.baseUrl, { limits: { seconds: TIME_LIMIT_S } }), realWaits);
      expect(performance.now() - began).to.be.below(10 * TIME_LIMIT_S * 1000);
      expect(summary.error).to.match(
        /^busy: http:\/\/127\.0\.0\.1:\d+\/oai\?verb=ListRecords&resumptionToken=[^ ]+ answered HTTP 503, and waiting 300 s before asking again would outlast the run's time \(limits\.time, [0-3] s left\); the run stops here/,
      );
      expect(summary).to.include({ completed: false, pages: 1, inserted: 2, retries: 0 });
      expect(await lastRun(hub, 'busy')).to.deep.include({ outcome: 'stopped', error: summary.error });
      const [state] = await hub.store.harvestStates('busy');
      expect(state?.token).to.match(/^2\|/);

      fake.faults = [];
      const again = await harvestOnce(hub, source('busy', fake.baseUrl));
      expect(again.summary).to.include({ completed: true, resumed: 1, inserted: 4 });
    });

    it('ends a request whose body drips a byte at a time at the end of the run, naming limits.time, and the next run resumes at that page', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 2 });
      fake.records = records(6);
      fake.faults = [{ when: (q) => q.resumptionToken !== undefined, times: 100, fault: 'drip' }];
      hub = await openHub(db());
      const began = performance.now();
      // A timeout a request far longer than the run: only the run's time can end the dripping page.
      const slow = source('drip', fake.baseUrl, { politeness: { delayMs: 0, timeoutMs: 600_000, retries: 3 }, limits: { seconds: TIME_LIMIT_S } });
      const { summary } = await harvestOnce(hub, slow, realWaits);
      const took = performance.now() - began;
      expect(took).to.be.below(10 * TIME_LIMIT_S * 1000);
      expect(took).to.be.at.least(TIME_LIMIT_S * 1000 - 50);
      expect(summary.error).to.equal(
        'drip: the run has taken 3 s, the longest one run of this source takes (limits.time: 3 s); the request or wait under way is ended, every page before it written, and the next run resumes at the page it was reading',
      );
      expect(summary).to.include({ completed: false, pages: 1, inserted: 2 });
      expect(await lastRun(hub, 'drip')).to.deep.include({ outcome: 'stopped', error: summary.error });
      const [state] = await hub.store.harvestStates('drip');
      expect(state?.token).to.match(/^2\|/);

      fake.faults = [];
      const again = await harvestOnce(hub, source('drip', fake.baseUrl));
      expect(again.summary).to.include({ completed: true, resumed: 1, inserted: 4 });
    });

    it('declares no more than limits.sets sets of a ListSets naming new sets for ever, a page at a time, says so in the run report, and harvests the records', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.records = records(3);
      fake.endlessSets = 500;
      hub = await openHub(db());
      const { summary, warnings } = await harvestOnce(hub, source('many-sets', fake.baseUrl, { limits: { sets: 1200 } }));
      expect(summary).to.include({ completed: true, inserted: 3 });
      const said =
        'many-sets: ListSets page 3: the source named more than 1200 sets, the most one run of this source declares (limits.sets: 1200); the sets read so far are declared, the others are named by their spec';
      expect(warnings).to.include(said);
      expect((await lastRun(hub, 'many-sets')).warnings).to.include(said);
      // Three pages asked, and not one more: the list stops within the page that reaches the bound.
      expect(fake.requests.filter((r) => r.query.verb === 'ListSets')).to.have.length(3);
      const stored = (await hub.knex('sets').where('spec', 'like', 'source:many-sets:%').count({ n: '*' })) as { n: number | string }[];
      expect(Number(stored[0]?.n)).to.equal(1200);
    });

    it('declares 100,000 sets of a ListSets naming 20,000 new ones a page for ever, the default limits.sets, a batch at a time, and harvests the records', async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      fake.records = records(3);
      fake.endlessSets = 20_000;
      hub = await openHub(db());
      const puts: number[] = [];
      const store = new Proxy(hub.store, {
        get(target, prop, receiver) {
          if (prop === 'putSets')
            return (sets: Parameters<typeof target.putSets>[0]) => {
              puts.push(sets.length);
              return target.putSets(sets);
            };
          const v = Reflect.get(target, prop, receiver) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const { summary, warnings } = await harvestOnce(
        { ...hub, store },
        // Time enough for a page of 20,000 sets on a busy machine.
        source('sets-flood', fake.baseUrl, { politeness: { delayMs: 0, timeoutMs: 60_000, retries: 3 } }),
      );
      expect(summary.error).to.equal(undefined);
      expect(summary).to.include({ completed: true, inserted: 3 });
      expect(warnings.join('\n')).to.include(
        'ListSets page 5: the source named more than 100000 sets, the most one run of this source declares (limits.sets: 100000)',
      );
      expect(fake.requests.filter((r) => r.query.verb === 'ListSets')).to.have.length(5);
      const stored = (await hub.knex('sets').where('spec', 'like', 'source:sets-flood:%').count({ n: '*' })) as { n: number | string }[];
      expect(Number(stored[0]?.n)).to.equal(100_000);
      // Written a thousand at a time, not one by one: 100 writes for the ListSets, one for the source's own sets.
      expect(puts.filter((n) => n > 2)).to.deep.equal(Array.from({ length: 100 }, () => 1000));
      expect(puts.length).to.be.below(110);
    });

    it("refuses a record over the cap of a record alone, naming source, page and identifier, and writes the page's others", async () => {
      fake = await startFakeProvider({ granularity: 'second', pageSize: 3 });
      fake.records = records(5).map((r, i) => (i === 1 ? { ...r, title: 'z'.repeat(300_000) } : r));
      hub = await openHub(db());
      const src = source('big', fake.baseUrl, { limits: { recordBytes: 100 * 1024 } });
      const { summary, refusals } = await harvestOnce(hub, src);
      expect(summary).to.include({ completed: true, records: 5, inserted: 4, refused: 1 });
      expect(refusals.map((r) => [r.source, r.internalId, r.field])).to.deep.equal([
        ['big page 1 (oai:bad.example.org:2)', 'big:oai:bad.example.org:2', 'metadata'],
      ]);
      expect(refusals[0]?.reason).to.match(/is larger than 102400 bytes, the largest record read from this source/);
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(['1', '3', '4', '5'].map((n) => `big:oai:bad.example.org:${n}`));
      // The run is complete: the record is refused, not the source.
      const [state] = await hub.store.harvestStates('big');
      expect(state?.token).to.equal(null);
      expect(state?.lastError ?? null).to.equal(null);
    });
  });
});
