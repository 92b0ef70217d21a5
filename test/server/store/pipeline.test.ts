/**
 * The one write pipeline (ARCHITECTURE.md), through the store a provider
 * opens: nothing a caller says lets its XML skip the judge; XML without a
 * model is lifted into one and written in every other format, valid against
 * the published schemas; the model and where it came from are kept, so
 * `rebuild-formats` lifts it again; commit hooks tell the prefetch of
 * writes; a harvested version older than the stored one is superseded.
 */
import { expect } from 'chai';
import { RefusedError, type ItemInput } from '../../../lib/store';
import { DC_NS, OAI_DC_NS } from '../../../lib/xml/namespaces';
import { loadConfig } from '../../../server/config';
import { openProvider, type Provider } from '../../../server/provider';
import { rebuildFormats } from '../../../server/rebuild';
import { forEachThrowawayDatabase } from '../../helpers/db';
import { validate, type FormatPrefix } from '../../helpers/xsd';

const NOW = 1_750_000_000;

function oaiDc(...elements: [string, string][]): string {
  return `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}">${elements.map(([n, v]) => `<dc:${n}>${v}</dc:${n}>`).join('')}</oai_dc:dc>`;
}

/** A harvested DSpace record, as its oai_dc says it (shape of /work/shared/corpus/realworld/pyoai). */
const HARVESTED = oaiDc(
  ['title', 'Monetary policy and the euro'],
  ['creator', 'Cavelaars, P.A.D.'],
  ['date', '2004-02-16T12:15:34Z'],
  ['identifier', 'http://hdl.handle.net/1765/1162'],
  ['type', 'Working Paper'],
  ['language', 'en_US'],
);

forEachThrowawayDatabase((db) => {
  let p: Provider;
  beforeEach(async () => {
    p = await openProvider(loadConfig({ DATABASE_URL: db().url, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'silent' }), { clock: () => NOW });
  });
  afterEach(async () => {
    await p.close();
  });

  it("refuses XML a caller passes off as the pipeline's own, whatever it claims", async () => {
    const crafted = {
      internalId: 'crafted',
      fields: { dc: { title: ['T'] } },
      metadata: { marc21: '<record xmlns="http://www.loc.gov/MARC21/slim"><bogus/></record>' },
      // What earlier versions of the store trusted, and what the pipeline sets for itself: neither is taken from a caller.
      derived: ['marc21'],
      written: ['marc21'],
    } as ItemInput;
    let error: unknown;
    try {
      await p.store.writeItems([crafted]);
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(RefusedError);
    expect((error as RefusedError).refusals.map((r) => r.field)).to.include('metadata.marc21');
    expect(await p.store.earliestDatestamp()).to.equal(null);
  });

  it('lifts a record that comes as oai_dc only into the model and writes every other format its model allows, valid against the published schemas', async () => {
    const [result] = await p.store.writeItems([{ internalId: 'hdl:1765/1162', metadata: { oai_dc: HARVESTED } }]);
    expect(result?.outcome).to.equal('inserted');
    const header = await p.store.getHeader('oai:' + p.config.namespace + ':hdl:1765/1162');
    expect(header?.formats).to.include.members(['oai_dc', 'marc21', 'mods']);
    for (const prefix of header?.formats ?? []) {
      const record = await p.store.getRecord(header?.identifier ?? '', prefix);
      expect(validate(record?.metadata ?? '', prefix as FormatPrefix), prefix).to.deep.equal([]);
    }
    // The oai_dc it gave is served as given.
    expect((await p.store.getRecord(header?.identifier ?? '', 'oai_dc'))?.metadata).to.equal(HARVESTED);
    const fields = (await p.store.recordFields(['hdl:1765/1162'])).get('hdl:1765/1162');
    expect(fields?.dc.title).to.deep.equal(['Monetary policy and the euro']);
    const [scanned] = await p.store.scanItems(0, 1);
    expect(scanned?.liftedFrom).to.equal('oai_dc');
    expect(scanned?.written).to.include.members(['marc21', 'mods']).and.not.include('oai_dc');
  });

  it('writes the same item the same way again: nothing changes, the datestamp stays', async () => {
    const item = { internalId: 'r1', metadata: { oai_dc: HARVESTED } };
    await p.store.writeItems([item]);
    expect((await p.store.writeItems([item]))[0]?.outcome).to.equal('unchanged');
    expect((await rebuildFormats(p.store, p.formats)).restamped).to.equal(0);
  });

  it('supersedes a harvested version older than the stored one in a later write, and counts it', async () => {
    const v2 = { internalId: 'h', datestamp: NOW - 100, versioned: true, metadata: { oai_dc: oaiDc(['title', 'Second']) } };
    const v1 = { internalId: 'h', datestamp: NOW - 200, versioned: true, metadata: { oai_dc: oaiDc(['title', 'First']) } };
    await p.store.writeItems([v2]);
    expect((await p.store.writeItems([v1]))[0]?.outcome).to.equal('superseded');
    expect((await p.store.recordFields(['h'])).get('h')?.dc.title).to.deep.equal(['Second']);
    // The same version again, or a newer one, is written as usual; a record of the repository's own is never superseded.
    expect((await p.store.writeItems([v2]))[0]?.outcome).to.equal('unchanged');
    expect((await p.store.writeItems([{ internalId: 'h', datestamp: NOW - 300, metadata: { oai_dc: oaiDc(['title', 'Own']) } }]))[0]?.outcome).to.equal(
      'updated',
    );
  });

  it('calls the commit hooks once a write or a whole transaction commits, and not for a refused write', async () => {
    let calls = 0;
    p.store.onCommit(() => calls++);
    await p.store.writeItems([{ internalId: 'a', fields: { dc: { title: ['A'] } }, metadata: {} }]);
    expect(calls).to.equal(1);
    await p.store.transaction(async (tx) => {
      await tx.writeItems([{ internalId: 'b', fields: { dc: { title: ['B'] } }, metadata: {} }]);
      await tx.deleteItems(['a']);
      expect(calls, 'not before the transaction commits').to.equal(1);
    });
    expect(calls).to.equal(2);
    await p.store.writeItems([{ internalId: 'c', sets: ['no set'], fields: { dc: {} }, metadata: {} }]).catch(() => undefined);
    expect(calls).to.equal(2);
  });
});
