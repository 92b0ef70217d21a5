/**
 * The write gate runs inside the store: a write through the store interface,
 * not through the loader, is refused for what the loader refuses, with the
 * same fields and reasons, and writes nothing.
 */
import { expect } from 'chai';
import { RefusedError, type ItemInput, type Store } from '../../../lib/store';
import { type Refusal } from '../../../lib/model/refusal';
import { createFormatRegistry } from '../../../lib/formats/registry';
import { createXsdChecks } from '../../../server/xsd/format-checks';
import { loadConfig } from '../../../server/config';
import { openProvider } from '../../../server/provider';
import { forEachDatabase, forEachThrowawayDatabase } from '../../helpers/db';
import { item } from '../../helpers/store-fixtures';

const DC_OPEN =
  '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"' +
  ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
  ' xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/oai_dc/ http://www.openarchives.org/OAI/2.0/oai_dc.xsd">';

interface Case {
  readonly name: string;
  readonly item: ItemInput;
  readonly field: string;
  readonly reason: RegExp;
}

const cases: readonly Case[] = [
  {
    name: 'metadata that is not well-formed XML',
    item: item('broken', { metadata: { oai_dc: `${DC_OPEN}<dc:title>x</oai_dc:dc>` } }),
    field: 'metadata.oai_dc',
    reason: /^not well-formed XML: /,
  },
  {
    name: "metadata that is not valid against its format's XSD",
    item: item('colour', { metadata: { oai_dc: `${DC_OPEN}<dc:colour>red</dc:colour></oai_dc:dc>` } }),
    field: 'metadata.oai_dc',
    reason: /^not valid against http:\/\/www\.openarchives\.org\/OAI\/2\.0\/oai_dc\.xsd: .*colour/,
  },
  {
    name: 'metadata with a character XML 1.0 cannot carry',
    item: item('bell', { metadata: { oai_dc: `${DC_OPEN}<dc:title>ring \u0007 ring</dc:title></oai_dc:dc>` } }),
    field: 'metadata.oai_dc',
    reason: /^the metadata contains U\+0007, which XML 1.0 cannot carry$/,
  },
  {
    name: 'a malformed dc:identifier found inside metadata given as XML',
    item: item('bad-id-in-xml', { metadata: { oai_dc: `${DC_OPEN}<dc:identifier>oai:wibble.org:ab%3ccd</dc:identifier></oai_dc:dc>` } }),
    field: 'identifiers[0]',
    reason: /^"oai:wibble\.org:ab%3ccd" is not a valid oai-identifier: .*%3C/,
  },
  {
    name: 'metadata in a format the registry does not know',
    item: item('marc', { metadata: { marc21: '<record/>' } }),
    field: 'metadata.marc21',
    reason: /^unknown metadataPrefix/,
  },
];

/** The refusals a write throws (failing the test when it does not throw). */
async function refusalsOf(write: Promise<unknown>): Promise<readonly Refusal[]> {
  try {
    await write;
  } catch (err) {
    if (err instanceof RefusedError) return err.refusals;
    throw err;
  }
  throw new Error('the write was not refused');
}

describe('the store write gate', function () {
  forEachDatabase((db) => {
    const store = (): Store => db.store({ formatChecks: createXsdChecks(createFormatRegistry()) });

    for (const c of cases) {
      it(`refuses ${c.name} written straight through writeItems, and writes nothing`, async function () {
        const s = store();
        const refusals = await refusalsOf(s.writeItems([item('innocent'), { ...c.item, source: 'direct:1' }]));
        expect(refusals, JSON.stringify(refusals)).to.have.length(1);
        expect(refusals[0]).to.include({ internalId: c.item.internalId, source: 'direct:1', field: c.field });
        expect(refusals[0]?.reason).to.match(c.reason);
        expect(await s.count({ metadataPrefix: 'oai_dc', until: 2 ** 31 })).to.equal(0);
      });

      it(`reports ${c.name} from checkItems exactly as writeItems refuses it`, async function () {
        const s = store();
        const refusals = await refusalsOf(s.writeItems([c.item]));
        expect(await s.checkItems([c.item])).to.deep.equal(refusals);
      });
    }

    it('refuses inside a transaction too, and the transaction writes nothing', async function () {
      const s = store();
      const bad = cases[0] as Case;
      const refusals = await refusalsOf(s.transaction(async (tx) => tx.writeItems([item('first'), bad.item])));
      expect(refusals.map((r) => r.internalId)).to.deep.equal([bad.item.internalId]);
      expect(await s.count({ metadataPrefix: 'oai_dc', until: 2 ** 31 })).to.equal(0);
    });

    it('writes valid oai_dc through the same gate', async function () {
      const results = await store().writeItems([
        item('fine', { metadata: { oai_dc: `${DC_OPEN}<dc:identifier>oai:wibble.org:fine</dc:identifier></oai_dc:dc>` } }),
      ]);
      expect(results.map((r) => r.outcome)).to.deep.equal(['inserted']);
    });
  });
});

describe('the store an opened provider writes through', function () {
  forEachThrowawayDatabase((db) => {
    it("checks metadata against its format's XSD, as the loader does", async function () {
      const p = await openProvider(loadConfig({ DATABASE_URL: db().url, LOG_LEVEL: 'silent' }));
      try {
        const colour = cases[1] as Case;
        const refusals = await refusalsOf(p.store.writeItems([colour.item]));
        expect(refusals.map((r) => [r.field, r.reason])).to.have.length(1);
        expect(refusals[0]?.reason).to.match(colour.reason);
      } finally {
        await p.close();
      }
    });
  });
});
