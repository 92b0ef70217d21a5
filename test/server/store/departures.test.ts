/**
 * Set departures, through the HTTP endpoint on every database: an item that
 * leaves a set (by a load, a set-membership change or a deletion) is
 * reported deleted by a selective harvest of that set whose `from` reaches
 * the departure, and stays live everywhere else; paging by resumption token
 * neither loses nor repeats an item while departures happen.
 */
import { expect } from 'chai';
import { formatDatestamp } from '../../../lib/oai/dates';
import type { ItemInput } from '../../../lib/store';
import { forEachProvider, oaiGet, resumption, texts, unescapeXml, type TestProvider } from '../../helpers/server';
import { dc } from '../../helpers/store-fixtures';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';

interface Header {
  readonly id: string;
  readonly deleted: boolean;
  readonly datestamp: string;
  readonly sets: string[];
}

const oai = (id: string): string => `oai:${DEMO_NAMESPACE}:${id}`;
const item = (id: string, sets: string[]): ItemInput => ({ internalId: id, sets, metadata: { oai_dc: dc(`Title of ${id}`) } });

function headers(xml: string): Header[] {
  return [...xml.matchAll(/<header( status="deleted")?>([\s\S]*?)<\/header>/g)].map((m) => ({
    id: unescapeXml(/<identifier>([^<]*)<\/identifier>/.exec(m[2] as string)?.[1] ?? ''),
    deleted: m[1] !== undefined,
    datestamp: /<datestamp>([^<]*)<\/datestamp>/.exec(m[2] as string)?.[1] ?? '',
    sets: texts(m[2] as string, 'setSpec'),
  }));
}

/** A whole list harvest, following tokens; checks completeListSize against what came. */
async function harvest(p: TestProvider, query: string, between?: (page: number) => Promise<void>): Promise<Header[]> {
  const verb = /verb=(\w+)/.exec(query)?.[1] as string;
  let xml = await oaiGet(p.port, query);
  if (xml.includes('noRecordsMatch')) return [];
  const out = headers(xml);
  let size = resumption(xml)?.completeListSize;
  for (let page = 1; ; page++) {
    const r = resumption(xml);
    if (!r || r.token === '') break;
    await between?.(page);
    xml = await oaiGet(p.port, `verb=${verb}&resumptionToken=${encodeURIComponent(r.token)}`);
    out.push(...headers(xml));
    size = resumption(xml)?.completeListSize ?? size;
  }
  if (size !== undefined) expect(size, 'completeListSize').to.equal(out.length);
  return out;
}

const byId = (hs: readonly Header[]): Record<string, Header> => Object.fromEntries(hs.map((h) => [h.id, h]));

