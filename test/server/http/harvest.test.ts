/**
 * Harvests to the end through resumption tokens (OAI-PMH 3.5): every item
 * exactly once, cursor and completeListSize right on every page, by set and
 * by date range, and records changed during a harvest never costing an
 * unchanged record its place.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { forEachProvider, oaiGet, errorCodes, texts, resumption, request } from '../../helpers/server';
import { demoRecords } from '../../helpers/demo-records';
import type { TestProvider } from '../../helpers/server';
import { createApp } from '../../../server/app';
import { createFormatRegistry } from '../../../lib/formats/registry';
import type { ReadStore } from '../../../lib/store';
import { dublinCoreToOaiDc } from '../../../lib/formats/oai-dc';

const demo = demoRecords();

interface Harvest {
  ids: string[];
  pages: { count: number; cursor?: number; completeListSize?: number; token: string }[];
}

/** Follows resumption tokens to the end, checking every page as it goes. */
async function harvest(p: TestProvider, verb: string, args: string, between?: (page: number) => Promise<void>): Promise<Harvest> {
  const out: Harvest = { ids: [], pages: [] };
  let query = `verb=${verb}&${args}`;
  for (let page = 0; page < 1000; page++) {
    const xml = await oaiGet(p.port, query);
    const codes = errorCodes(xml);
    if (codes.length > 0) throw new Error(`page ${page}: ${codes.join(',')}`);
    const ids = verb === 'ListSets' ? texts(xml, 'setSpec').filter((_, i, all) => all.indexOf(_) === i) : texts(xml, 'identifier');
    out.ids.push(...ids);
    const r = resumption(xml);
    out.pages.push({
      count: ids.length,
      ...(r?.cursor !== undefined && { cursor: r.cursor }),
      ...(r?.completeListSize !== undefined && { completeListSize: r.completeListSize }),
      token: r?.token ?? '',
    });
    if (!r || r.token === '') return out;
    if (between) await between(page);
    query = `verb=${verb}&resumptionToken=${encodeURIComponent(r.token)}`;
  }
  throw new Error('the harvest did not end');
}

function expectPagesConsistent(h: Harvest, total: number, pageSize: number): void {
  if (total <= pageSize) {
    // A list that fits one page carries no resumptionToken at all (OAI-PMH 3.5).
    expect(h.pages.map((p) => [p.count, p.cursor])).to.deep.equal([[total, undefined]]);
    return;
  }
  let cursor = 0;
  h.pages.forEach((page, i) => {
    expect(page.cursor, `cursor of page ${i}`).to.equal(cursor);
    expect(page.completeListSize, `completeListSize of page ${i}`).to.equal(total);
    if (i < h.pages.length - 1) expect(page.count).to.equal(pageSize);
    cursor += page.count;
  });
  expect(h.pages[h.pages.length - 1]?.token).to.equal('');
}

const inSet = (sets: readonly string[], spec: string): boolean => sets.some((s) => s === spec || s.startsWith(`${spec}:`));

