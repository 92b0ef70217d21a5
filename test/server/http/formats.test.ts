import { expect } from 'chai';
import { BUILT_IN_FORMATS } from '../../../lib/formats/registry';
import { toRequestArgument } from '../../../lib/ids/oai-identifier';
import { demoRecords, demoSeed, type DemoSeedRecord } from '../../helpers/demo-records';
import { errorCodes, forEachProvider, oaiGet, resumption, texts, unescapeXml, type TestProvider } from '../../helpers/server';
import { validate, type FormatPrefix } from '../../helpers/xsd';

// What a repository configured by default offers: every built-in format but the opt-in ones.
const ALL = BUILT_IN_FORMATS.filter((f) => f.optIn !== true).map((f) => f.prefix);
const arg = (identifier: string): string => toRequestArgument(identifier);
const identifierOf = (id: string): string => demoRecords().find((r) => r.internalId === id)?.identifier as string;
const hasDoi = (r: DemoSeedRecord): boolean => (r.identifiers ?? []).some((i) => i.type === 'DOI');

/** Every header of a list harvest in one format, following resumption tokens to the end. */
async function harvestIdentifiers(p: TestProvider, prefix: string): Promise<{ identifier: string; deleted: boolean }[]> {
  const out: { identifier: string; deleted: boolean }[] = [];
  let query = `verb=ListIdentifiers&metadataPrefix=${prefix}`;
  for (;;) {
    const xml = await oaiGet(p.port, query);
    for (const m of xml.matchAll(/<header( status="deleted")?><identifier>([^<]*)<\/identifier>/g))
      out.push({ identifier: unescapeXml(m[2] as string), deleted: m[1] !== undefined });
    const token = resumption(xml)?.token;
    if (!token) return out;
    query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`;
  }
}

describe('the demo repository in every built-in format', () => {
  const seed = demoSeed();
  const plain = seed.find((r) => !r.deleted && r.identifiers === undefined) as DemoSeedRecord;
  const noDoi = seed.find((r) => !r.deleted && r.identifiers !== undefined && !hasDoi(r)) as DemoSeedRecord;
  const withDoi = seed.find((r) => !r.deleted && hasDoi(r)) as DemoSeedRecord;
  const tombstone = seed.find((r) => r.deleted) as DemoSeedRecord;

  it('has items with and without a DOI, plain Dublin Core ones, an embargoed one and one with a file list', () => {
    expect([plain, noDoi, withDoi, tombstone].every((r) => r !== undefined)).to.equal(true);
    expect(seed.filter((r) => r.accessRights === 'embargoed')).to.have.length(1);
    expect(seed.some((r) => (r.files ?? []).length > 1)).to.equal(true);
  });

  forEachProvider({}, (provider) => {
    it('serves every built-in prefix in ListMetadataFormats, edm among them', async () => {
      expect(ALL).to.include('edm');
      expect(texts(await oaiGet(provider().port, 'verb=ListMetadataFormats'), 'metadataPrefix')).to.deep.equal(ALL);
    });

    it('finds every format of every demo item valid against its published XSD', async function () {
      this.timeout(300_000);
      let checked = 0;
      for (const r of demoRecords()) {
        if (r.deleted) continue;
        const header = await provider().store.getHeader(r.identifier);
        for (const prefix of header?.formats ?? []) {
          const rec = await provider().store.getRecord(r.identifier, prefix);
          const errors = validate(rec?.metadata ?? '', prefix as FormatPrefix);
          expect(errors, `${r.internalId} in ${prefix}`).to.deep.equal([]);
          checked++;
        }
      }
      // 275 live items: oai_dc, marc21 and mods each, and the richer formats on most.
      expect(checked).to.be.greaterThan(275 * 3 + 200);
    });

    const cases: [string, () => DemoSeedRecord, string[]][] = [
      ['a plain Dublin Core item has oai_dc, marc21 and mods', () => plain, ['oai_dc', 'marc21', 'mods']],
      ['an item with the record fields but no DOI adds oai_openaire', () => noDoi, ['oai_dc', 'oai_openaire', 'marc21', 'mods']],
      // edm names the institutions Europeana shows: the demo names none (docs/metadata-formats.md).
      ['an item with a DOI has all six formats edm aside', () => withDoi, ALL.filter((p) => p !== 'edm')],
    ];
    for (const [name, record, formats] of cases) {
      it(`ListMetadataFormats with identifier: ${name}`, async () => {
        const xml = await oaiGet(provider().port, `verb=ListMetadataFormats&identifier=${arg(identifierOf(record().id))}`);
        expect(texts(xml, 'metadataPrefix')).to.deep.equal(formats);
      });
    }

    it('answers GetRecord in a format the item lacks with cannotDisseminateFormat alone', async () => {
      const xml = await oaiGet(provider().port, `verb=GetRecord&identifier=${arg(identifierOf(plain.id))}&metadataPrefix=datacite`);
      expect(errorCodes(xml)).to.deep.equal(['cannotDisseminateFormat']);
    });

    it('writes the oai-identifier and the POI into the crosswalked formats', async () => {
      const id = identifierOf(withDoi.id);
      const xml = await oaiGet(provider().port, `verb=GetRecord&identifier=${arg(id)}&metadataPrefix=datacite`);
      expect(xml).to.contain(`<alternateIdentifier alternateIdentifierType="OAI">${id}</alternateIdentifier>`);
      expect(xml).to.contain('alternateIdentifierType="PURL">http://purl.org/poi/');
    });

    it('lists in each format exactly the items that have it, and every tombstone', async function () {
      this.timeout(120_000);
      const tombstones = demoRecords()
        .filter((r) => r.deleted)
        .map((r) => r.identifier)
        .sort();
      for (const prefix of ALL) {
        const listed = await harvestIdentifiers(provider(), prefix);
        const expected: string[] = [];
        for (const r of demoRecords()) {
          if (r.deleted) continue;
          if ((await provider().store.getHeader(r.identifier))?.formats.includes(prefix)) expected.push(r.identifier);
        }
        expect(
          listed
            .filter((h) => !h.deleted)
            .map((h) => h.identifier)
            .sort(),
          prefix,
        ).to.deep.equal(expected.sort());
        expect(
          listed
            .filter((h) => h.deleted)
            .map((h) => h.identifier)
            .sort(),
          prefix,
        ).to.deep.equal(tombstones);
      }
    });

    it('lists a tombstone under every format in ListMetadataFormats with its identifier', async () => {
      const xml = await oaiGet(provider().port, `verb=ListMetadataFormats&identifier=${arg(identifierOf(tombstone.id))}`);
      expect(texts(xml, 'metadataPrefix')).to.deep.equal(ALL);
    });

    it("names a real item in Identify's oai-identifier sample", async () => {
      const sample = texts(await oaiGet(provider().port, 'verb=Identify'), 'sampleIdentifier')[0] as string;
      const xml = await oaiGet(provider().port, `verb=GetRecord&identifier=${arg(sample)}&metadataPrefix=oai_dc`);
      expect(errorCodes(xml)).to.deep.equal([]);
      expect(xml).to.not.contain('status="deleted"');
    });

    it('says the embargo in oai_openaire: the access right and the date it ends', async () => {
      const embargoed = seed.find((r) => r.accessRights === 'embargoed') as DemoSeedRecord;
      const xml = await oaiGet(provider().port, `verb=GetRecord&identifier=${arg(identifierOf(embargoed.id))}&metadataPrefix=oai_openaire`);
      expect(xml).to.contain('http://purl.org/coar/access_right/c_f1cf');
      expect(xml).to.match(/<datacite:date dateType="Available">2027-06-30<\/datacite:date>/);
    });

    it('keeps the record fields of each live item, read back by internal id, and none for a tombstone', async () => {
      const withFiles = seed.find((r) => (r.files ?? []).length > 1) as DemoSeedRecord;
      const fields = await provider().store.recordFields([withFiles.id, plain.id, tombstone.id]);
      expect(fields.get(withFiles.id)?.files?.map((f) => f.url)).to.deep.equal(withFiles.files?.map((f) => f.url));
      expect(fields.get(plain.id)?.dc.title).to.deep.equal(plain.dc.title);
      expect(fields.get(plain.id)?.creators).to.equal(undefined);
      expect(fields.has(tombstone.id)).to.equal(false);
    });
  });
});