forEachProvider({ seed: false, pageSize: 2 }, (provider) => {
  const T0 = 1_750_000_000;
  const at = (p: TestProvider, t: number): void => {
    p.writeNow = t;
    p.now = t + 1;
  };

  it('reports an item that left a set as deleted in harvests of that set from the departure on, and live everywhere else', async () => {
    const p = provider();
    at(p, T0);
    await p.store.putSets([
      { spec: 'a', name: 'A' },
      { spec: 'a:b', name: 'B' },
      { spec: 'a:c', name: 'C' },
    ]);
    await p.store.writeItems([item('x', ['a:b']), item('y', ['a:b', 'a:c']), item('w', ['a:b'])]);
    at(p, T0 + 100);
    // x leaves a:b (and so a); y leaves a:b but stays in a:c, so in a.
    await p.store.writeItems([item('x', []), item('y', ['a:c'])]);
    at(p, T0 + 200);
    const from = `&from=${formatDatestamp(T0 + 100)}`;
    const ab = byId(await harvest(p, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=a:b${from}`));
    expect(ab[oai('x')]).to.include({ deleted: true, datestamp: formatDatestamp(T0 + 100) });
    expect(ab[oai('y')]).to.include({ deleted: true });
    expect(ab[oai('w')], 'an item that did not change is outside the range').to.equal(undefined);
    const a = byId(await harvest(p, `verb=ListRecords&metadataPrefix=oai_dc&set=a${from}`));
    expect(a[oai('x')]?.deleted, 'x left a with a:b').to.equal(true);
    expect(a[oai('y')], 'y is still in a through a:c').to.deep.include({ deleted: false, sets: ['a:c'] });
    expect(byId(await harvest(p, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=a:c`))[oai('y')]?.deleted).to.equal(false);
    // Without a set, and by GetRecord, x is live: it left a set, not the repository.
    expect(byId(await harvest(p, 'verb=ListIdentifiers&metadataPrefix=oai_dc'))[oai('x')]?.deleted).to.equal(false);
    const record = await oaiGet(p.port, `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(oai('x'))}`);
    expect(record).to.contain('<metadata>').and.not.contain('status="deleted"');
    // A harvest from after the departure does not repeat it.
    expect(await harvest(p, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=a:b&from=${formatDatestamp(T0 + 101)}`)).to.deep.equal([]);
    // The deleted headers of ListRecords carry no metadata (OAI-PMH 2.5.1).
    const page = await oaiGet(p.port, `verb=ListRecords&metadataPrefix=oai_dc&set=a:b${from}`);
    expect(page).to.not.match(/<header status="deleted">[\s\S]*?<\/header><metadata>/);
    // Departures are persistent, and the home page and Identify say so.
    expect(texts(await oaiGet(p.port, 'verb=Identify'), 'deletedRecord')).to.deep.equal(['persistent']);
    const stats = await p.store.stats();
    expect(stats.sets['a:b']).to.include({ items: 3, deleted: 2 });
  });

  it('makes an item live again in a set it rejoins', async () => {
    const p = provider();
    at(p, T0 + 1000);
    await p.store.putSets([{ spec: 'r', name: 'R' }]);
    await p.store.writeItems([item('back', ['r'])]);
    at(p, T0 + 1100);
    await p.store.writeItems([item('back', [])]);
    at(p, T0 + 1200);
    await p.store.writeItems([item('back', ['r'])]);
    at(p, T0 + 1300);
    const r = await harvest(p, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=r&from=${formatDatestamp(T0 + 1000)}`);
    expect(r).to.deep.equal([{ id: oai('back'), deleted: false, datestamp: formatDatestamp(T0 + 1200), sets: ['r'] }]);
  });

  it('records a departure when setMemberships moves an item, and when a deleted record names no set', async () => {
    const p = provider();
    at(p, T0 + 2000);
    await p.store.putSets([
      { spec: 'm', name: 'M' },
      { spec: 'n', name: 'N' },
    ]);
    await p.store.writeItems([item('mover', ['m']), item('stayer', ['m']), item('dead', ['m'])]);
    at(p, T0 + 2100);
    const results = await p.store.setMemberships([
      { internalId: 'mover', sets: ['n'] },
      { internalId: 'stayer', sets: ['m'] },
    ]);
    expect(results.map((r) => r.outcome)).to.deep.equal(['updated', 'unchanged']);
    // A tombstone loaded without its sets (as other providers' deleted headers often are).
    await p.store.writeItems([{ internalId: 'dead', deleted: true, sets: [], metadata: {} }]);
    at(p, T0 + 2200);
    const m = byId(await harvest(p, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=m&from=${formatDatestamp(T0 + 2100)}`));
    expect(Object.keys(m).sort()).to.deep.equal([oai('dead'), oai('mover')]);
    expect(m[oai('mover')]).to.include({ deleted: true, datestamp: formatDatestamp(T0 + 2100) });
    expect(m[oai('dead')]?.deleted).to.equal(true);
    expect(byId(await harvest(p, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=n'))[oai('mover')]?.deleted).to.equal(false);
    const unknown = await p.store.setMemberships([{ internalId: 'nobody', sets: ['m'] }]).catch((e: Error) => e);
    expect(String(unknown)).to.match(/no item has this internal id/);
    const undeclared = await p.store.setMemberships([{ internalId: 'mover', sets: ['zz'] }]).catch((e: Error) => e);
    expect(String(undeclared)).to.match(/not declared/);
  });

  it('neither loses nor repeats an unchanged item of a set harvest while others leave it between pages', async () => {
    const p = provider();
    at(p, T0 + 3000);
    await p.store.putSets([{ spec: 'h', name: 'H' }]);
    const ids = Array.from({ length: 9 }, (_, i) => `h${i}`);
    await p.store.writeItems(ids.map((id) => item(id, ['h'])));
    at(p, T0 + 3100);
    const leaving = ['h1', 'h4', 'h7'];
    const seen = await harvest(p, 'verb=ListIdentifiers&metadataPrefix=oai_dc&set=h', async (page) => {
      if (page === 1) {
        p.writeNow = T0 + 3150;
        await p.store.setMemberships(leaving.map((id) => ({ internalId: id, sets: [] })));
      }
    });
    const unchanged = ids.filter((id) => !leaving.includes(id)).map(oai);
    const got = seen.map((h) => h.id);
    for (const id of unchanged)
      expect(
        got.filter((g) => g === id),
        id,
      ).to.have.length(1);
    expect(new Set(got).size).to.equal(got.length);
    // The next incremental harvest, from the last one's responseDate, reports the departures.
    p.now = T0 + 3200;
    const next = await harvest(p, `verb=ListIdentifiers&metadataPrefix=oai_dc&set=h&from=${formatDatestamp(T0 + 3101)}`);
    expect(next.map((h) => [h.id, h.deleted]).sort()).to.deep.equal(leaving.map((id) => [oai(id), true]).sort());
  });
});
