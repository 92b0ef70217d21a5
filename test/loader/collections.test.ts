/**
 * Files that hold several records of one format (a MARCXML `collection`, a
 * MODS `modsCollection`) load as one item per record, named by the record's
 * own identifier or by file name and position; and a JSON record that gives
 * XML only is lifted into the model like any XML record. Each test loads
 * through `runLoad` into a throwaway store and reads back what the store
 * serves (GetRecord's read) on SQLite and on PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'chai';
import type { Refusal } from '../../lib/model/refusal';
import { parseFragment } from '../../lib/xml/tree';
import { loadConfig } from '../../server/config';
import { openInput } from '../../server/loader/input';
import { runLoad } from '../../server/loader/load';
import { type LoadSummary } from '../../server/loader/load-types';
import { openProvider, type Provider } from '../../server/provider';
import { forEachThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { fixtureText } from '../helpers/xml-fixtures';
import type { KnexStore } from '../../server/store/knex-store';

const MARC_NS = 'http://www.loc.gov/MARC21/slim';
const MODS_NS = 'http://www.loc.gov/mods/v3';
const XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

/**
 * The one live record of the Alma page (test/fixtures/realworld/alma), as
 * published but for its leader: the page squeezed the leader's runs of
 * spaces (22 characters, which MARC21slim.xsd refuses), so its three blank
 * positions 17-19 are given back. Its 001 is 991000000269703811.
 */
function almaRecord(): string {
  const page = fixtureText('realworld', 'alma', 'alma-marc21-ListRecords.xml');
  const record = /<record xmlns="http:\/\/www\.loc\.gov\/MARC21\/slim"[\s\S]*?<\/record>/.exec(page)?.[0];
  if (record === undefined) throw new Error('the Alma page holds no MARCXML record');
  return record.replace('<leader>01407nam a2200445 4500</leader>', '<leader>01407nam a2200445   4500</leader>').replace(/ xmlns="[^"]*"/, '');
}

/** A MARCXML record with a title, and a 001 when given. */
function marcRecord(title: string, controlNumber?: string): string {
  const f001 = controlNumber === undefined ? '' : `<controlfield tag="001">${controlNumber}</controlfield>`;
  return `<record><leader>00000nam a2200000   4500</leader>${f001}<datafield tag="245" ind1="1" ind2="0"><subfield code="a">${title}</subfield></datafield></record>`;
}

