import { expect } from 'chai';
import * as libxml from 'libxmljs2';
import { isNotOffered, type CrosswalkContext } from '../../lib/formats/format';
import { writeFormats } from '../../lib/pipeline/prepare';
import { createIdPolicy } from '../../lib/ids/policy';
import { poiFromOaiIdentifier } from '../../lib/ids/poi';
import { BUILT_IN_FORMATS, createFormatRegistry } from '../../lib/formats/registry';
import { type MetadataFormat } from '../../lib/formats/format';
import { parseRecordFields } from '../../lib/model/from-json';
import { identifierUri } from '../../lib/model/facts';
import { type RecordFields } from '../../lib/model/record';
import { SHAPES } from '../fixtures/formats/records';
import { validate, xsdErrors, type FormatPrefix } from '../helpers/xsd';

const CTX: CrosswalkContext = {
  oaiIdentifier: 'oai:example.org:item-1',
  poi: 'http://purl.org/poi/example.org/item-1',
  options: { datacentreSymbol: 'EXAMPLE.REPO', dataProvider: 'Example Museum', provider: 'Example Aggregator' },
};
const CROSSWALKED = BUILT_IN_FORMATS.filter((f): f is MetadataFormat & Required<Pick<MetadataFormat, 'fromRecord'>> => f.fromRecord !== undefined);

function fields(record: Record<string, unknown>): RecordFields {
  const r = parseRecordFields(record, { internalId: String(record.id) });
  if ('refusals' in r) throw new Error(`fixture refused: ${JSON.stringify(r.refusals)}`);
  return r.fields;
}

/** Every text node and attribute value of a document, as a parser reads them back. */
function valuesOf(xml: string): string[] {
  const doc = libxml.parseXml(xml, { nonet: true });
  const texts = doc.find('//text()').map((n) => (n as unknown as { text(): string }).text());
  const attrs = doc.find('//@*').map((n) => (n as unknown as { value(): string }).value());
  return [...texts, ...attrs];
}

/** A GetRecord response around one metadata element, for validating a format inside the OAI-PMH envelope. */
function inRecord(metadata: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-01-01T00:00:00Z</responseDate><request verb="GetRecord">http://example.org/oai</request><GetRecord><record><header><identifier>oai:example.org:item-1</identifier><datestamp>2026-01-01T00:00:00Z</datestamp></header><metadata>${metadata}</metadata></record></GetRecord></OAI-PMH>`;
}

