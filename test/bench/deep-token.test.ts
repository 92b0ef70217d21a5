/**
 * Tokens built from the store (bench/deep-token.ts) are the tokens a full
 * harvest holds: on each database, the middle and the last page a built
 * token asks for are, item for item and cursor for cursor, the pages a
 * harvest that followed every token received.
 */
import { expect } from 'chai';
import { loadRecords } from '../../bench/generate';
import { deepTokens } from '../../bench/deep-token';
import { handleRequest } from '../../lib/oai';
import type { OaiResponse } from '../../lib/oai';
import { loadConfig } from '../../server/config';
import { openProvider, type Provider } from '../../server/provider';
import { databaseKinds, openThrowawayDatabase } from '../helpers/db';

/** One ListRecords page: its items' identifiers and its resumptionToken element. */
interface Page {
  readonly ids: string[];
  readonly token: string | undefined;
  readonly cursor: number | undefined;
  readonly size: number | undefined;
}

function pageOf(r: OaiResponse): Page {
  if (r.body.kind !== 'ListRecords') throw new Error(`not a ListRecords page: ${JSON.stringify(r.body).slice(0, 300)}`);
  const res = r.body.resumption;
  return { ids: r.body.records.map((x) => x.identifier), token: res?.token, cursor: res?.cursor, size: res?.completeListSize };
}

for (const kind of databaseKinds()) {
  describe(`tokens built deep in a list on ${kind}`, function () {
    this.timeout(60_000);
    let db: Awaited<ReturnType<typeof openThrowawayDatabase>>;
    let provider: Provider;
    const now = 1_900_000_000;

    before(async () => {
      db = await openThrowawayDatabase(kind);
      // 7 items a page: 350 records (a few of them tombstones, listed too) make 50 pages.
      provider = await openProvider(loadConfig({ DATABASE_URL: db.url, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'warn', OAI_PAGE_SIZE: '7' }));
      await loadRecords(provider.store, provider.formats, 350, { batch: 100 });
    });

    after(async () => {
      await provider?.close();
      await db?.close();
    });

    const harvest = async (prefix: string): Promise<Page[]> => {
      const ctx = await provider.context();
      const pages = [
        pageOf(
          await handleRequest(
            ctx,
            [
              ['verb', 'ListRecords'],
              ['metadataPrefix', prefix],
            ],
            now,
          ),
        ),
      ];
      for (let t = pages[0]?.token; t; t = pages[pages.length - 1]?.token) {
        pages.push(
          pageOf(
            await handleRequest(
              ctx,
              [
                ['verb', 'ListRecords'],
                ['resumptionToken', t],
              ],
              now,
            ),
          ),
        );
      }
      return pages;
    };

    for (const prefix of ['oai_dc', 'datacite']) {
      it(`asks for the middle and the last page of a harvest in ${prefix} and gets exactly those pages`, async () => {
        const pages = await harvest(prefix);
        const built = await deepTokens(provider, prefix, now);
        expect(built).to.not.equal(null);
        expect(built?.pages).to.equal(pages.length);
        expect(built?.completeListSize).to.equal(pages[0]?.size);
        const ctx = await provider.context();
        const middle = pageOf(
          await handleRequest(
            ctx,
            [
              ['verb', 'ListRecords'],
              ['resumptionToken', built?.middle ?? ''],
            ],
            now,
          ),
        );
        const last = pageOf(
          await handleRequest(
            ctx,
            [
              ['verb', 'ListRecords'],
              ['resumptionToken', built?.last ?? ''],
            ],
            now,
          ),
        );
        const wanted = pages[Math.floor(pages.length / 2)] as Page;
        expect(middle.ids).to.deep.equal(wanted.ids);
        expect(middle.cursor).to.equal(wanted.cursor);
        expect(last).to.deep.equal(pages[pages.length - 1]);
        // The last page ends the list: an empty token (OAI-PMH 3.5).
        expect(last.token).to.equal('');
      });
    }

    it('builds nothing for a list of two pages, which the harvest reaches by itself', async () => {
      const small = await openThrowawayDatabase(kind);
      const p = await openProvider(loadConfig({ DATABASE_URL: small.url, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'warn', OAI_PAGE_SIZE: '7' }));
      try {
        await loadRecords(p.store, p.formats, 14);
        expect(await deepTokens(p, 'oai_dc', now)).to.equal(null);
      } finally {
        await p.close();
        await small.close();
      }
    });
  });
}
