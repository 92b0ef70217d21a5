/**
 * What a DataCite record becomes in the other formats by the published
 * mappings: in oai_dc (DataCite to Dublin Core Mapping 4.4: the publication
 * date leads dc:date, a Coverage date is coverage, related identifiers are
 * relations), and in oai_openaire for every resourceTypeGeneral of DataCite
 * 4.7 (COAR Resource Types 3.2).
 */
import { expect } from 'chai';
import { datacite } from '../../lib/formats/datacite';
import { oaiOpenaire } from '../../lib/formats/oai-openaire';
import { oaiDatacite } from '../../lib/formats/oai-datacite';
import { isNotOffered, type CrosswalkContext } from '../../lib/formats/format';
import { oaiDcOf } from '../../lib/pipeline/prepare';
import { COAR_OF_DATACITE_GENERAL, COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES, DATACITE_RESOURCE_TYPES } from '../../lib/model/vocabularies';
import type { RecordFields } from '../../lib/model/record';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';
import { fixtureRoot } from '../helpers/xml-fixtures';
import { validate } from '../helpers/xsd';

const K4 = 'xmlns="http://datacite.org/schema/kernel-4"';
const read = (xml: string): RecordFields => datacite.read!(parseFragment(xml)!);
/** oai_dc as the pipeline writes it for a record lifted from DataCite. */
const oaiDc = (r: RecordFields) => oaiDcOf(r, { poiInDublinCore: false }, undefined);

/** A minimal kernel-4 resource with the given children. */
const resource = (body: string): string =>
  `<resource ${K4}><identifier identifierType="DOI">10.5281/zenodo.1</identifier><creators><creator><creatorName>A</creatorName></creator></creators><titles><title>T</title></titles><publisher>Zenodo</publisher><publicationYear>2024</publicationYear>${body}</resource>`;

describe('DataCite to Dublin Core (DataCite to Dublin Core Mapping 4.4)', () => {
  it('puts the publication date first in dc:date, then publicationYear, before the Valid and Updated ranges, which do not replace them', () => {
    const r = read(
      resource(
        '<dates><date dateType="Valid">2024-08-01/2025-08-01</date><date dateType="Updated">2024-09-01/2024-09-30</date><date dateType="Issued">2024-08-01</date></dates>',
      ),
    );
    expect(oaiDc(r).date).to.deep.equal(['2024-08-01', '2024', '2024-08-01/2025-08-01', '2024-09-01/2024-09-30']);
  });

  it('puts the publication year first when no Issued date is given', () => {
    const r = read(resource('<dates><date dateType="Created">2020-02-02</date></dates>'));
    expect(oaiDc(r).date).to.deep.equal(['2024', '2020-02-02']);
  });

  it("writes a project's Coverage range as dc:coverage, never as its only dc:date", () => {
    const r = read(
      resource('<resourceType resourceTypeGeneral="Project">Project</resourceType><dates><date dateType="Coverage">2020-01-01/2023-12-31</date></dates>'),
    );
    const dc = oaiDc(r);
    expect(dc.coverage).to.deep.equal(['2020-01-01/2023-12-31']);
    expect(dc.date).to.deep.equal(['2024']);
  });

  it("writes DataCite 4.6's own example's Coverage date as coverage and its Issued date first", () => {
    const dc = oaiDc(datacite.read!(fixtureRoot('realworld', 'datacite-bolognese', 'datacite-example-full-v4.6.xml')));
    expect(dc.date?.[0]).to.equal('2023-01-01');
    expect(dc.date).to.not.include('2020-01-01');
    expect(dc.coverage).to.deep.equal(['2020-01-01', 'Vancouver, British Columbia, Canada']);
  });

  it("writes Dryad's HasPart and IsReferencedBy relations as dc:relation, each once, as URIs where the scheme has one", () => {
    const dc = oaiDc(datacite.read!(fixtureRoot('realworld', 'datacite-bolognese', 'datacite_dataset.xml')));
    expect(dc.relation).to.deep.equal([
      'https://doi.org/10.5061/DRYAD.8515/1',
      'https://doi.org/10.5061/DRYAD.8515/2',
      'https://doi.org/10.1371/JOURNAL.PPAT.1000446',
      'PMID:19478877',
    ]);
  });

  it('writes nine HasPart relations as nine dc:relation', () => {
    const parts = Array.from(
      { length: 9 },
      (_, i) => `<relatedIdentifier relatedIdentifierType="DOI" relationType="HasPart">10.5281/zenodo.${i + 10}</relatedIdentifier>`,
    );
    const dc = oaiDc(read(resource(`<relatedIdentifiers>${parts.join('')}</relatedIdentifiers>`)));
    expect(dc.relation).to.have.length(9);
    expect(dc.relation?.[8]).to.equal('https://doi.org/10.5281/zenodo.18');
  });
});

