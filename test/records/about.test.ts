import { expect } from 'chai';
import { licencesOf, nestedOrigin, provenanceAbout, rightsAbout, withRightsAbout, type OriginDescription } from '../../lib/records/about';
import { membership } from '../../server/store/apply';
import { withProvenance } from '../../server/loader/xml-record';
import { DC_NS, OAI_DC_NS, PROVENANCE_NS, RIGHTS_NS } from '../../lib/xml/namespaces';
import { eachRow } from '../helpers/table';
import { xsdErrors } from '../helpers/xsd';

const ORIGIN: OriginDescription = {
  harvestDate: '2002-02-08T08:55:46Z',
  altered: false,
  baseURL: 'http://odd.oa.org',
  identifier: 'oai:odd.oa.org:z1x2y3',
  datestamp: '1999-08-07',
  metadataNamespace: OAI_DC_NS,
};

/** A GetRecord response carrying the given about containers, to validate them where they are served. */
function inRecord(about: readonly string[]): string {
  return (
    '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2002-02-08T12:00:00Z</responseDate>' +
    '<request verb="GetRecord" identifier="oai:x.org:1" metadataPrefix="oai_dc">http://x.org/oai</request><GetRecord><record>' +
    '<header><identifier>oai:x.org:1</identifier><datestamp>2002-01-01</datestamp></header>' +
    `<metadata><oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"><dc:title>t</dc:title></oai_dc:dc></metadata>` +
    about.map((a) => `<about>${a}</about>`).join('') +
    '</record></GetRecord></OAI-PMH>'
  );
}

describe('about containers', function () {
  it('writes a provenance container valid against provenance.xsd, harvestDate and datestamp as given', () => {
    const p = provenanceAbout(ORIGIN);
    expect(xsdErrors(inRecord([p.xml]))).to.deep.equal([]);
    expect(p.xml).to.contain('harvestDate="2002-02-08T08:55:46Z" altered="false"').and.contain('<datestamp>1999-08-07</datestamp>');
  });

  it('compares a provenance container without its harvestDate', () => {
    expect(provenanceAbout({ ...ORIGIN, harvestDate: '2030-01-01' }).compareAs).to.equal(provenanceAbout(ORIGIN).compareAs);
    expect(provenanceAbout({ ...ORIGIN, datestamp: '2000-01-01' }).compareAs).to.not.equal(provenanceAbout(ORIGIN).compareAs);
  });

  it('nests the originDescription a record already had, and the chain stays valid', () => {
    const earlier = provenanceAbout({ ...ORIGIN, baseURL: 'http://some.oa.org' }).xml.replace(/ xmlns:xsi="[^"]*" xsi:schemaLocation="[^"]*"/, '');
    const chain = withProvenance([{ xml: earlier }, rightsAbout('https://creativecommons.org/licenses/by/4.0/')], { ...ORIGIN, altered: true });
    expect(chain.map((a) => /^<(\w+)/.exec(a.xml)?.[1])).to.deep.equal(['provenance', 'rights']);
    expect(chain[0]?.xml).to.contain(`<originDescription xmlns="${PROVENANCE_NS}" harvestDate="2002-02-08T08:55:46Z" altered="false"><baseURL>http://some.oa.org</baseURL>`);
    expect(xsdErrors(inRecord(chain.map((a) => a.xml)))).to.deep.equal([]);
  });

  it('finds no originDescription outside a provenance container', () => {
    expect(nestedOrigin(rightsAbout('https://example.org/l').xml)).to.equal(null);
  });

  eachRow(
    [
      ['a dc:rights http URI', { oai_dc: `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"><dc:rights>https://creativecommons.org/licenses/by/4.0/</dc:rights><dc:rights>All rights reserved</dc:rights></oai_dc:dc>` }, ['https://creativecommons.org/licenses/by/4.0/']],
      ['an OpenAIRE licenseCondition', { oai_openaire: '<resource xmlns:oaire="http://namespace.openaire.eu/schema/oaire/"><oaire:licenseCondition uri="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</oaire:licenseCondition></resource>' }, ['https://creativecommons.org/licenses/by/4.0/']],
      ['a DataCite rightsURI', { datacite: '<resource xmlns="http://datacite.org/schema/kernel-4"><rightsList><rights rightsURI="https://creativecommons.org/publicdomain/zero/1.0/">CC0</rights></rightsList></resource>' }, ['https://creativecommons.org/publicdomain/zero/1.0/']],
      ['no licence', { oai_dc: `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"><dc:title>x</dc:title></oai_dc:dc>` }, []],
    ] as const,
    ([what, , expected]) => `finds ${expected.length} licence(s) in ${what}`,
    ([, metadata, expected]) => {
      expect(licencesOf(metadata)).to.deep.equal(expected);
    },
  );

  it('adds a valid rights container per licence, but not to a record with its own or to a deleted one', () => {
    const metadata = { oai_dc: `<oai_dc:dc xmlns:oai_dc="${OAI_DC_NS}" xmlns:dc="${DC_NS}"><dc:rights>https://creativecommons.org/licenses/by/4.0/</dc:rights></oai_dc:dc>` };
    const added = withRightsAbout({ internalId: 'a', metadata });
    expect(added.about?.map((a) => a.xml)).to.deep.equal([rightsAbout('https://creativecommons.org/licenses/by/4.0/').xml]);
    expect(xsdErrors(inRecord(added.about?.map((a) => a.xml) ?? []))).to.deep.equal([]);
    const own = { xml: `<rights xmlns="${RIGHTS_NS}"><rightsReference ref="https://example.org/mine"/></rights>` };
    expect(withRightsAbout({ internalId: 'a', metadata, about: [own] }).about).to.deep.equal([own]);
    expect(withRightsAbout({ internalId: 'a', metadata: {}, deleted: true }).about).to.equal(undefined);
  });
});

describe('set membership rows', function () {
  it('keeps a departure for every set left, ancestors included, and none for a set still held through another', () => {
    const old = [
      { spec: 'a', departed: null },
      { spec: 'a:b', departed: null },
      { spec: 'x', departed: 100 },
    ];
    expect(membership(7, ['a:c'], old, 500)).to.deep.equal([
      ['a', 7, false, 500, null],
      ['a:c', 7, true, 500, null],
      ['a:b', 7, false, 500, 500],
      ['x', 7, false, 500, 100],
    ]);
  });

  it('makes a rejoined set live again', () => {
    expect(membership(7, ['x'], [{ spec: 'x', departed: 100 }], 500)).to.deep.equal([['x', 7, true, 500, null]]);
  });
});