describe('the built-in crosswalks', () => {
  it('are registered with their prefix, namespace and schema, oai_dc first and unchanged', () => {
    expect(BUILT_IN_FORMATS.map((f) => [f.prefix, f.namespace, f.schema])).to.deep.equal([
      ['oai_dc', 'http://www.openarchives.org/OAI/2.0/oai_dc/', 'http://www.openarchives.org/OAI/2.0/oai_dc.xsd'],
      ['oai_openaire', 'http://namespace.openaire.eu/schema/oaire/', 'https://www.openaire.eu/schema/repo-lit/4.0/openaire.xsd'],
      ['datacite', 'http://datacite.org/schema/kernel-4', 'http://schema.datacite.org/meta/kernel-4/metadata.xsd'],
      ['oai_datacite', 'http://schema.datacite.org/oai/oai-1.1/', 'http://schema.datacite.org/oai/oai-1.1/oai.xsd'],
      ['marc21', 'http://www.loc.gov/MARC21/slim', 'http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd'],
      ['mods', 'http://www.loc.gov/mods/v3', 'http://www.loc.gov/standards/mods/v3/mods-3-7.xsd'],
      ['edm', 'http://www.europeana.eu/schemas/edm/', 'http://www.europeana.eu/schemas/edm/EDM.xsd'],
      ['rioxx', 'http://www.rioxx.net/schema/v3.0/rioxx/', 'http://www.rioxx.net/schema/v3.0/rioxx/rioxx.xsd'],
      ['qdc', 'http://purl.org/dc/terms/', 'http://www.ukoln.ac.uk/metadata/dcmi/xmlschema/qualifieddc.xsd'],
    ]);
    expect(BUILT_IN_FORMATS.every((f) => f.builtIn === true)).to.equal(true);
    expect(
      createFormatRegistry()
        .all()
        .map((f) => f.prefix),
    ).to.deep.equal(['oai_dc']);
    expect(createFormatRegistry(BUILT_IN_FORMATS).get('mods')?.fromRecord).to.be.a('function');
  });

  for (const shape of SHAPES) {
    describe(shape.name, () => {
      for (const format of CROSSWALKED) {
        const offered = shape.offered.includes(format.prefix);
        it(offered ? `crosswalks to ${format.prefix} valid against its published XSD` : `does not offer ${format.prefix}, saying why`, () => {
          const record = fields(shape.record);
          const out = format.fromRecord(record, CTX);
          expect(format.lacks?.(record, CTX) ?? null).to.equal(isNotOffered(out) ? out.notOffered : null);
          if (!offered) {
            expect(out).to.have.property('notOffered').that.is.a('string').and.not.empty;
            return;
          }
          if (isNotOffered(out)) throw new Error(`not offered: ${out.notOffered}`);
          expect(validate(out, format.prefix as FormatPrefix)).to.deep.equal([]);
        });
      }
    });
  }

  for (const format of CROSSWALKED) {
    it(`${format.prefix}: the oai-identifier and the POI appear in every record`, () => {
      for (const shape of SHAPES) {
        const out = format.fromRecord(fields(shape.record), CTX);
        if (isNotOffered(out)) continue;
        const values = valuesOf(out);
        expect(values, shape.name).to.include(CTX.oaiIdentifier);
        expect(values, shape.name).to.include(CTX.poi);
      }
    });

    it(`${format.prefix}: is valid inside an OAI-PMH GetRecord response`, () => {
      const out = format.fromRecord(fields(SHAPES[0]!.record), CTX);
      expect(out).to.be.a('string');
      expect(xsdErrors(inRecord(out as string), format.prefix as FormatPrefix)).to.deep.equal([]);
    });

    it(`${format.prefix}: the same record gives the same bytes, whatever the key order of its JSON`, () => {
      for (const shape of SHAPES) {
        const reversed = Object.fromEntries(Object.entries(shape.record).reverse());
        const a = format.fromRecord(fields(shape.record), CTX);
        const b = format.fromRecord(fields(JSON.parse(JSON.stringify(reversed)) as Record<string, unknown>), CTX);
        expect(b, shape.name).to.deep.equal(a);
      }
    });

    it(`${format.prefix}: escapes markup, quotes and entity-like text, which a parser reads back unchanged`, () => {
      const hostile = ['<b>bold</b> & "quoted" \'single\'', 'R&amp;D &lt;x&gt; &#65;', ']]> <![CDATA[x]]>', 'line\r\nbreak\ttab', '<?pi x?><!-- c -->'];
      const record = fields({
        id: 'h',
        dc: { title: hostile, subject: hostile, description: hostile, identifier: hostile },
        // A landing page too, which RIOXX asks for.
        identifiers: [
          { type: 'DOI', value: '10.1234/a<b>&"c"' },
          { type: 'URL', value: 'https://repo.example.org/items/h' },
        ],
        creators: [{ name: hostile[0], givenName: hostile[1], familyName: hostile[2], affiliations: [{ name: hostile[3] }] }],
        contributors: [{ name: hostile[4], type: 'Editor' }],
        resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501', label: hostile[0] },
        accessRights: 'open',
        // A licence and a language: what EDM asks of a text besides (Europeana's mandatory properties).
        license: 'https://creativecommons.org/licenses/by/4.0/',
        language: 'en',
        publisher: hostile[1],
        publicationYear: 2020,
        fundingReferences: [{ funderName: hostile[2], awardNumber: hostile[3], awardTitle: hostile[4] }],
      });
      const out = format.fromRecord(record, CTX);
      if (isNotOffered(out)) throw new Error(out.notOffered);
      expect(validate(out, format.prefix as FormatPrefix)).to.deep.equal([]);
      const values = valuesOf(out);
      // EDM, RIOXX and qdc name a DOI by its resolver URI (dc:identifier, edm:isShownAt, cite-as), in which these characters are percent-encoded.
      const doiText = ['edm', 'rioxx', 'qdc'].includes(format.prefix) ? identifierUri(record.identifiers![0]!) : '10.1234/a<b>&"c"';
      for (const h of [...hostile, doiText])
        expect(
          values.some((v) => v.includes(h)),
          JSON.stringify(h),
        ).to.equal(true);
    });
  }

  it('oai_datacite is not offered without a data centre symbol, even for a full DataCite record', () => {
    const f = CROSSWALKED.find((x) => x.prefix === 'oai_datacite')!;
    expect(f.fromRecord(fields(SHAPES[0]!.record), { ...CTX, options: {} })).to.deep.equal({
      notOffered: 'oai_datacite needs a data centre symbol (option datacentreSymbol)',
    });
  });

  it('oai_datacite wraps exactly the datacite resource', () => {
    const record = fields(SHAPES[0]!.record);
    const dc = CROSSWALKED.find((x) => x.prefix === 'datacite')!.fromRecord(record, CTX) as string;
    const wrapped = CROSSWALKED.find((x) => x.prefix === 'oai_datacite')!.fromRecord(record, CTX) as string;
    expect(wrapped).to.contain(`<payload>${dc}</payload>`);
    expect(wrapped).to.contain('<datacentreSymbol>EXAMPLE.REPO</datacentreSymbol>');
  });

  it('DataCite names every missing mandatory property at once', () => {
    const f = CROSSWALKED.find((x) => x.prefix === 'datacite')!;
    expect(f.fromRecord(fields({ id: 'x', dc: { title: 'T' } }), CTX)).to.deep.equal({
      notOffered: 'DataCite kernel-4 needs a DOI, a creator, a publisher, a publication year, a resource type',
    });
  });

  it('OpenAIRE falls back to the POI as the resource identifier when the record has no other', () => {
    const f = CROSSWALKED.find((x) => x.prefix === 'oai_openaire')!;
    const record = fields({ id: 'x', dc: { title: 'T' }, resourceType: { coar: 'http://purl.org/coar/resource_type/c_46ec' }, accessRights: 'open' });
    expect(f.fromRecord(record, CTX)).to.contain(`<datacite:identifier identifierType="PURL">${CTX.poi}</datacite:identifier>`);
    const { poi: _, ...noPoi } = CTX;
    expect(f.fromRecord(record, noPoi)).to.deep.equal({ notOffered: 'OpenAIRE v4 needs a DOI, Handle, URN, ARK, URL or POI' });
  });

  it('writes the embargo end as the Available date in DataCite and OpenAIRE, and as the availability date in MARC 506', () => {
    const record = fields(SHAPES.find((s) => s.name === 'an embargoed article')!.record);
    const out = (p: string): string => CROSSWALKED.find((x) => x.prefix === p)!.fromRecord(record, CTX) as string;
    expect(out('datacite')).to.contain('<date dateType="Available">2027-01-15</date>');
    expect(out('oai_openaire')).to.contain('<datacite:date dateType="Available">2027-01-15</datacite:date>');
    expect(out('oai_openaire')).to.contain('rightsURI="http://purl.org/coar/access_right/c_f1cf"');
    expect(out('marc21')).to.contain(
      '<datafield tag="506" ind1="1" ind2=" "><subfield code="a">embargoed access</subfield><subfield code="g">2027-01-15</subfield>',
    );
  });

  it('maps a COAR type to the DataCite general type, the MARC leader and the MODS typeOfResource of the table', () => {
    const record = fields(SHAPES.find((s) => s.name === 'a dataset with a DOI and files')!.record);
    const out = (p: string): string => CROSSWALKED.find((x) => x.prefix === p)!.fromRecord(record, CTX) as string;
    expect(out('datacite')).to.contain('<resourceType resourceTypeGeneral="Dataset">dataset</resourceType>');
    expect(out('oai_openaire')).to.contain('resourceTypeGeneral="dataset" uri="http://purl.org/coar/resource_type/c_ddb1"');
    expect(out('marc21')).to.contain('<leader>     nmm a22     3u 4500</leader>');
    expect(out('mods')).to.contain('<typeOfResource>software, multimedia</typeOfResource>');
  });

  it('writes ORCID iDs and ROR affiliations where the format has a place for them', () => {
    const record = fields(SHAPES[0]!.record);
    const out = (p: string): string => CROSSWALKED.find((x) => x.prefix === p)!.fromRecord(record, CTX) as string;
    expect(out('datacite')).to.contain(
      '<nameIdentifier nameIdentifierScheme="ORCID" schemeURI="https://orcid.org">https://orcid.org/0000-0003-1983-9378</nameIdentifier>',
    );
    expect(out('datacite')).to.contain(
      '<affiliation affiliationIdentifier="https://ror.org/01tm6cn81" affiliationIdentifierScheme="ROR" schemeURI="https://ror.org">University of Gothenburg</affiliation>',
    );
    expect(out('mods')).to.contain('<nameIdentifier type="orcid">https://orcid.org/0000-0003-1983-9378</nameIdentifier>');
  });
});