describe('harvesting to the end', function () {
  for (const pageSize of [100, 7]) {
    describe(`with page size ${pageSize}`, () => {
      forEachProvider({ pageSize }, (provider) => {
        for (const verb of ['ListIdentifiers', 'ListRecords']) {
          it(`${verb} returns every item exactly once with right cursors`, async () => {
            const h = await harvest(provider(), verb, 'metadataPrefix=oai_dc');
            expect(h.ids).to.have.members(demo.map((d) => d.identifier));
            expect(new Set(h.ids).size).to.equal(h.ids.length);
            expectPagesConsistent(h, demo.length, pageSize);
          });

          it(`${verb} of a set returns its items and its descendants' exactly once`, async () => {
            const h = await harvest(provider(), verb, 'metadataPrefix=oai_dc&set=physics:hep');
            const expected = demo.filter((d) => inSet(d.sets, 'physics:hep')).map((d) => d.identifier);
            expect(expected.length).to.be.greaterThan(pageSize === 7 ? 7 : 0);
            expect(h.ids).to.have.members(expected);
            expectPagesConsistent(h, expected.length, pageSize);
          });

          it(`${verb} of a date range returns exactly the items stamped inside it`, async () => {
            const h = await harvest(provider(), verb, 'metadataPrefix=oai_dc&from=2024-12-29T12:00:00Z&until=2025-01-02T23:59:59Z');
            const expected = demo.filter((d) => d.datestamp >= '2024-12-29T12:00:00Z' && d.datestamp <= '2025-01-02T23:59:59Z').map((d) => d.identifier);
            expect(h.ids).to.have.members(expected);
            expectPagesConsistent(h, expected.length, pageSize);
          });
        }

        it('ListRecords marks exactly the deleted items as deleted', async () => {
          const p = provider();
          let query = 'verb=ListRecords&metadataPrefix=oai_dc';
          const deletedSeen: string[] = [];
          for (;;) {
            const xml = await oaiGet(p.port, query);
            for (const m of xml.matchAll(/<header status="deleted"><identifier>([^<]*)<\/identifier>/g)) deletedSeen.push(m[1] as string);
            const r = resumption(xml);
            if (!r || r.token === '') break;
            query = `verb=ListRecords&resumptionToken=${encodeURIComponent(r.token)}`;
          }
          expect(deletedSeen.map((s) => s.replace(/&amp;/g, '&'))).to.have.members(demo.filter((d) => d.deleted).map((d) => d.identifier));
        });

        it('ListSets returns every set exactly once', async () => {
          const h = await harvest(provider(), 'ListSets', '');
          expect(h.ids.length).to.equal(12);
          expect(new Set(h.ids).size).to.equal(12);
          if (pageSize === 7) expectPagesConsistent(h, 12, 7);
        });
      });
    });
  }
});

describe('resumption tokens', function () {
  forEachProvider({ pageSize: 10, tokenLifetime: 3600 }, (provider) => {
    const firstToken = async (p: TestProvider, query = 'verb=ListRecords&metadataPrefix=oai_dc'): Promise<string> =>
      resumption(await oaiGet(p.port, query))?.token as string;

    it('repeating a token returns the same page', async () => {
      const p = provider();
      const t = await firstToken(p);
      const a = await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(t)}`);
      const b = await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(t)}`);
      expect(texts(b, 'identifier')).to.deep.equal(texts(a, 'identifier'));
      expect(resumption(b)?.cursor).to.equal(resumption(a)?.cursor);
    });

    it('gives an expirationDate as far ahead as the configured lifetime', async () => {
      const p = provider();
      const xml = await oaiGet(p.port, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
      expect(Date.parse(resumption(xml)?.expirationDate as string) / 1000).to.equal(p.now + 3600);
    });

    it('refuses an expired token with badResumptionToken', async () => {
      const p = provider();
      const t = await firstToken(p);
      const saved = p.now;
      p.now = saved + 3601;
      try {
        const xml = await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(t)}`);
        expect(errorCodes(xml)).to.deep.equal(['badResumptionToken']);
        expect(xml).to.contain('expired');
      } finally {
        p.now = saved;
      }
    });

    it('refuses a ListRecords token given to ListIdentifiers', async () => {
      const p = provider();
      const t = await firstToken(p);
      expect(errorCodes(await oaiGet(p.port, `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(t)}`))).to.deep.equal(['badResumptionToken']);
    });

    it('refuses a ListRecords token given to ListSets', async () => {
      const p = provider();
      const t = await firstToken(p);
      expect(errorCodes(await oaiGet(p.port, `verb=ListSets&resumptionToken=${encodeURIComponent(t)}`))).to.deep.equal(['badResumptionToken']);
    });

    it('refuses a tampered token', async () => {
      const p = provider();
      const t = await firstToken(p);
      const tampered = t.slice(0, 10) + (t[10] === 'A' ? 'B' : 'A') + t.slice(11);
      expect(errorCodes(await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(tampered)}`))).to.deep.equal(['badResumptionToken']);
    });

    it('refuses a truncated token', async () => {
      const p = provider();
      const t = await firstToken(p);
      expect(errorCodes(await oaiGet(p.port, `verb=ListRecords&resumptionToken=${encodeURIComponent(t.slice(0, -1))}`))).to.deep.equal(['badResumptionToken']);
    });

    it('echoes the token in the request element of a badResumptionToken answer', async () => {
      const xml = await oaiGet(provider().port, 'verb=ListRecords&resumptionToken=%3Cnot%26a%22token');
      expect(xml).to.contain('resumptionToken="&lt;not&amp;a&quot;token"');
    });
  });
});