describe('DataCite to oai_openaire (COAR Resource Types 3.2)', () => {
  const ctx: CrosswalkContext = { oaiIdentifier: 'oai:x.org:1', options: {} };
  const typeOf = (xml: string): XmlElement => {
    const root = parseFragment(xml)!;
    return root.children.find((c): c is XmlElement => c.kind === 'element' && c.local === 'resourceType')!;
  };

  it('maps every DataCite 4.7 resourceTypeGeneral to a COAR concept OpenAIRE v4 accepts', () => {
    expect(Object.keys(COAR_OF_DATACITE_GENERAL).sort()).to.deep.equal([...DATACITE_RESOURCE_TYPES].sort());
    for (const suffix of Object.values(COAR_OF_DATACITE_GENERAL)) expect(COAR_TYPES.has(COAR_RESOURCE_TYPE_PREFIX + suffix), suffix).to.equal(true);
  });

  for (const general of DATACITE_RESOURCE_TYPES) {
    const coar = COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + COAR_OF_DATACITE_GENERAL[general])!;
    it(`writes an open ${general} as oai_openaire typed ${coar.uri.slice(COAR_RESOURCE_TYPE_PREFIX.length)} (${coar.label}), valid against OpenAIRE v4`, () => {
      const r = read(
        resource(
          `<resourceType resourceTypeGeneral="${general}">Zenodo's ${general}</resourceType><rightsList><rights rightsURI="info:eu-repo/semantics/openAccess">Open Access</rights></rightsList>`,
        ),
      );
      const out = oaiOpenaire.fromRecord!(r, ctx);
      if (out === undefined || isNotOffered(out)) throw new Error(`not offered: ${JSON.stringify(out)}`);
      const t = typeOf(out);
      expect(t.attrs.get('uri')).to.equal(coar.uri);
      expect(t.attrs.get('resourceTypeGeneral')).to.equal(coar.openaire);
      expect(t.children.map((c) => (c.kind === 'text' ? c.text : '')).join('')).to.equal(coar.label);
      expect(validate(out, 'oai_openaire')).to.deep.equal([]);
    });
  }

  it("keeps a record's own COAR type and its label over the one of its general type", () => {
    const r: RecordFields = {
      dc: { title: ['T'] },
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_bdcc', general: 'Dissertation', label: 'Masterarbeit' },
      accessRights: 'open',
      identifiers: [{ type: 'DOI', value: '10.5555/x' }],
    };
    const out = oaiOpenaire.fromRecord!(r, ctx) as string;
    expect(typeOf(out).attrs.get('uri')).to.equal('http://purl.org/coar/resource_type/c_bdcc');
    expect(out).to.contain('>Masterarbeit</oaire:resourceType>');
  });

  it('still offers no oai_openaire for a record without any type: a type is never invented', () => {
    const r: RecordFields = { dc: { title: ['T'] }, accessRights: 'open', identifiers: [{ type: 'DOI', value: '10.5555/x' }] };
    expect(oaiOpenaire.fromRecord!(r, ctx)).to.deep.equal({
      notOffered: 'OpenAIRE v4 needs a resource type (COAR, a DataCite resourceTypeGeneral, or a dc:type naming a COAR concept)',
    });
  });
});

describe('the kernel-4 resource written once for datacite and oai_datacite', () => {
  const r = read(resource('<resourceType resourceTypeGeneral="Dataset">Data</resourceType>'));
  const ctx = (oaiIdentifier: string, poi?: string): CrosswalkContext => ({ oaiIdentifier, ...(poi !== undefined && { poi }), options: {} });

  it('is the same payload in oai_datacite as in datacite for the same record', () => {
    const plain = datacite.fromRecord!(r, ctx('oai:x.org:1'));
    const wrapped = oaiDatacite.fromRecord!(r, { ...ctx('oai:x.org:1'), options: { datacentreSymbol: 'X.Y' } });
    expect(isNotOffered(plain) || isNotOffered(wrapped)).to.equal(false);
    expect(wrapped as string).to.contain(`<payload>${plain as string}</payload>`);
  });

  it('is written again, never reused, when the same record is written under another oai-identifier or POI', () => {
    const first = datacite.fromRecord!(r, ctx('oai:x.org:1')) as string;
    const other = datacite.fromRecord!(r, ctx('oai:x.org:2')) as string;
    const withPoi = datacite.fromRecord!(r, ctx('oai:x.org:2', 'http://purl.org/poi/x.org/2')) as string;
    expect(first).to.contain('oai:x.org:1').and.not.contain('oai:x.org:2');
    expect(other).to.contain('oai:x.org:2').and.not.contain('oai:x.org:1');
    expect(withPoi).to.contain('http://purl.org/poi/x.org/2');
    expect(other).to.not.contain('http://purl.org/poi/');
  });
});