describe('where a work was published, in every format that has a place for it', () => {
  const record = fields(SHAPES[0]!.record);
  const out = (p: string, r: RecordFields = record): string => CROSSWALKED.find((x) => x.prefix === p)!.fromRecord(r, CTX) as string;

  it('OpenAIRE v4: the citation title, volume, issue, start and end page; the ISSNs as related identifiers IsPartOf', () => {
    expect(out('oai_openaire')).to.contain(
      '<oaire:citationTitle>Chemistry – A European Journal</oaire:citationTitle><oaire:citationVolume>23</oaire:citationVolume><oaire:citationIssue>31</oaire:citationIssue><oaire:citationStartPage>7444</oaire:citationStartPage><oaire:citationEndPage>7447</oaire:citationEndPage>',
    );
    expect(out('oai_openaire')).to.contain(
      '<datacite:relatedIdentifier relatedIdentifierType="ISSN" relationType="IsPartOf">0947-6539</datacite:relatedIdentifier>',
    );
  });

  it('DataCite: a related item of type Journal the work IsPublishedIn', () => {
    expect(out('datacite')).to.contain(
      '<relatedItems><relatedItem relatedItemType="Journal" relationType="IsPublishedIn"><titles><title>Chemistry – A European Journal</title></titles><volume>23</volume><issue>31</issue><firstPage>7444</firstPage><lastPage>7447</lastPage></relatedItem></relatedItems>',
    );
  });

  it('MODS: a relatedItem of type host with the part the work takes there', () => {
    expect(out('mods')).to.contain(
      '<relatedItem type="host"><titleInfo><title>Chemistry – A European Journal</title></titleInfo><part><detail type="volume"><number>23</number></detail><detail type="issue"><number>31</number></detail><extent unit="pages"><start>7444</start><end>7447</end></extent></part></relatedItem>',
    );
  });

  it('MARC 21: 773 with the title and the related parts as LC writes them', () => {
    expect(out('marc21')).to.contain(
      '<datafield tag="773" ind1="0" ind2=" "><subfield code="t">Chemistry – A European Journal</subfield><subfield code="g">Vol. 23, no. 31, p. 7444-7447</subfield></datafield>',
    );
  });

  it("says a book chapter's book and a conference paper's proceedings by their DataCite types, validly in every format", () => {
    const chapter: RecordFields = { ...record, resourceType: { general: 'BookChapter', label: 'chapter' }, host: { title: 'A Book', startPage: 'xii' } };
    const paper: RecordFields = {
      ...record,
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_5794', general: 'ConferencePaper', label: 'conference paper' },
      host: { title: 'Proc. X', endPage: '9' },
    };
    expect(out('datacite', chapter)).to.contain('<relatedItem relatedItemType="Book" relationType="IsPublishedIn">');
    expect(out('datacite', paper)).to.contain('<relatedItem relatedItemType="ConferenceProceeding" relationType="IsPublishedIn">');
    expect(out('marc21', paper)).to.contain('<subfield code="g">p. -9</subfield>');
    for (const r of [chapter, paper]) {
      for (const f of CROSSWALKED) {
        const x = f.fromRecord(r, CTX);
        if (!isNotOffered(x)) expect(validate(x, f.prefix as FormatPrefix), f.prefix).to.deep.equal([]);
      }
    }
  });

  it('leaves oai_dc as the record gives it: Dublin Core has no element for a citation (OpenAIRE v4 keeps dc:source for the original of a digitised work)', () => {
    const dc = CROSSWALKED.find((x) => x.prefix === 'oai_dc');
    const written = dc === undefined ? BUILT_IN_FORMATS.find((x) => x.prefix === 'oai_dc')!.fromDublinCore!(record.dc) : (dc.fromRecord(record, CTX) as string);
    expect(written).to.not.contain('Chemistry');
  });
});