/** A MARCXML collection, declaring the namespaces its records use (the records declare none of their own). */
const marcCollection = (...records: string[]): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="${MARC_NS}" ${XSI}>\n${records.join('\n')}\n</collection>\n`;

const modsCollection = (...records: string[]): string => `<modsCollection xmlns="${MODS_NS}" version="3.7">\n${records.join('\n')}\n</modsCollection>\n`;

/** The text of dc:title in an oai_dc record. */
function dcTitles(xml: string | null | undefined): string[] {
  return [...(xml ?? '').matchAll(/<dc:title>([^<]*)<\/dc:title>/g)].map((m) => m[1] as string);
}

forEachThrowawayDatabase((db) => {
  let p: Provider;
  beforeEach(async () => {
    p = await openProvider(loadConfig({ DATABASE_URL: db().url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_SEED_DEMO: 'false' }));
  });
  afterEach(async () => {
    await p.close();
  });

  /** Loads one file (or standard input's content, as `-`) and returns the summary and every refusal. */
  const load = async (
    name: string,
    content: string,
    options: { partial?: boolean } = {},
  ): Promise<{ summary: LoadSummary; refusals: Refusal[]; file: string }> => {
    const file = name === '-' ? '-' : path.join(db().dir, name);
    if (file !== '-') fs.writeFileSync(file, content);
    const refusals: Refusal[] = [];
    const counter = { bytesRead: 0 };
    const input = await openInput(file, Readable.from([Buffer.from(content)]), counter);
    const summary = await runLoad(p, [input], { ...options, counter, onRefusal: (r) => refusals.push(r) });
    return { summary, refusals, file };
  };
  /** A format of an item as GetRecord reads it, by internal id. */
  const served = async (internalId: string, prefix: string): Promise<string | null | undefined> =>
    (await p.store.getRecord(p.policy.map(internalId).identifier, prefix))?.metadata;
  const itemCount = async (): Promise<number> => Number(((await (p.store as KnexStore).knex('items').count({ n: '*' })) as { n: unknown }[])[0]?.n ?? 0);

  it('loads a MARCXML collection of two records as two items, each with its own title in oai_dc', async () => {
    const { summary, refusals } = await load('catalogue.xml', marcCollection(almaRecord(), marcRecord('Second record of the catalogue')));
    expect(refusals).to.deep.equal([]);
    expect(summary).to.include({ records: 2, inserted: 2, committed: true });
    expect(dcTitles(await served('991000000269703811', 'oai_dc'))).to.deep.equal(['Readings on modern organizations.']);
    expect(dcTitles(await served('catalogue#2', 'oai_dc'))).to.deep.equal(['Second record of the catalogue']);
  });

  it('stores each record of a collection as a document of its own, declaring the namespaces it takes from the container', async () => {
    await load('catalogue.xml', marcCollection(almaRecord(), marcRecord('Second')));
    const marc = await served('991000000269703811', 'marc21');
    expect(marc).to.match(new RegExp(`^<record xmlns="${MARC_NS}" ${XSI}`));
    const root = parseFragment(marc ?? '');
    expect(root?.ns).to.equal(MARC_NS);
    expect(root?.local).to.equal('record');
    expect(root?.attrs.get('xsi:schemaLocation')).to.contain('MARC21slim.xsd');
    // The second record uses no xsi attribute, so it declares only the MARC namespace.
    expect(await served('catalogue#2', 'marc21')).to.match(new RegExp(`^<record xmlns="${MARC_NS}"><leader>`));
  });

  it('loads a MODS modsCollection of two records as two items named by recordInfo/recordIdentifier, else by identifier', async () => {
    const { summary, refusals } = await load(
      'mods.xml',
      modsCollection(
        '<mods version="3.7"><titleInfo><title>The first MODS record</title></titleInfo><identifier type="hdl">1765/315</identifier><recordInfo><recordIdentifier source="DLC">mods-0001</recordIdentifier></recordInfo></mods>',
        '<mods version="3.7"><titleInfo><title>The second MODS record</title></titleInfo><relatedItem type="host"><identifier type="issn">0317-8471</identifier></relatedItem><identifier type="invalid-one" invalid="yes">old-7</identifier><identifier type="local">local-7</identifier></mods>',
      ),
    );
    expect(refusals).to.deep.equal([]);
    expect(summary).to.include({ records: 2, inserted: 2, committed: true });
    expect(dcTitles(await served('mods-0001', 'oai_dc'))).to.deep.equal(['The first MODS record']);
    expect(dcTitles(await served('local-7', 'oai_dc'))).to.deep.equal(['The second MODS record']);
  });

  it('refuses a collection whose two records name themselves alike, naming the file and the position, and writes nothing', async () => {
    const { summary, refusals, file } = await load('twice.xml', marcCollection(marcRecord('One', 'cn-1'), marcRecord('Other', 'cn-1')));
    expect(summary.committed).to.equal(false);
    expect(await itemCount()).to.equal(0);
    expect(refusals).to.have.length(1);
    expect(refusals[0]).to.include({ internalId: 'cn-1', field: 'id' });
    expect(refusals[0]?.source).to.match(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+ \\(record 2\\)$`));
    expect(refusals[0]?.reason).to.match(/001 control field.*cannot be told apart/);
  });

  it('refuses an empty collection naming the file, and writes nothing', async () => {
    const { summary, refusals, file } = await load('empty.xml', marcCollection());
    expect(summary.committed).to.equal(false);
    expect(await itemCount()).to.equal(0);
    expect(refusals.map((r) => `${r.source ?? ''} ${r.field}: ${r.reason}`)).to.deep.equal([`${file}:4 xml: the {${MARC_NS}}collection holds no record`]);
  });

  it('refuses a collection holding an element that is not one of its records, naming the file and the position', async () => {
    const { summary, refusals } = await load(
      'odd.xml',
      modsCollection('<mods version="3.7"><titleInfo><title>T</title></titleInfo></mods>', '<titleInfo><title>Stray</title></titleInfo>'),
    );
    expect(summary.committed).to.equal(false);
    expect(refusals.map((r) => r.reason)).to.deep.equal([
      `the {${MODS_NS}}modsCollection holds a {${MODS_NS}}titleInfo element as its record 2, not a {${MODS_NS}}mods`,
    ]);
  });

  it('names the records of a collection on standard input by their own identifiers, and refuses one that names none', async () => {
    const { summary, refusals } = await load('-', marcCollection(marcRecord('Named', 'cn-9'), marcRecord('Unnamed')), { partial: true });
    expect(summary).to.include({ inserted: 1, refused: 1, committed: true });
    expect(dcTitles(await served('cn-9', 'oai_dc'))).to.deep.equal(['Named']);
    expect(refusals).to.have.length(1);
    expect(refusals[0]).to.include({ field: 'id' });
    expect(refusals[0]?.source).to.match(/^-:\d+ \(record 2\)$/);
    expect(refusals[0]?.reason).to.match(/standard input has no file name/);
  });

  it('still names a file of one MARCXML record by its file name', async () => {
    const { summary } = await load('single%20record.xml', marcRecord('Alone', 'cn-1').replace('<record>', `<record xmlns="${MARC_NS}">`));
    expect(summary).to.include({ inserted: 1, committed: true });
    expect(dcTitles(await served('single record', 'oai_dc'))).to.deep.equal(['Alone']);
  });

  it('lifts a JSON record that gives MODS only, so its oai_dc has the title', async () => {
    const mods = `<mods xmlns="${MODS_NS}" version="3.7"><titleInfo><title>Only in MODS</title></titleInfo><name type="personal"><namePart>Curie, Marie</namePart><role><roleTerm type="code" authority="marcrelator">aut</roleTerm></role></name></mods>`;
    const { summary, refusals } = await load('mods-only.ndjson', `${JSON.stringify({ id: 'x', metadata: { mods } })}\n`);
    expect(refusals).to.deep.equal([]);
    expect(summary).to.include({ inserted: 1, committed: true });
    const dc = await served('x', 'oai_dc');
    expect(dcTitles(dc)).to.deep.equal(['Only in MODS']);
    expect(dc).to.contain('<dc:creator>Curie, Marie</dc:creator>');
    // The MODS given is served as given; the formats it does not give are written from the lifted model.
    expect(await served('x', 'mods')).to.equal(mods);
    expect(await served('x', 'marc21')).to.contain('Only in MODS');
  });

  it('keeps the model of a JSON record that gives both Dublin Core and MODS', async () => {
    const mods = `<mods xmlns="${MODS_NS}" version="3.7"><titleInfo><title>The MODS title</title></titleInfo></mods>`;
    await load('both.ndjson', `${JSON.stringify({ id: 'y', dc: { title: 'The given title' }, metadata: { mods } })}\n`);
    expect(dcTitles(await served('y', 'oai_dc'))).to.deep.equal(['The given title']);
    expect(await served('y', 'mods')).to.equal(mods);
  });
});