describe('a harvest while records change', function () {
  forEachProvider({ pageSize: 20 }, (provider) => {
    it('never skips or repeats a record that stayed unchanged', async () => {
      const p = provider();
      const touched = new Set<string>();
      const byId = new Map(demo.map((d) => [d.internalId, d]));
      const live = demo.filter((d) => !d.deleted);
      p.writeNow = p.now + 5;
      const h = await harvest(p, 'ListRecords', 'metadataPrefix=oai_dc', async (page) => {
        if (page > 6) return;
        // Change, delete and add records on both sides of the cursor.
        const change = [live[page * 3], live[live.length - 1 - page * 5]].filter((d) => d !== undefined);
        const del = live[page * 7 + 40];
        await p.store.writeItems(
          change.map((d) => ({
            internalId: d.internalId,
            sets: d.sets,
            metadata: { oai_dc: dublinCoreToOaiDc({ title: [`changed during harvest ${page}`] }) },
          })),
        );
        change.forEach((d) => touched.add(d.identifier));
        if (del) {
          await p.store.deleteItems([del.internalId]);
          touched.add(del.identifier);
        }
        await p.store.writeItems([{ internalId: `added-during-harvest-${page}`, metadata: { oai_dc: dublinCoreToOaiDc({ title: ['new'] }) } }]);
        p.writeNow += 1;
      });
      const unchanged = demo.filter((d) => !touched.has(d.identifier)).map((d) => d.identifier);
      const counts = new Map<string, number>();
      for (const id of h.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
      for (const id of unchanged) expect(counts.get(id), id).to.equal(1);
      expect(touched.size).to.be.greaterThan(10);
      expect(byId.size).to.equal(demo.length);
    });
  });
});

describe('infrastructure failures', () => {
  async function serve(store: Partial<ReadStore>): Promise<{ port: number; close(): void }> {
    const app = createApp({
      ctx: {
        store: store as ReadStore,
        formats: createFormatRegistry(),
        repository: { name: 'x', baseURL: 'http://localhost/oai', adminEmails: ['a@b.org'], namespace: 'x.org', compression: [] },
        pageSize: 10,
        tokenSecret: 's',
        tokenLifetime: 100,
      },
      logger: pino({ level: 'silent' }),
      compressionLevel: 1,
      maxInFlight: 10,
      retryAfter: 7,
    });
    const server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { port: (server.address() as AddressInfo).port, close: () => server.close() };
  }

  it('answers 503 with Retry-After when the store cannot be reached', async () => {
    const s = await serve({
      earliestDatestamp: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
      sampleIdentifier: async () => null,
    });
    try {
      const a = await request(s.port, { query: 'verb=Identify' });
      expect(a.status).to.equal(503);
      expect(a.headers['retry-after']).to.equal('7');
    } finally {
      s.close();
    }
  });

  it('answers 500 without a stack trace or a path when the code fails', async () => {
    const s = await serve({ earliestDatestamp: () => Promise.reject(new TypeError('boom at /work/main/server/x.ts:1')), sampleIdentifier: async () => null });
    try {
      const a = await request(s.port, { query: 'verb=Identify' });
      expect(a.status).to.equal(500);
      expect(a.body).to.not.contain('boom');
      expect(a.body).to.not.contain('/work');
    } finally {
      s.close();
    }
  });

  it('still answers protocol errors with 200 while the store is down', async () => {
    const s = await serve({});
    try {
      const a = await request(s.port, { query: 'verb=Bogus' });
      expect(a.status).to.equal(200);
      expect(errorCodes(a.body)).to.deep.equal(['badVerb']);
    } finally {
      s.close();
    }
  });
});