describe('BCP 47 language tags in every format', () => {
  // DataCite and OpenAIRE take xs:language (a BCP 47 tag), MODS languageTerm authority rfc5646 the tag
  // itself, MARC 041 a language code: the primary subtag, with its ISO 639 source.
  const rows = [
    ['en-US', 'en', 'iso639-1'],
    ['zh-Hant-TW', 'zh', 'iso639-1'],
    ['eng', 'eng', 'iso639-3'],
    ['de-CH-1996', 'de', 'iso639-1'],
    ['x-klingon', undefined, undefined],
  ] as const;
  for (const [given, code, source] of rows) {
    it(`writes ${given} validly in every format${code === undefined ? ', leaving MARC 041 out (no language subtag: a note, 546)' : `, as ${code} in MARC 041`}`, () => {
      // The tag alone: the record's dc:language codes are MARC 041 codes too.
      const { language: _dcLanguage, ...dc } = SHAPES[0]!.record.dc as Record<string, unknown>;
      const record = fields({ ...SHAPES[0]!.record, dc, language: given.replace('-', '_') });
      expect(record.language).to.equal(given);
      for (const format of CROSSWALKED) {
        const out = format.fromRecord(record, CTX);
        if (isNotOffered(out)) throw new Error(out.notOffered);
        expect(validate(out, format.prefix as FormatPrefix), format.prefix).to.deep.equal([]);
        if (format.prefix === 'marc21') {
          if (code === undefined) expect(out).to.not.contain('tag="041"');
          else
            expect(out).to.contain(
              `<datafield tag="041" ind1=" " ind2="7"><subfield code="a">${code}</subfield><subfield code="2">${source}</subfield></datafield>`,
            );
        } else if (format.prefix === 'mods') expect(out).to.contain(`<languageTerm type="code" authority="rfc5646">${given}</languageTerm>`);
        else if (format.prefix === 'oai_openaire' || format.prefix === 'edm' || format.prefix === 'rioxx')
          expect(out).to.contain(`<dc:language>${given}</dc:language>`);
        else if (format.prefix === 'qdc') expect(out).to.contain(`<dc:language xsi:type="dcterms:RFC4646">${given}</dc:language>`);
        else expect(out).to.contain(`<language>${given}</language>`);
      }
    });
  }
});

describe('writing every format of a record at once', () => {
  it("writes oai_dc and each format the model allows, in the registry's order, and leaves the XML a record gives as given", () => {
    const record = fields({ id: 'x', dc: { title: 'T' } });
    const policy = createIdPolicy({ namespace: 'example.org' });
    const preparation = { formats: createFormatRegistry(BUILT_IN_FORMATS), policy };
    const w = writeFormats(preparation, 'x', record, {});
    expect(w.written).to.deep.equal(['oai_dc', 'marc21', 'mods', 'qdc']);
    const ctx = { oaiIdentifier: policy.map('x').identifier, poi: poiFromOaiIdentifier(policy.map('x').identifier), options: {} };
    expect(w.metadata.mods).to.equal(CROSSWALKED.find((f) => f.prefix === 'mods')!.fromRecord(record, ctx));
    const given = writeFormats(preparation, 'x', record, { mods: '<mods xmlns="http://www.loc.gov/mods/v3"/>' });
    expect(given.written).to.deep.equal(['oai_dc', 'marc21', 'qdc']);
    expect(given.metadata.mods).to.equal('<mods xmlns="http://www.loc.gov/mods/v3"/>');
  });
});
